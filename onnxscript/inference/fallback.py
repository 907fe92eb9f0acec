"""onnx's own inference of one node, for ops without a fast rule here.

The node and the types of its inputs are serialized, ``onnx.shape_inference`` infers the
outputs (constant inputs are passed as data, so Reshape-like ops get shapes), and the
result is read back into the outputs that are still unknown.

What of onnx's result is trusted: its element types always; its shapes only when every
present tensor input has a known rank. onnx reads an optional input whose shape it is not
given as an absent one: ``Slice`` with ``steps`` of unknown rank is sliced with step 1
(x[-1:-big] then has 0 elements, where steps of -1 give 2), ``Attention`` a past of
unknown shape as no past; a ``Shape`` folded from such a dim changes the result.
"""

from __future__ import annotations

import functools

import onnx
import onnx.checker
import onnx.shape_inference
import onnx_ir as ir

from onnxscript.inference import InferenceError
from onnxscript.ir_utils.graphs import holds_graphs
from onnxscript.ir_utils.value_facts import READ_LIMIT, constant_tensor


@functools.lru_cache(maxsize=1024)
def _schema(op_type: str, version: int, domain: str) -> onnx.defs.OpSchema | None:
    try:
        return onnx.defs.get_schema(op_type, version, domain)
    except onnx.defs.SchemaError:
        return None


def infer_with_onnx(node: ir.Node, version: int) -> None:
    """Fill the unknown outputs of ``node`` from onnx's inference (when every input's type
    is known and onnx has a schema; shapes only when every tensor input's rank is known);
    onnx's complaints become InferenceError."""
    schema = _schema(node.op_type, version, node.domain)
    if schema is None or any(v is not None and v.type is None for v in node.inputs):
        return
    if holds_graphs(node):
        return  # bodies capture outer values whose types onnx would need as well
    proto = _named_node_proto(node)
    types: dict[str, onnx.TypeProto] = {}
    data: dict[str, onnx.TensorProto] = {}
    for name, value in zip(proto.input, node.inputs):
        if value is None or not name:
            continue
        types[name] = _type_proto(value)
        tensor = constant_tensor(value)  # a graph input's initializer is not data
        if tensor is not None and tensor.size <= READ_LIMIT:
            data[name] = ir.serde.serialize_tensor(tensor)
    ranked = not any(
        v is not None and isinstance(v.type, ir.TensorType) and v.shape is None for v in node.inputs
    )
    opsets = [onnx.helper.make_opsetid(node.domain, version)]
    try:
        found = onnx.shape_inference.infer_node_outputs(schema, proto, types, data, None, opsets)
    except (
        onnx.shape_inference.InferenceError,
        onnx.checker.ValidationError,
        RuntimeError,
    ) as error:
        raise InferenceError(_short(str(error))) from None
    for name, value in zip(proto.output, node.outputs):
        if name in found:
            _read_type(value, found[name], ranked)


def _named_node_proto(node: ir.Node) -> onnx.NodeProto:
    """The node as a proto, unnamed values named (onnx reads an empty name as absent)."""
    inputs = ["" if v is None else (v.name or f"__input_{i}") for i, v in enumerate(node.inputs)]
    outputs = [v.name or f"__output_{i}" for i, v in enumerate(node.outputs)]
    proto = onnx.helper.make_node(node.op_type, inputs, outputs, domain=node.domain)
    for attr in node.attributes.values():
        proto.attribute.append(ir.serde.serialize_attribute(attr))
    return proto


def _type_proto(value: ir.Value) -> onnx.TypeProto:
    """``value``'s type with its shape: a tensor's, or the element's of a sequence or an
    optional (where onnx_ir keeps it, and onnx reads it)."""
    proto = onnx.TypeProto()
    ir.serde.serialize_type_into(proto, value.type)  # type: ignore[arg-type]
    if value.shape is not None:
        ir.serde.serialize_shape_into(proto, value.shape)
    return proto


def _read_type(value: ir.Value, proto: onnx.TypeProto, shapes: bool) -> None:
    """``value``'s unknown type, and (if ``shapes``) its unknown shape, from onnx's."""
    if value.type is None and proto.WhichOneof("value") is not None:
        found = ir.serde.deserialize_type_proto_for_type(proto)
        if not (isinstance(found, ir.TensorType) and found.dtype == ir.DataType.UNDEFINED):
            value.type = found
    if value.shape is None and shapes:
        shape = ir.serde.deserialize_type_proto_for_shape(proto)
        if shape is not None:
            value.shape = shape


def _short(message: str) -> str:
    """onnx's message without its ``[ShapeInferenceError]`` wrapping."""
    return message.replace("[ShapeInferenceError]", "").replace("Inference error(s):", "").strip()


__all__ = ["infer_with_onnx"]
