"""onnx_ir functions and models as protos: the API edge of the compiler.

A lowered ``ir.Function`` becomes a ``FunctionProto``, or the main graph of a
``ModelProto`` (its inputs and outputs typed as the model's, references to attribute
parameters bound to values), with onnx_ir's serializers of values, types, tensors and
attributes. The model is written from the function's one cached lowering rather than
from a second lowering of its body: building onnx_ir objects only to serialize them cost
more than half of ``to_model_proto()``. Graphs, nodes and functions are assembled here
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
    VALUE_INFOS,
    bound_attribute,
    detached_value,
    lower_function,
    lowered_function,
    model_opset_imports,
)
from onnxscript.program.optional_inputs import expressible, model_input_type, read_optional_inputs
from onnxscript.value_types import TypeSpec

_T = ir.AttributeType


def _tensor_into(proto: onnx.TensorProto, tensor: Any) -> None:
    if isinstance(tensor, ir.serde.TensorProtoTensor):
        proto.CopyFrom(tensor.raw)
    else:
        ir.serde.serialize_tensor_into(proto, tensor)


_Bindings = Mapping[str, Any] | None
"""Values of a function's attribute parameters where its body is a model's graph; ``None``
in a function, which keeps the references."""


def _attribute_into(proto: onnx.AttributeProto, attr: Any, bindings: _Bindings) -> None:
    if attr.is_ref() and bindings is not None:
        attr = bound_attribute(attr, bindings)
    proto.name = attr.name
    if attr.is_ref():
        proto.ref_attr_name = attr.ref_attr_name
        proto.type = attr.type.value
        return
    if attr.doc_string:
        proto.doc_string = attr.doc_string
    kind, value = attr.type, attr.value
    if kind == _T.GRAPH:
        graph_into(proto.g, value, bindings)
    elif kind == _T.GRAPHS:
        for graph in value:
            graph_into(proto.graphs.add(), graph, bindings)
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


def _node_into(proto: onnx.NodeProto, node: ir.Node, bindings: _Bindings) -> None:
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
        _attribute_into(proto.attribute.add(), attr, bindings)
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


def _body_into(proto: onnx.GraphProto, graph: ir.Graph, bindings: _Bindings) -> None:
    """Initializers, nodes and value infos of ``graph`` into ``proto``."""
    for value in graph.initializers.values():
        tensor = proto.initializer.add()
        _tensor_into(tensor, value.const_value)
        tensor.name = value.name or ""
    for node in graph:
        _node_into(proto.node.add(), node, bindings)
    _value_infos_into(proto.value_info, graph)


def graph_into(proto: onnx.GraphProto, graph: ir.Graph, bindings: _Bindings = None) -> None:
    """Write ``graph`` (a lowered graph) into ``proto``."""
    proto.name = graph.name or ""
    if graph.doc_string:
        proto.doc_string = graph.doc_string
    for value in graph.inputs:
        ir.serde.serialize_value_into(proto.input.add(), value)
    for value in graph.outputs:
        ir.serde.serialize_value_into(proto.output.add(), value)
    _body_into(proto, graph, bindings)


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
            _attribute_into(proto.attribute_proto.add(), attr, None)
    for node in fn:
        _node_into(proto.node.add(), node, None)
    _opsets_into(proto.opset_import, dict(fn.opset_imports))
    _value_infos_into(proto.value_info, fn.graph)
    return proto


def _lowering(fn: Function, source_locations: bool) -> ir.Function:
    """``fn``'s cached lowering, or a fresh one carrying source locations."""
    return lower_function(fn, True) if source_locations else lowered_function(fn)


def function_to_proto(fn: Function, source_locations: bool = False) -> onnx.FunctionProto:
    """Lower ``fn`` (attribute parameters kept) and serialize it."""
    return function_proto(_lowering(fn, source_locations))


_IO = Sequence[tuple[str, TypeSpec | None]]


def _main_graph_into(
    proto: onnx.GraphProto,
    fn: Function,
    body: ir.Function,
    io: tuple[_IO, _IO],
    bindings: Mapping[str, Any],
    extra_value_infos: Sequence[tuple[str, TypeSpec]],
) -> None:
    """The main graph of ``fn``'s model: ``body`` (its lowering) with the model's typed
    inputs and outputs, attribute references bound, and the extra value infos."""
    proto.name = fn.name
    doc = fn.graph.doc_string or fn.doc_string
    if doc:
        proto.doc_string = doc
    inputs, outputs = io
    _typed_values_into(proto.input, inputs)
    _typed_values_into(proto.output, outputs)
    _body_into(proto, body.graph, bindings)
    _typed_values_into(proto.value_info, extra_value_infos)


def _typed_values_into(infos: Any, values: Sequence[tuple[str, TypeSpec | None]]) -> None:
    for name, t in values:
        ir.serde.serialize_value_into(infos.add(), detached_value(name, t))


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
    """A model whose main graph is ``fn`` and which embeds every function it calls.

    Its optional inputs become graph inputs of type ``optional(T)`` where the opset and IR
    version allow (see ``onnxscript.program.optional_inputs``). ``model_fields`` are
    ``ModelProto`` fields, set as given (``None`` values skipped)."""
    imports = dict(opset_imports) if opset_imports is not None else model_opset_imports(fn)
    optional = fn.optional_inputs if expressible(imports.get("", 0), ir_version) else []
    in_types = list(input_types or [v.declared_type or v.type for v in fn.graph.inputs])
    out_types = output_types or [v.declared_type or v.type for v in fn.graph.outputs]
    for i, v in enumerate(fn.graph.inputs):
        if any(v is o for o in optional):
            in_types[i] = model_input_type(in_types[i])
    body = _lowering(fn, source_locations)
    io = (
        [(v.name or "", t) for v, t in zip(body.inputs, in_types)],
        [(v.name or "", t) for v, t in zip(body.outputs, out_types)],
    )
    proto = onnx.ModelProto()
    proto.ir_version = ir_version
    _main_graph_into(proto.graph, fn, body, io, bindings or {}, extra_value_infos)
    _opsets_into(proto.opset_import, imports)
    proto.functions.extend(
        function_proto(_lowering(f, source_locations)) for f in fn.transitive_callees()
    )
    for key, value in (model_fields or {}).items():
        if value is not None:
            setattr(proto, key, value)
    read_optional_inputs(proto.graph, [v.name or "" for v in optional])
    return proto
