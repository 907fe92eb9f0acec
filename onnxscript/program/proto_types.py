"""Program types as ``onnx.TypeProto`` and back.

Kept apart from the lowering so that the converter, which reads declared types from
protos, does not load onnx_ir (whose import also loads sympy)."""

from __future__ import annotations

import onnx
import onnx.helper

from onnxscript.value_types import OptionalTypeSpec, SequenceTypeSpec, TensorTypeSpec, TypeSpec


def type_to_proto(t: TypeSpec) -> onnx.TypeProto:
    """The ``onnx.TypeProto`` of an IR type."""
    if isinstance(t, TensorTypeSpec):
        proto = onnx.TypeProto()
        tensor = proto.tensor_type
        tensor.elem_type = t.dtype or 0
        if t.shape is not None:
            shape = tensor.shape
            shape.SetInParent()
            for dim in t.shape:
                d = shape.dim.add()
                if isinstance(dim, int):
                    d.dim_value = dim
                elif isinstance(dim, str):
                    d.dim_param = dim
        return proto
    if isinstance(t, SequenceTypeSpec):
        return onnx.helper.make_sequence_type_proto(type_to_proto(t.elem))
    if isinstance(t, OptionalTypeSpec):
        return onnx.helper.make_optional_type_proto(type_to_proto(t.elem))
    raise TypeError(f"not an IR type: {t!r}")


def type_from_proto(proto: onnx.TypeProto) -> TypeSpec | None:
    """The IR type of an ``onnx.TypeProto`` (``None`` when it holds no type)."""
    which = proto.WhichOneof("value")
    if which == "tensor_type":
        tt = proto.tensor_type
        shape: tuple[int | str | None, ...] | None = None
        if tt.HasField("shape"):
            shape = tuple(
                d.dim_value
                if d.HasField("dim_value")
                else (d.dim_param if d.HasField("dim_param") else None)
                for d in tt.shape.dim
            )
        return TensorTypeSpec(tt.elem_type or None, shape)
    if which == "sequence_type":
        elem = type_from_proto(proto.sequence_type.elem_type)
        return SequenceTypeSpec(elem) if elem is not None else None
    if which == "optional_type":
        elem = type_from_proto(proto.optional_type.elem_type)
        return OptionalTypeSpec(elem) if elem is not None else None
    return None
