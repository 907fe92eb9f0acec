"""One node through onnx's (C++) version converter: for steps no adapter covers.

The node alone becomes a one-node ModelProto (its inputs typed as the IR knows them, its
small constant inputs as initializers, which the converter may need to read); the
converted nodes replace it in its graph, reading the original inputs and taking over the
original outputs. Nothing else of the model is serialized.
"""

from __future__ import annotations

import onnx
import onnx.helper
import onnx.version_converter
import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.ir_utils.graphs import holds_graphs
from onnxscript.unique_names import UniqueNames
from onnxscript.version_converter._context import VersionConversionError, carry_metadata


def _value_info(name: str, value: ir.Value) -> onnx.ValueInfoProto:
    info = onnx.ValueInfoProto(name=name)
    if value.type is not None:
        ir.serde.serialize_type_into(info.type, value.type)
        if value.shape is not None:
            ir.serde.serialize_shape_into(info.type, value.shape)
    return info


def _small_constant(value: ir.Value) -> ir.TensorProtocol | None:
    """The tensor of a constant input of at most ``value_facts.READ_LIMIT`` elements: it
    goes to onnx's converter as an initializer (shape and axes operands it may turn into
    attributes); anything else as a typed input."""
    tensor = value_facts.constant_tensor(value)
    return tensor if tensor is not None and tensor.size <= value_facts.READ_LIMIT else None


def _one_node_model(node: ir.Node, opset: int) -> onnx.ModelProto:
    proto = ir.serde.serialize_node(node)
    del proto.input[:], proto.output[:]
    inputs, initializers = [], []
    for position, value in enumerate(node.inputs):
        if value is None:
            proto.input.append("")
            continue
        name = f"input_{position}"
        proto.input.append(name)
        tensor = _small_constant(value)
        if tensor is None:
            inputs.append(_value_info(name, value))
        else:
            initializer = ir.serde.serialize_tensor(tensor)
            initializer.name = name
            initializers.append(initializer)
    outputs = []
    for position, value in enumerate(node.outputs):
        proto.output.append(f"output_{position}")
        outputs.append(_value_info(f"output_{position}", value))
    graph = onnx.helper.make_graph([proto], "fallback", inputs, outputs, initializers)
    opsets = [onnx.helper.make_opsetid("", opset)]
    model = onnx.helper.make_model(graph, opset_imports=opsets)
    model.ir_version = max(4, onnx.helper.find_min_ir_version_for(opsets, ignore_unknown=True))
    return model


def convert_node(node: ir.Node, opset: int, target: int, names: UniqueNames) -> None:
    """Replace ``node`` (written for ``opset``) by what onnx's converter makes of it at
    ``target``."""
    if holds_graphs(node):
        raise VersionConversionError(
            f"{node.op_type} node {node.name!r} has subgraphs: onnx's converter cannot "
            "take it alone"
        )
    converted = onnx.version_converter.convert_version(_one_node_model(node, opset), target)
    _splice(node, ir.serde.deserialize_graph(converted.graph), names)


def _splice(node: ir.Node, converted: ir.Graph, names: UniqueNames) -> None:
    graph = node.graph
    assert graph is not None
    originals: dict[str, ir.Value] = {}
    for position, value in enumerate(node.inputs):
        if value is not None:
            originals[f"input_{position}"] = value
    results = list(converted.outputs)
    converted.outputs.clear()
    moved = list(converted)
    converted.remove(moved)
    constants: dict[str, ir.Value] = {}
    for new in moved:
        for position, value in enumerate(new.inputs):
            if value is None or value.producer() is not None:
                continue
            name = value.name or ""
            replacement = originals.get(name) or constants.get(name)
            if replacement is None:
                replacement = _constant(graph, node, value, names)
                constants[name] = replacement
            new.replace_input_with(position, replacement)
        _adopt(new, node, names)
    graph.insert_before(node, moved)
    for position, output in enumerate(node.outputs):
        result = results[position]
        if result.producer() is None:  # the converter passed an input straight through
            result = _identity(graph, node, originals[result.name or ""], names)
        _take_over(graph, output, result, names)
    graph.remove(node, safe=True)


def _adopt(new: ir.Node, old: ir.Node, names: UniqueNames) -> None:
    base = old.name or old.op_type
    new.name = names.claim(f"{base}/{new.op_type}")
    carry_metadata(new, old)
    for value in new.outputs:
        value.name = names.claim(f"{base}_{new.op_type.lower()}")


def _constant(graph: ir.Graph, before: ir.Node, value: ir.Value, names: UniqueNames) -> ir.Value:
    """A Constant node for an initializer the converter created."""
    assert value.const_value is not None
    constant = ir.node("Constant", [], {"value": value.const_value})
    _adopt(constant, before, names)
    graph.insert_before(before, constant)
    return constant.outputs[0]


def _identity(graph: ir.Graph, before: ir.Node, value: ir.Value, names: UniqueNames) -> ir.Value:
    identity = ir.node("Identity", [value])
    _adopt(identity, before, names)
    graph.insert_before(before, identity)
    return identity.outputs[0]


def _take_over(graph: ir.Graph, old: ir.Value, new: ir.Value, names: UniqueNames) -> None:
    old.replace_all_uses_with(new, replace_graph_outputs=True)
    if new.type is None:
        new.type = old.type
    if new.shape is None and old.shape is not None:
        new.shape = old.shape.copy()
    carry_metadata(new, old)
    name = old.name
    old.name = names.claim(f"{name or 'value'}_before")
    new.name = name


__all__ = ["convert_node"]
