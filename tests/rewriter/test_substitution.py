"""A replacement's constants go in the forms the model allows: initializers from IR
version 4, Constant nodes of the types the opset's Constant holds, or the rewrite is not
made; a node the replacement names gets a name no node of the graph has. Checked with the
full checker and onnxruntime before and after."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import pytest
from onnx import TensorProto, helper

from onnxscript import rewriter
from onnxscript.rewriter import pattern
from onnxscript.rewriter.rules.common import (
    fuse_batchnorm_into_conv_rule,
    materialize_reshape_shape_rule,
)
from tests.helpers import assert_transform_keeps_results


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    outputs: list[onnx.ValueInfoProto],
    initializers: list[onnx.TensorProto],
    opset: int,
    ir_version: int,
) -> onnx.ModelProto:
    if ir_version < 4:  # every initializer is a graph input
        inputs = [
            *inputs,
            *(helper.make_tensor_value_info(t.name, t.data_type, t.dims) for t in initializers),
        ]
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = ir_version
    onnx.checker.check_model(model, full_check=True)
    return model


@pytest.mark.parametrize("ir_version", [3, 4])
def test_fused_weights_of_an_ir3_model_are_constant_nodes(ir_version: int):
    """The weights are Constant nodes (in IR 3 an initializer would be an input a caller
    may feed); the fused ones are Constant nodes too there, initializers from IR 4."""
    rng = np.random.default_rng(0)
    arrays = {
        "w": rng.standard_normal((3, 2, 3, 3)),
        "s": [1.0, 2.0, 3.0],
        "b": [0.1, 0.2, 0.3],
        "mu": [0.5, -0.5, 0.25],
        "v": [1.0, 4.0, 9.0],
    }
    constants = [
        helper.make_node(
            "Constant", [], [n], value=onnx.numpy_helper.from_array(np.asarray(a, np.float32), n)
        )
        for n, a in arrays.items()
    ]
    model = _model(
        [
            *constants,
            helper.make_node("Conv", ["x", "w"], ["y"]),
            helper.make_node("BatchNormalization", ["y", "s", "b", "mu", "v"], ["z"]),
        ],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5, 5])],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 3, 3, 3])],
        [],
        7,
        ir_version,
    )
    result = rewriter.rewrite(model, pattern_rewrite_rules=[fuse_batchnorm_into_conv_rule])
    feeds = {"x": rng.standard_normal((1, 2, 5, 5)).astype(np.float32)}
    assert_transform_keeps_results(model, result, feeds)
    assert "BatchNormalization" not in [n.op_type for n in result.graph.node]
    assert len(result.graph.initializer) == (0 if ir_version < 4 else 2)


def _reshape_model(opset: int, ir_version: int) -> onnx.ModelProto:
    """``Reshape(X, Concat(Shape(X)[:2], [2, 3]))`` at an opset whose Constant holds no
    int64 (its own int64 constant an initializer: IR 4)."""
    b = onnx.numpy_helper.from_array(np.array([2, 3], np.int64), "b")
    return _model(
        [
            helper.make_node("Shape", ["X"], ["s"]),
            helper.make_node("Slice", ["s"], ["a"], starts=[0], ends=[2]),
            helper.make_node("Concat", ["a", "b"], ["t"], axis=0),
            helper.make_node("Reshape", ["X", "t"], ["Y"]),
        ],
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, "N", 6])],
        [helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, "N", 2, 3])],
        [b],
        opset,
        ir_version,
    )


def test_an_int64_constant_below_opset_9_becomes_an_initializer():
    model = _reshape_model(8, 4)
    result = rewriter.rewrite(model, pattern_rewrite_rules=[materialize_reshape_shape_rule])
    assert "Shape" not in [n.op_type for n in result.graph.node]
    assert "Constant" not in [n.op_type for n in result.graph.node]
    feeds = {"X": np.arange(36, dtype=np.float32).reshape(2, 3, 6)}
    assert_transform_keeps_results(model, result, feeds)


def test_an_int64_constant_of_an_ir3_model_below_opset_9_is_not_made():
    model = _reshape_model(8, 3)
    result = rewriter.rewrite(model, pattern_rewrite_rules=[materialize_reshape_shape_rule])
    assert "Shape" in [n.op_type for n in result.graph.node]  # no form for int64: left
    feeds = {"X": np.arange(36, dtype=np.float32).reshape(2, 3, 6)}
    assert_transform_keeps_results(model, result, feeds)


def test_a_node_a_rule_names_takes_a_free_name():
    """A replacement may name its nodes (``_name=``): one named as a node of the graph is
    (onnxruntime refuses two nodes of one name) gets the next free name."""
    rule = pattern.RewriteRule(
        lambda op, x: op.Neg(op.Neg(x)), lambda op, x: op.Identity(x, _name="keep")
    )
    before = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2,3] x) => (float[2,3] y, float[2,3] z) {
          a = Neg(x)
          y = Neg(a)
          z = Relu(x) }"""
    )
    before.graph.node[2].name = "keep"
    after = rewriter.rewrite(before, pattern_rewrite_rules=[rule])
    names = sorted(n.name for n in after.graph.node)
    assert names == ["keep", "keep_1"], names
    assert_transform_keeps_results(before, after, {"x": np.ones((2, 3), np.float32)})
