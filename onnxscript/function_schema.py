"""An ``onnx.defs.OpSchema`` describing a script function, built from its signature.

Code written for onnxscript 0.7 (torch.onnx among it) reads ``function.op_schema`` the way
it reads an op's: inputs with type constraints from the annotations (``FLOAT`` allows
``tensor(float)``; no annotation allows every tensor type), attributes with their defaults,
outputs. Values annotated with one ``TypeVar`` share one constraint named after it (``T``,
``Sequence_T`` for ``Sequence[T]``), as 0.7's ``op_signature`` has them; any other input has
its own, ``T_<name>``, and any other output ``TReturn<i>``. ``op_signature`` is onnx_ir's
``OpSignature`` made from that schema.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import onnx
import onnx.defs

from onnxscript import dtypes
from onnxscript.language.annotations import ANY_TENSOR, type_choice
from onnxscript.value_types import OptionalTypeSpec, SequenceTypeSpec, TensorTypeSpec, TypeSpec

if TYPE_CHECKING:
    from onnx_ir import AttributeType
    from onnx_ir.schemas import OpSignature

_Option = onnx.defs.OpSchema.FormalParameterOption


@dataclass(frozen=True)
class FormalInput:
    """One input or output of a function: its name, the types it may have (``types``;
    ``TensorTypeSpec(None)`` stands for every tensor type), whether it may be omitted, and
    ``type_param``: the name of the ``TypeVar`` whose type it shares with every other value
    naming it (``None``: a constraint of its own)."""

    name: str
    types: tuple[TypeSpec, ...]
    optional: bool = False
    type_param: str | None = None


def annotated(
    name: str, annotation: Any, optional: bool = False, known: TypeSpec | None = None
) -> FormalInput:
    """The input or output ``name`` as its annotation describes it (``type_choice``); without
    one (``inspect.Parameter.empty``), of the type ``known`` if given, else of any tensor
    type."""
    choice = type_choice(annotation) if annotation is not inspect.Parameter.empty else None
    if choice is None:
        return FormalInput(name, (known or ANY_TENSOR,), optional)
    return FormalInput(name, choice.types, optional, choice.type_param)


@dataclass(frozen=True)
class FormalAttribute:
    """One attribute parameter: name, ``onnx.AttributeProto`` kind, default if any."""

    name: str
    kind: int
    default: Any = None
    has_default: bool = False


def type_strings(spec: TypeSpec | None) -> list[str]:
    """The schema type strings a value of type ``spec`` may have."""
    if spec is None:
        return [dtypes.type_string(code) for code in _schema_dtypes()]
    if isinstance(spec, TensorTypeSpec):
        if spec.dtype is None:
            return type_strings(None)
        return [dtypes.type_string(spec.dtype)]
    if isinstance(spec, SequenceTypeSpec):
        return [f"seq({t})" for t in type_strings(spec.elem)]
    if isinstance(spec, OptionalTypeSpec):
        return [f"optional({t})" for t in type_strings(spec.elem)]
    raise TypeError(f"not a type: {spec!r}")


def _schema_dtypes() -> list[int]:
    """Element types onnx's schemas name (``tensor(float)``, ...), in table order."""
    return [code for code in dtypes.NAMES if code != onnx.TensorProto.UNDEFINED]


def build_op_schema(
    name: str,
    domain: str,
    version: int,
    inputs: Sequence[FormalInput],
    outputs: Sequence[FormalInput],
    attributes: Sequence[FormalAttribute],
    doc: str = "",
) -> onnx.defs.OpSchema:
    """A schema of the function: values of one ``type_param`` share one type constraint
    named after it; any other input has its own ``T_<name>``, any other output its own
    ``TReturn<i>`` (an output shares a ``TypeVar``'s constraint only with an input of it,
    as 0.7's signatures do)."""
    constraints: dict[str, list[str]] = {}
    formal: dict[str, list[onnx.defs.OpSchema.FormalParameter]] = {"in": [], "out": []}
    for side, values in (("in", inputs), ("out", outputs)):
        for index, value in enumerate(values):
            allowed = _allowed_strings(value)
            shared = value.type_param
            if side == "out" and shared not in constraints:
                shared = None
            own = f"T_{value.name}" if side == "in" else f"TReturn{index}"
            type_param = _constraint_name(constraints, shared or own, allowed)
            option = _Option.Optional if value.optional else _Option.Single
            formal[side].append(
                onnx.defs.OpSchema.FormalParameter(value.name, type_param, param_option=option)
            )
    return onnx.defs.OpSchema(
        name,
        domain,
        version,
        doc,
        inputs=formal["in"],
        outputs=formal["out"],
        type_constraints=[(key, allowed, "") for key, allowed in constraints.items()],
        attributes=[_attribute(a) for a in attributes],
    )


def _allowed_strings(value: FormalInput) -> list[str]:
    """The schema type strings ``value`` may have, once each (an omittable input's
    ``Optional`` annotation is its being omittable, not an ``optional(...)`` type)."""
    found: dict[str, None] = {}
    for spec in value.types:
        if value.optional and isinstance(spec, OptionalTypeSpec):
            spec = spec.elem
        found.update(dict.fromkeys(type_strings(spec)))
    return list(found)


def _constraint_name(constraints: dict[str, list[str]], wanted: str, allowed: list[str]) -> str:
    """The constraint ``wanted`` (recorded with ``allowed`` if new); a fresh name when
    another constraint already has that name with other types."""
    name, k = wanted, 0
    while name in constraints and constraints[name] != allowed:
        k += 1
        name = f"{wanted}_{k}"
    constraints.setdefault(name, allowed)
    return name


def _attribute(attr: FormalAttribute) -> onnx.defs.OpSchema.Attribute:
    if attr.has_default and attr.default is not None:
        value = onnx.helper.make_attribute(attr.name, attr.default, attr_type=attr.kind)
        return onnx.defs.OpSchema.Attribute(attr.name, value, "")
    kind = onnx.defs.OpSchema.AttrType(attr.kind)  # type: ignore[call-arg]
    return onnx.defs.OpSchema.Attribute(attr.name, kind, "", required=not attr.has_default)


def traced_op_schema(
    function: Callable[..., Any], name: str, domain: str, version: int, doc: str = ""
) -> onnx.defs.OpSchema:
    """The schema of a Python function called as an op (a traced function), from its
    annotations: tensor-annotated parameters are inputs, attribute-annotated ones
    attributes (``language.annotations.callable_signature``), the return annotation gives
    the outputs (``return_val_<i>``)."""
    from onnxscript.language.annotations import callable_signature, output_annotations, type_hints

    hints = type_hints(function)
    sig = callable_signature(function, name)
    inputs = [
        annotated(p.name, hints.get(p.name, inspect.Parameter.empty), p.optional)
        for p in sig.inputs
    ]
    returned = output_annotations(hints.get("return", inspect.Signature.empty))
    outputs = [annotated(f"return_val_{i}", t) for i, t in enumerate(returned)]
    attrs = [FormalAttribute(p.name, p.attr_kind, p.default, p.has_default) for p in sig.attributes]
    return build_op_schema(name, domain, version, inputs, outputs, attrs, doc)


def op_signature_from_function(
    func: Callable[..., Any],
    domain: str,
    name: str | None = None,
    overload: str = "",
    since_version: int = 1,
) -> OpSignature:
    """onnx_ir's ``OpSignature`` of a Python function from its annotations (onnxscript
    0.7's ``onnxscript.ir._schemas`` function): what a traced function's ``op_signature``
    is, named ``domain::name`` (the function's name by default), with ``overload`` and
    ``since_version``. A parameter annotated neither as a tensor nor as an attribute is a
    TypeError."""
    import dataclasses

    op_name = name if name is not None else func.__name__
    schema = traced_op_schema(func, op_name, domain, since_version, func.__doc__ or "")
    signature = op_signature(schema, list(inspect.signature(func).parameters))
    return dataclasses.replace(signature, overload=overload)


def get_attr_type(type_: Any) -> AttributeType:
    """onnx_ir's ``AttributeType`` of an attribute annotated ``type_`` (onnxscript 0.7's
    rule): ``int``/``bool``, ``float``, ``str``, onnx_ir's ``Tensor``/``TensorProtocol``
    and ``Graph``/``GraphProtocol``, and lists, tuples or sequences of one of them;
    ``UNDEFINED`` for anything else (``Optional[int]`` included)."""
    import typing

    import onnx_ir as ir

    from onnxscript.language.annotations import ATTR_KINDS, LIST_KINDS, LIST_ORIGINS

    kinds: dict[Any, int] = {
        **ATTR_KINDS,
        ir.Tensor: ir.AttributeType.TENSOR,
        ir.TensorProtocol: ir.AttributeType.TENSOR,
        ir.Graph: ir.AttributeType.GRAPH,
        ir.GraphProtocol: ir.AttributeType.GRAPH,
    }
    list_kinds: dict[Any, int] = {
        **LIST_KINDS,
        ir.Tensor: ir.AttributeType.TENSORS,
        ir.TensorProtocol: ir.AttributeType.TENSORS,
        ir.Graph: ir.AttributeType.GRAPHS,
        ir.GraphProtocol: ir.AttributeType.GRAPHS,
    }
    if isinstance(type_, type) and type_ in kinds:
        return ir.AttributeType(kinds[type_])
    if typing.get_origin(type_) in LIST_ORIGINS:
        args = {a for a in typing.get_args(type_) if a is not Ellipsis}
        if len(args) == 1:
            (element,) = args
            if isinstance(element, type) and element in list_kinds:
                return ir.AttributeType(list_kinds[element])
    return ir.AttributeType.UNDEFINED


def op_signature(schema: onnx.defs.OpSchema, order: Sequence[str] = ()) -> OpSignature:
    """onnx_ir's ``OpSignature`` of a schema (onnx_ir is imported here, on first use).

    ``order``: the function's parameter names in the order it declares them (a schema lists
    inputs, then attributes by name; a function's signature keeps its own order, as 0.7's
    do, so that positional arguments bind by it)."""
    from onnx_ir.schemas import OpSignature

    signature = OpSignature.from_op_schema(schema)
    if not order:
        return signature
    rank = {name: i for i, name in enumerate(order)}
    params = sorted(signature.params, key=lambda p: rank.get(p.name, len(rank)))
    return OpSignature(
        domain=signature.domain,
        name=signature.name,
        overload=signature.overload,
        params=params,
        outputs=signature.outputs,
        since_version=signature.since_version,
    )


__all__ = [
    "FormalAttribute",
    "FormalInput",
    "annotated",
    "build_op_schema",
    "get_attr_type",
    "op_signature",
    "op_signature_from_function",
    "traced_op_schema",
    "type_strings",
]
