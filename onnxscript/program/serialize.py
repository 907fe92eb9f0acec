"""onnx_ir functions and models as protos: the API edge of the compiler.

The lowered ``ir.Function`` / ``ir.Model`` become protos with onnx_ir's serializers of
values, types, tensors and attributes. Graphs, nodes and functions are assembled here
because the program's protos differ from what ``ir.serde`` writes for them: value infos
are the program's list (``lowering.VALUE_INFOS``: in its order, graph outputs included,
none for untyped function inputs, kept in a function below IR version 10), sparse tensor
attributes are written (onnx_ir has none), and a node's domain and a graph's name are
always present, as ``onnx.helper`` writes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import onnx
import onnx_ir as ir

from onnxscript.program.graph import Function
from onnxscript.program.lowering import (
    MODEL_FIELDS,
    VALUE_INFOS,
    lower_function,
    lower_model,
    lowered_function,
    model_opset_imports,
)
from onnxscript.program.optional_inputs import expressible, read_optional_inputs
from onnxscript.value_types import TypeSpec

_T = ir.AttributeType


def _tensor_into(proto: onnx.TensorProto, tensor: Any) -> None:
    if isinstance(tensor, ir.serde.TensorProtoTensor):
        proto.CopyFrom(tensor.raw)
    else:
        ir.serde.serialize_tensor_into(proto, tensor)


def _attribute_into(proto: onnx.AttributeProto, attr: Any) -> None:
    proto.name = attr.name
    if attr.is_ref():
        proto.ref_attr_name = attr.ref_attr_name
        proto.type = attr.type.value
        return
    if attr.doc_string:
        proto.doc_string = attr.doc_string
    kind, value = attr.type, attr.value
    if kind == _T.GRAPH:
        graph_into(proto.g, value)
    elif kind == _T.GRAPHS:
        for graph in value:
            graph_into(proto.graphs.add(), graph)
    elif kind == _T.TENSOR:
        _tensor_into(proto.t, value)
    elif kind == _T.TENSORS:
        for tensor in value:
            _tensor_into(proto.tensors.add(), tensor)
    elif kind == _T.STRING:  # bytes that are not UTF-8 are kept as they are
        proto.s = value if isinstance(value, bytes) else value.encode("utf-8")
    elif kind == _T.STRINGS:
        proto.strings.extend(v if isinstance(v, bytes) else v.encode("utf-8") for v in value)
    elif kind == _T.SPARSE_TENSOR:
        proto.sparse_tensor.CopyFrom(value)
    elif kind == _T.SPARSE_TENSORS:
        proto.sparse_tensors.extend(value)
    else:
        ir.serde.serialize_attribute_into(proto, attr)
        return
    proto.type = kind.value


def _node_into(proto: onnx.NodeProto, node: ir.Node) -> None:
    proto.op_type = node.op_type
    proto.domain = node.domain
    proto.input.extend("" if v is None else (v.name or "") for v in node.inputs)
    proto.output.extend(v.name or "" for v in node.outputs)
    if node.name:
        proto.name = node.name
    if node.doc_string:
        proto.doc_string = node.doc_string
    if node.overload:
        proto.overload = node.overload
    for attr in node.attributes.values():
        _attribute_into(proto.attribute.add(), attr)
    for key, text in node.metadata_props.items():
        entry = proto.metadata_props.add()
        entry.key = key
        entry.value = text


def _value_infos_into(infos: Any, graph: ir.Graph) -> None:
    for value in graph.meta.get(VALUE_INFOS, ()):
        ir.serde.serialize_value_into(infos.add(), value)


def _opsets_into(ids: Any, imports: dict[str, int]) -> None:
    for domain, version in imports.items():
        entry = ids.add()
        entry.domain = domain
        entry.version = version


def graph_into(proto: onnx.GraphProto, graph: ir.Graph) -> None:
    """Write ``graph`` (a lowered graph) into ``proto``."""
    proto.name = graph.name or ""
    if graph.doc_string:
        proto.doc_string = graph.doc_string
    for value in graph.inputs:
        ir.serde.serialize_value_into(proto.input.add(), value)
    for value in graph.outputs:
        ir.serde.serialize_value_into(proto.output.add(), value)
    for value in graph.initializers.values():
        tensor = proto.initializer.add()
        _tensor_into(tensor, value.const_value)
        tensor.name = value.name or ""
    for node in graph:
        _node_into(proto.node.add(), node)
    _value_infos_into(proto.value_info, graph)


def graph_proto(graph: ir.Graph) -> onnx.GraphProto:
    """A lowered graph as an ``onnx.GraphProto``."""
    proto = onnx.GraphProto()
    graph_into(proto, graph)
    return proto


def function_proto(fn: ir.Function) -> onnx.FunctionProto:
    """A lowered function as an ``onnx.FunctionProto``."""
    proto = onnx.FunctionProto()
    proto.name = fn.name
    proto.domain = fn.domain
    if fn.overload:
        proto.overload = fn.overload
    if fn.doc_string:
        proto.doc_string = fn.doc_string
    proto.input.extend(v.name or "" for v in fn.inputs)
    proto.output.extend(v.name or "" for v in fn.outputs)
    for attr in fn.attributes.values():
        if attr.value is None:
            proto.attribute.append(attr.name)
        else:
            _attribute_into(proto.attribute_proto.add(), attr)
    for node in fn:
        _node_into(proto.node.add(), node)
    _opsets_into(proto.opset_import, dict(fn.opset_imports))
    _value_infos_into(proto.value_info, fn.graph)
    return proto


def model_proto(model: ir.Model) -> onnx.ModelProto:
    """A lowered model as an ``onnx.ModelProto`` (fields as ``onnx.helper.make_model``
    sets them)."""
    proto = onnx.ModelProto()
    proto.ir_version = model.ir_version
    graph_into(proto.graph, model.graph)
    _opsets_into(proto.opset_import, dict(model.opset_imports))
    proto.functions.extend(function_proto(f) for f in model.functions.values())
    for key in ("producer_name", "producer_version", "domain", "model_version", "doc_string"):
        value = getattr(model, key)
        if value is not None:
            setattr(proto, key, value)
    for key, value in model.meta.get(MODEL_FIELDS, {}).items():
        setattr(proto, key, value)
    return proto


def function_to_proto(fn: Function, source_locations: bool = False) -> onnx.FunctionProto:
    """Lower ``fn`` (attribute parameters kept) and serialize it."""
    lowered = lower_function(fn, True) if source_locations else lowered_function(fn)
    return function_proto(lowered)


def function_to_model_proto(
    fn: Function,
    *,
    ir_version: int,
    opset_imports: Mapping[str, int] | None = None,
    bindings: Mapping[str, Any] | None = None,
    input_types: Sequence[TypeSpec | None] | None = None,
    output_types: Sequence[TypeSpec | None] | None = None,
    extra_value_infos: Sequence[tuple[str, TypeSpec]] = (),
    model_fields: Mapping[str, Any] | None = None,
    source_locations: bool = False,
) -> onnx.ModelProto:
    """Lower ``fn`` as the main graph of a model that embeds every function it calls, and
    serialize it.

    Its optional inputs become graph inputs of type ``optional(T)`` where the opset and IR
    version allow (see ``onnxscript.program.optional_inputs``)."""
    imports = dict(opset_imports) if opset_imports is not None else model_opset_imports(fn)
    optional = fn.optional_inputs if expressible(imports.get("", 0), ir_version) else []
    model = lower_model(
        fn,
        ir_version=ir_version,
        opset_imports=imports,
        bindings=bindings,
        input_types=input_types,
        output_types=output_types,
        optional_inputs=optional,
        extra_value_infos=extra_value_infos,
        model_fields=model_fields,
        source_locations=source_locations,
    )
    proto = model_proto(model)
    read_optional_inputs(proto.graph, [v.name or "" for v in optional])
    return proto
