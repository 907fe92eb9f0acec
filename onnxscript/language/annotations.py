"""What a parameter's annotation declares: a tensor input (``FLOAT[N]``, ``Optional[...]``,
``Sequence[FLOAT]``, a ``TypeVar`` over tensor types, or no annotation) or an attribute
(``int``, ``float``, ``str``, ``bool`` and sequences of them).

The rule is the one torch.onnx applies to the ATen library's functions, so that a traced
function and the exporter read a signature the same way.
"""

from __future__ import annotations

import collections.abc
import inspect
import types
import typing
from collections.abc import Callable
from typing import Any

from onnxscript.language.attributes import AT
from onnxscript.language.binding import OutputParam, Param, Signature
from onnxscript.onnx_types import is_tensor_type
from onnxscript.value_types import SequenceTypeSpec, TypeSpec

ATTR_KINDS = {int: AT.INT, bool: AT.INT, float: AT.FLOAT, str: AT.STRING}
LIST_KINDS = {int: AT.INTS, bool: AT.INTS, float: AT.FLOATS, str: AT.STRINGS}
LIST_ORIGINS = (list, tuple, collections.abc.Sequence, collections.abc.MutableSequence)


def unwrap_optional(annotation: Any) -> tuple[Any, bool]:
    """``(X, True)`` for ``Optional[X]`` / ``X | None``, else ``(annotation, False)``."""
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(annotation)) == 2:
            return args[0], True
    return annotation, False


def attribute_kind(annotation: Any) -> int | None:
    """The attribute type (``onnx.AttributeProto``) an annotation declares, or ``None``
    when it declares no attribute."""
    if is_tensor_type(annotation):
        return None
    annotation, _ = unwrap_optional(annotation)
    kind = ATTR_KINDS.get(annotation)
    if kind is not None:
        return kind
    if typing.get_origin(annotation) in LIST_ORIGINS:
        args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        if len(args) == 1 and args[0] in LIST_KINDS:
            return LIST_KINDS[args[0]]
    return None


def is_tensor_annotation(annotation: Any) -> bool:
    """Whether an annotation declares a tensor (or sequence of tensors) input: a tensor
    type, a ``TypeVar`` bound or constrained to them, unions, optionals and sequences of
    these, or no annotation at all."""
    if annotation is inspect.Parameter.empty or is_tensor_type(annotation):
        return True
    if isinstance(annotation, typing.TypeVar):
        bound = annotation.__bound__
        options = annotation.__constraints__ or ((bound,) if bound is not None else ())
        return all(is_tensor_annotation(o) for o in options)
    origin = typing.get_origin(annotation)
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if origin is typing.Union or origin is types.UnionType:
        return all(is_tensor_annotation(a) for a in args)
    if origin in LIST_ORIGINS:
        return len(args) == 1 and is_tensor_annotation(args[0])
    return isinstance(annotation, type) and annotation.__name__ == "TensorType"


def callable_signature(fn: Callable[..., Any], name: str) -> Signature:
    """The calling convention of a Python function whose body runs when called (a traced
    function): tensor-annotated parameters are inputs (optional when defaulted to
    ``None``), attribute-annotated ones attributes. Raises ``TypeError`` for a parameter
    whose annotation is neither."""
    hints = type_hints(fn)
    params: list[Param] = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise TypeError(f"{name}: *{p.name} parameters are not supported")
        annotation = hints.get(p.name, inspect.Parameter.empty)
        kind = attribute_kind(annotation) if annotation is not p.empty else None
        keyword_only = p.kind == p.KEYWORD_ONLY
        if kind is not None:
            optional = p.default is not p.empty
            params.append(
                Param(p.name, False, optional, attr_kind=kind, default=p.default,
                      keyword_only=keyword_only)
            )  # fmt: skip
        elif is_tensor_annotation(annotation):
            optional = p.default is None or unwrap_optional(annotation)[1]
            params.append(Param(p.name, True, optional, keyword_only=keyword_only))
        else:
            raise TypeError(
                f"{name}: parameter {p.name!r} has the annotation {annotation!r}, which is "
                "neither a tensor type nor an attribute type (int, float, str, bool, "
                "sequences of them)"
            )
    return Signature(name, tuple(params), (OutputParam("return"),))


def annotation_type(annotation: Any) -> TypeSpec | None:
    """The value type a tensor annotation declares (``None``: any tensor, or no single
    type such as a ``TypeVar`` or a union)."""
    annotation, _ = unwrap_optional(annotation)
    if is_tensor_type(annotation):
        spec: TypeSpec = annotation.type_spec()
        return spec
    if typing.get_origin(annotation) in LIST_ORIGINS:
        args = typing.get_args(annotation)
        if len(args) == 1 and is_tensor_type(args[0]):
            return SequenceTypeSpec(args[0].type_spec())
    return None


def return_types(annotation: Any) -> list[TypeSpec | None]:
    """One type per output a return annotation declares (one untyped output without an
    annotation; ``tuple[FLOAT, INT64]`` gives two)."""
    if annotation is inspect.Signature.empty or annotation is None:
        return [None]
    if typing.get_origin(annotation) is tuple:
        items = [a for a in typing.get_args(annotation) if a is not Ellipsis]
        return [annotation_type(a) for a in items]
    return [annotation_type(annotation)]


def type_hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """``typing.get_type_hints`` where it works (string annotations resolved), else the
    raw annotations."""
    try:
        hints: dict[str, Any] = typing.get_type_hints(fn)
        return hints
    except Exception:
        return dict(getattr(fn, "__annotations__", {}))


__all__ = [
    "annotation_type",
    "attribute_kind",
    "callable_signature",
    "is_tensor_annotation",
    "return_types",
    "type_hints",
    "unwrap_optional",
]
