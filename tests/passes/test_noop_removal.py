"""NoOpRemovalPass: nodes whose output equals their input (by the types and shapes
written on the model) are bypassed; look-alikes that change something stay. Each model
is checked and run in onnxruntime before and after."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript.passes.noop_removal import NoOpRemovalPass

ort = pytest.importorskip("onnxruntime")


def _model(nodes: list[onnx.NodeProto], out_shape: list[object], *inits: onnx.TensorProto):
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", "seq", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
        list(inits),
        value_info=[helper.make_tensor_value_info("t", TensorProto.FLOAT, ["batch", "seq", 4])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def _ints(name: str, values: list[int]) -> onnx.TensorProto:
    return helper.make_tensor(name, TensorProto.INT64, [len(values)], values)


def _optimized_ops(model: onnx.ModelProto) -> list[str]:
    onnx.checker.check_model(model, full_check=True)
    x = np.random.default_rng(0).standard_normal((2, 3, 4)).astype(np.float32)
    before = ort.InferenceSession(model.SerializeToString()).run(None, {"x": x})
    ir_model = ir.serde.deserialize_model(model)
    NoOpRemovalPass()(ir_model)
    after_proto = ir.serde.serialize_model(ir_model)
    onnx.checker.check_model(after_proto, full_check=True)
    after = ort.InferenceSession(after_proto.SerializeToString()).run(None, {"x": x})
    np.testing.assert_array_equal(before[0], after[0])
    return [n.op_type for n in after_proto.graph.node]


def test_reshape_to_its_own_shape_goes():
    nodes = [
        helper.make_node("Reshape", ["x", "shape"], ["t"]),
        helper.make_node("Relu", ["t"], ["y"]),
    ]
    model = _model(nodes, ["batch", "seq", 4], _ints("shape", [0, 0, 4]))
    assert _optimized_ops(model) == ["Relu"]


@pytest.mark.parametrize("op", ["Reshape", "Expand"])
def test_reshape_or_expand_to_the_inputs_own_shape_value_goes(op: str):
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node(op, ["x", "s"], ["r"]),  # r has no shape written
        helper.make_node("Relu", ["r"], ["y"]),
    ]
    assert _optimized_ops(_model(nodes, ["batch", "seq", 4])) == ["Shape", "Relu"]


def test_reshape_to_the_shape_of_another_value_stays():
    nodes = [
        helper.make_node("Transpose", ["x"], ["swapped"], perm=[1, 0, 2]),
        helper.make_node("Shape", ["swapped"], ["s"]),
        helper.make_node("Reshape", ["x", "s"], ["r"]),
        helper.make_node("Relu", ["r"], ["y"]),
    ]
    ops = _optimized_ops(_model(nodes, ["seq", "batch", 4]))
    assert ops == ["Transpose", "Shape", "Reshape", "Relu"]


def test_concat_with_an_empty_part_goes_and_with_an_unknown_part_stays():
    def model(empty_shape: list[object] | None) -> onnx.ModelProto:
        nodes = [
            helper.make_node("Slice", ["x", "four", "end", "last"], ["e"]),
            helper.make_node("Concat", ["x", "e"], ["c"], axis=-1),
            helper.make_node("Relu", ["c"], ["y"]),
        ]
        inits = [_ints("four", [4]), _ints("end", [2**63 - 1]), _ints("last", [-1])]
        built = _model(nodes, ["batch", "seq", 4], *inits)
        if empty_shape is not None:
            built.graph.value_info.append(
                helper.make_tensor_value_info("e", TensorProto.FLOAT, empty_shape)
            )
        return built

    assert _optimized_ops(model(["batch", "seq", 0])) == ["Slice", "Relu"]
    assert _optimized_ops(model(None)) == ["Slice", "Concat", "Relu"]


def test_reshape_to_another_symbolic_dim_stays():
    nodes = [
        helper.make_node("Reshape", ["x", "shape"], ["r"]),
        helper.make_node("Relu", ["r"], ["y"]),
    ]
    graph_model = _model(nodes, ["seq", "batch", 4], _ints("shape", [0, 0, 4]))
    graph_model.graph.value_info.append(
        helper.make_tensor_value_info("r", TensorProto.FLOAT, ["seq", "batch", 4])
    )
    assert "Reshape" in [n.op_type for n in graph_model.graph.node]
    ir_model = ir.serde.deserialize_model(graph_model)
    assert not NoOpRemovalPass()(ir_model).modified


def test_reversing_slice_stays_and_whole_slice_goes():
    whole = [
        helper.make_node("Slice", ["x", "zero", "big", "axis", "one"], ["t"]),
        helper.make_node("Relu", ["t"], ["y"]),
    ]
    inits = (_ints("zero", [0]), _ints("big", [2**62]), _ints("axis", [1]), _ints("one", [1]))
    assert _optimized_ops(_model(whole, ["batch", "seq", 4], *inits)) == ["Relu"]
    reverse = [
        helper.make_node("Slice", ["x", "minus", "low", "axis", "back"], ["t"]),
        helper.make_node("Relu", ["t"], ["y"]),
    ]
    inits = (_ints("minus", [-1]), _ints("low", [-(2**62)]), _ints("axis", [1]))
    inits += (_ints("back", [-1]),)
    assert _optimized_ops(_model(reverse, ["batch", "seq", 4], *inits)) == ["Slice", "Relu"]


def test_casts_to_own_type_and_identity_transpose_go_as_graph_output_too():
    nodes = [
        helper.make_node("Cast", ["x"], ["a"], to=TensorProto.FLOAT),
        helper.make_node("CastLike", ["a", "x"], ["b"]),
        helper.make_node("Relu", ["b"], ["t"]),
        helper.make_node("Transpose", ["t"], ["y"], perm=[0, 1, 2]),
    ]
    assert _optimized_ops(_model(nodes, ["batch", "seq", 4])) == ["Relu"]


def test_cast_to_another_type_stays():
    nodes = [
        helper.make_node("Cast", ["x"], ["d"], to=TensorProto.DOUBLE),
        helper.make_node("Cast", ["d"], ["y"], to=TensorProto.FLOAT),
    ]
    assert _optimized_ops(_model(nodes, ["batch", "seq", 4])) == ["Cast", "Cast"]


def test_adding_zero_and_multiplying_by_one_go_unless_they_broadcast():
    nodes = [
        _constant("zero", [], 0.0),
        _constant("one", [1], 1.0),
        helper.make_node("Add", ["x", "zero"], ["a"]),
        helper.make_node("Mul", ["a", "one"], ["b"]),
        helper.make_node("Relu", ["b"], ["y"]),
    ]
    model = _model(nodes, ["batch", "seq", 4])
    model.graph.value_info.extend(
        helper.make_tensor_value_info(n, TensorProto.FLOAT, ["batch", "seq", 4]) for n in "ab"
    )
    assert _optimized_ops(model) == ["Constant", "Constant", "Relu"]
    nodes = [
        _constant("zeros", [2, 1, 1, 1], 0.0),
        _constant("two", [], 2.0),
        helper.make_node("Add", ["x", "zeros"], ["a"]),
        helper.make_node("Mul", ["a", "two"], ["y"]),
    ]
    model = _model(nodes, [2, "batch", "seq", 4])
    model.graph.value_info.append(
        helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, "batch", "seq", 4])
    )
    assert _optimized_ops(model) == ["Constant", "Constant", "Add", "Mul"]


def test_a_weight_that_is_zero_is_kept():
    """A bias that happens to be 0 (an initializer) is a weight, not a number of the
    program: the Add stays."""
    nodes = [helper.make_node("Add", ["x", "bias"], ["y"])]
    bias = helper.make_tensor("bias", TensorProto.FLOAT, [1], [0.0])
    assert _optimized_ops(_model(nodes, ["batch", "seq", 4], bias)) == ["Add"]


def _constant(name: str, shape: list[int], value: float) -> onnx.NodeProto:
    count = int(np.prod(shape)) if shape else 1
    tensor = helper.make_tensor(name, TensorProto.FLOAT, shape, [value] * count)
    return helper.make_node("Constant", [], [name], value=tensor)
