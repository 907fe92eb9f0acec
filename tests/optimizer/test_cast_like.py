"""Constant folding of CastLike: to a Cast when the second input's element type is known,
to a constant of that type when the first input is a constant (within the size limits)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
from onnx import TensorProto, helper

from onnxscript import optimizer
from tests.helpers import assert_same_results

F, H, I64 = TensorProto.FLOAT, TensorProto.FLOAT16, TensorProto.INT64
WHERE = {"namespace": "m/aten.mul.Tensor", "pkg.torch.onnx.fx_node": "%mul"}


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[tuple[str, int, list[int]]],
    outputs: list[tuple[str, int, list[int]]],
    initializers: list[onnx.TensorProto] = (),  # type: ignore[assignment]
    opset: int = 21,
) -> onnx.ModelProto:
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info(n, t, s) for n, t, s in inputs],
        [helper.make_tensor_value_info(n, t, s) for n, t, s in outputs],
        list(initializers),
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 10
    for node in model.graph.node:
        if node.op_type == "CastLike":
            helper.set_metadata_props(node, WHERE)
    onnx.checker.check_model(model, full_check=True)
    return model


def _ops(model: onnx.ModelProto) -> list[str]:
    return [n.op_type for n in model.graph.node]


def test_cast_like_of_a_typed_partner_becomes_a_cast_with_its_metadata():
    nodes = [
        helper.make_node("CastLike", ["x", "h"], ["c"], name="like"),
        helper.make_node("Add", ["c", "h"], ["y"]),
    ]
    model = _model(nodes, [("x", F, [2, 3]), ("h", H, [2, 3])], [("y", H, [2, 3])])
    folded = optimizer.fold_constants(model)
    assert _ops(folded) == ["Cast", "Add"]
    cast = folded.graph.node[0]
    assert cast.name == "like" and cast.output[0] == "c"
    assert helper.get_attribute_value(cast.attribute[0]) == H
    assert {p.key: p.value for p in cast.metadata_props} == WHERE
    assert_same_results(model, folded)


def test_cast_like_of_a_constant_becomes_a_constant_of_the_partner_type():
    scalar = helper.make_tensor("two", F, [], [2.0])
    nodes = [
        helper.make_node("CastLike", ["two", "x"], ["c"]),
        helper.make_node("Mul", ["x", "c"], ["y"]),
    ]
    model = _model(nodes, [("x", H, [4])], [("y", H, [4])], [scalar])
    folded = optimizer.fold_constants(model)
    assert _ops(folded) == ["Mul"]
    (constant,) = [t for t in folded.graph.initializer if t.name == "c"]
    assert constant.data_type == H
    assert onnx.numpy_helper.to_array(constant) == np.float16(2.0)
    assert_same_results(model, folded)


def test_a_folded_cast_like_keeps_its_graph_output_name_and_metadata():
    nodes = [helper.make_node("CastLike", ["three", "x"], ["y"])]
    three = helper.make_tensor("three", I64, [1], [3])
    model = _model(nodes, [("x", F, [1])], [("y", F, [1])], [three])
    folded = optimizer.fold_constants(model)
    assert [o.name for o in folded.graph.output] == ["y"]
    assert _ops(folded) == ["Constant"]
    assert {p.key: p.value for p in folded.graph.node[0].metadata_props} == WHERE
    assert_same_results(model, folded)


def test_the_size_limits_hold_for_a_cast_like_of_a_constant():
    big = helper.make_tensor("big", F, [100], [1.0] * 100)
    nodes = [helper.make_node("CastLike", ["big", "x"], ["y"])]
    model = _model(nodes, [("x", H, [1])], [("y", H, [100])], [big])
    assert _ops(optimizer.fold_constants(model, input_size_limit=10)) == ["Cast"]
    assert _ops(optimizer.fold_constants(model)) == ["Constant"]


def test_a_cast_like_whose_partner_type_is_unknown_stays():
    x = ir.Value(name="x", type=ir.TensorType(ir.DataType.FLOAT), shape=ir.Shape([2]))
    like = ir.Value(name="like", shape=ir.Shape([2]))  # type unknown (as in a function)
    node = ir.Node("", "CastLike", [x, like])
    graph = ir.Graph([x, like], node.outputs, nodes=[node], opset_imports={"": 21})
    model = ir.Model(graph, ir_version=10)
    optimizer.fold_constants(model, onnx_shape_inference=False)
    assert [n.op_type for n in model.graph] == ["CastLike"]


def test_cast_like_saturate_is_kept():
    nodes = [helper.make_node("CastLike", ["x", "h"], ["y"], saturate=0)]
    model = _model(nodes, [("x", F, [3]), ("h", H, [3])], [("y", H, [3])])
    folded = optimizer.fold_constants(model)
    attributes = {a.name: helper.get_attribute_value(a) for a in folded.graph.node[0].attribute}
    assert attributes == {"to": H, "saturate": 0}
