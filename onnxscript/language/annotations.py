"""What a parameter's annotation declares: a tensor input (``FLOAT[N]``, ``Optional[...]``,
``Sequence[FLOAT]``, a ``TypeVar`` over tensor types, a ``Union`` of them, or no
annotation) or an attribute (``int``, ``float``, ``str``, ``bool`` and sequences of them);
and for a tensor input, the types it allows (``type_choice``: what ``op_schema`` and
``op_signature`` state, values annotated with one ``TypeVar`` sharing one constraint).

The rule is the one torch.onnx applies to the ATen library's functions, so that a traced
function and the exporter read a signature the same way.
"""

from __future__ import annotations

import collections.abc
import inspect
import types
import typing
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from onnxscript.language.attributes import AT
from onnxscript.language.binding import OutputParam, Param, Signature
from onnxscript.onnx_types import is_tensor_type
from onnxscript.value_types import (
    OptionalTypeSpec,
    SequenceTypeSpec,
    TensorTypeSpec,
    TypeSpec,
    element_type,
)

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


ANY_TENSOR = TensorTypeSpec(None)
"""A tensor of any element type and shape (an unannotated input, ``TensorType``)."""


@dataclass(frozen=True)
class TypeChoice:
    """What a tensor annotation lets a value be: one of ``types`` (``ANY_TENSOR`` standing
    for every tensor type), and ``type_param``, the name of the ``TypeVar`` whose type the
    value shares with every other value annotated with it (``"T"`` for ``T`` and
    ``Optional[T]``, ``"Sequence_T"`` for ``Sequence[T]``), or ``None``."""

    types: tuple[TypeSpec, ...]
    type_param: str | None = None


def type_choice(annotation: Any) -> TypeChoice | None:
    """The types a tensor annotation allows, ``None`` when it declares no tensor input.

    A tensor type allows itself; a ``TypeVar`` its constraints, else every tensor type of
    its bound, else every tensor type; ``Union[A, B]`` (or ``A | B``) the union of what
    ``A`` and ``B`` allow; ``Optional[X]`` what ``X`` allows; ``Sequence[X]`` sequences of
    what ``X`` allows; no annotation (or ``TensorType``, ``Any``) every tensor type.
    """
    if annotation is inspect.Parameter.empty or _is_any_tensor(annotation):
        return TypeChoice((ANY_TENSOR,))
    if is_tensor_type(annotation):
        return TypeChoice((element_only(annotation.type_spec()),))
    if isinstance(annotation, typing.TypeVar):
        options = annotation.__constraints__ or (
            (annotation.__bound__,) if annotation.__bound__ is not None else ()
        )
        allowed = _union(options) if options else (ANY_TENSOR,)
        return TypeChoice(allowed, annotation.__name__) if allowed is not None else None
    origin = typing.get_origin(annotation)
    if origin is typing.Union or origin is types.UnionType:
        args = typing.get_args(annotation)
        present = [a for a in args if a is not type(None)]
        if len(present) == 1:  # Optional[X]: what X allows (the name of its TypeVar too)
            return type_choice(present[0])
        union = _union(present)
        return TypeChoice(union) if union is not None else None
    if origin in LIST_ORIGINS:
        args = typing.get_args(annotation)
        inner = type_choice(args[0]) if len(args) == 1 else None
        if inner is None:
            return None
        name = f"Sequence_{inner.type_param}" if inner.type_param else None
        return TypeChoice(tuple(SequenceTypeSpec(t) for t in inner.types), name)
    return None


def _is_any_tensor(annotation: Any) -> bool:
    """``TensorType`` itself (the base of ``FLOAT``, ...; ``bound=TensorType``), or
    ``typing.Any``."""
    if annotation is typing.Any:
        return True
    return isinstance(annotation, type) and annotation.__name__ == "TensorType"


def _union(options: Sequence[Any]) -> tuple[TypeSpec, ...] | None:
    """The types any of ``options`` allows, in order, once each (``None`` if one of them is
    no tensor annotation)."""
    found: dict[TypeSpec, None] = {}
    for option in options:
        choice = type_choice(option)
        if choice is None:
            return None
        found.update(dict.fromkeys(choice.types))
    if ANY_TENSOR in found:
        return (ANY_TENSOR,)
    return tuple(found)


def element_only(spec: TypeSpec) -> TypeSpec:
    """``spec`` without its shapes (a constraint on types says nothing of shapes)."""
    if isinstance(spec, TensorTypeSpec):
        return element_type(spec.dtype) if spec.dtype is not None else ANY_TENSOR
    if isinstance(spec, SequenceTypeSpec):
        return SequenceTypeSpec(element_only(spec.elem))
    return OptionalTypeSpec(element_only(spec.elem))


def is_tensor_annotation(annotation: Any) -> bool:
    """Whether an annotation declares a tensor (or sequence of tensors) input: a tensor
    type, a ``TypeVar`` bound or constrained to them, unions, optionals and sequences of
    these, or no annotation at all."""
    return type_choice(annotation) is not None


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


def output_annotations(annotation: Any) -> list[Any]:
    """The annotation of each output a return annotation declares: ``tuple[FLOAT, INT64]``
    (or ``(FLOAT, INT64)``) declares two; no annotation one, unannotated
    (``inspect.Parameter.empty``)."""
    if annotation is inspect.Signature.empty or annotation is None:
        return [inspect.Parameter.empty]
    if isinstance(annotation, tuple):
        return list(annotation)
    if typing.get_origin(annotation) is tuple:
        return [a for a in typing.get_args(annotation) if a is not Ellipsis]
    return [annotation]


def type_hints(fn: Callable[..., Any]) -> dict[str, Any]:
    """``typing.get_type_hints`` where it works (string annotations resolved), else the
    raw annotations."""
    try:
        hints: dict[str, Any] = typing.get_type_hints(fn)
        return hints
    except Exception:
        return dict(getattr(fn, "__annotations__", {}))


__all__ = [
    "ANY_TENSOR",
    "TypeChoice",
    "annotation_type",
    "attribute_kind",
    "callable_signature",
    "element_only",
    "is_tensor_annotation",
    "output_annotations",
    "type_choice",
    "type_hints",
    "unwrap_optional",
]
