"""An ``onnx.defs.OpSchema`` describing a script function, built from its signature.

Code written for onnxscript 0.7 (torch.onnx among it) reads ``function.op_schema`` the way
it reads an op's: inputs with type constraints from the annotations (``FLOAT`` allows
``tensor(float)``; no annotation allows every tensor type), attributes with their defaults,
outputs. ``op_signature`` is onnx_ir's ``OpSignature`` made from that schema.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import onnx
import onnx.defs

from onnxscript import dtypes
from onnxscript.value_types import OptionalTypeSpec, SequenceTypeSpec, TensorTypeSpec, TypeSpec

if TYPE_CHECKING:
    from onnx_ir.schemas import OpSignature

_Option = onnx.defs.OpSchema.FormalParameterOption


@dataclass(frozen=True)
class FormalInput:
    """One input or output of a function: its name, type (``None``: any tensor) and
    whether it may be omitted."""

    name: str
    type: TypeSpec | None
    optional: bool = False


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
    """A schema whose every input and output has its own type constraint ``T_<name>``."""
    constraints: list[tuple[str, list[str], str]] = []
    formal: dict[str, list[onnx.defs.OpSchema.FormalParameter]] = {"in": [], "out": []}
    for side, values in (("in", inputs), ("out", outputs)):
        for value in values:
            spec = value.type
            if value.optional and isinstance(spec, OptionalTypeSpec):
                spec = spec.elem
            type_param = f"T_{value.name}" if side == "in" else f"T_out_{value.name}"
            constraints.append((type_param, type_strings(spec), ""))
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
        type_constraints=constraints,
        attributes=[_attribute(a) for a in attributes],
    )


def _attribute(attr: FormalAttribute) -> onnx.defs.OpSchema.Attribute:
    if attr.has_default and attr.default is not None:
        value = onnx.helper.make_attribute(attr.name, attr.default, attr_type=attr.kind)
        return onnx.defs.OpSchema.Attribute(attr.name, value, "")
    kind = onnx.defs.OpSchema.AttrType(attr.kind)  # type: ignore[call-arg]
    return onnx.defs.OpSchema.Attribute(attr.name, kind, "", required=not attr.has_default)


def op_signature(schema: onnx.defs.OpSchema) -> OpSignature:
    """onnx_ir's ``OpSignature`` of a schema (onnx_ir is imported here, on first use)."""
    from onnx_ir.schemas import OpSignature

    return OpSignature.from_op_schema(schema)


__all__ = ["FormalAttribute", "FormalInput", "build_op_schema", "op_signature", "type_strings"]
