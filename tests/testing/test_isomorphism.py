"""Proto comparison up to value renaming and the order of independent nodes."""

from __future__ import annotations

import onnx
import onnx.helper as oh
import pytest

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from onnxscript.testing import Mismatch, assert_isomorphic, is_isomorphic

F = onnx.TensorProto.FLOAT


def _graph(nodes, inputs=("x",), outputs=("y",), initializers=()):
    return oh.make_graph(
        nodes,
        "g",
        [oh.make_tensor_value_info(n, F, [2]) for n in inputs],
        [oh.make_tensor_value_info(n, F, [2]) for n in outputs],
        initializer=list(initializers),
    )


def test_renamed_values_and_reordered_independent_nodes():
    a = _graph(
        [
            oh.make_node("Relu", ["x"], ["r"]),
            oh.make_node("Neg", ["x"], ["n"]),
            oh.make_node("Add", ["r", "n"], ["y"]),
        ]
    )
    b = _graph(
        [
            oh.make_node("Neg", ["in"], ["t1"]),
            oh.make_node("Relu", ["in"], ["t0"]),
            oh.make_node("Add", ["t0", "t1"], ["out"]),
        ],
        inputs=("in",),
        outputs=("out",),
    )
    assert_isomorphic(a, b)


def test_swapped_operands_are_not_isomorphic():
    a = _graph([oh.make_node("Sub", ["x", "z"], ["y"])], inputs=("x", "z"))
    b = _graph([oh.make_node("Sub", ["z", "x"], ["y"])], inputs=("x", "z"))
    with pytest.raises(Mismatch, match="input"):
        assert_isomorphic(a, b)


def test_different_attributes_ops_or_constants_differ():
    relu = _graph([oh.make_node("LeakyRelu", ["x"], ["y"], alpha=0.1)])
    other_alpha = _graph([oh.make_node("LeakyRelu", ["x"], ["y"], alpha=0.2)])
    with pytest.raises(Mismatch, match="attribute alpha"):
        assert_isomorphic(relu, other_alpha)
    assert not is_isomorphic(relu, _graph([oh.make_node("Relu", ["x"], ["y"])]))
    c1 = _graph([
        oh.make_node("Constant", [], ["c"], value=oh.make_tensor("c", F, [2], [1.0, 2.0])),
        oh.make_node("Add", ["x", "c"], ["y"]),
    ])  # fmt: skip
    c2 = _graph([
        oh.make_node("Constant", [], ["k"], value=oh.make_tensor("k", F, [2], [1.0, 3.0])),
        oh.make_node("Add", ["x", "k"], ["y"]),
    ])  # fmt: skip
    assert not is_isomorphic(c1, c2)
    assert is_isomorphic(c1, c1)


def test_initializers_match_by_content_not_name():
    w1 = oh.make_tensor("w", F, [2], [1.0, 2.0])
    w2 = oh.make_tensor("weights", F, [2], [1.0, 2.0])
    a = _graph([oh.make_node("Mul", ["x", "w"], ["y"])], initializers=[w1])
    b = _graph([oh.make_node("Mul", ["x", "weights"], ["y"])], initializers=[w2])
    assert_isomorphic(a, b)
    w3 = oh.make_tensor("weights", F, [2], [1.0, 5.0])
    c = _graph([oh.make_node("Mul", ["x", "weights"], ["y"])], initializers=[w3])
    assert not is_isomorphic(a, c)


def test_extra_unused_node_is_a_difference():
    a = _graph([oh.make_node("Relu", ["x"], ["y"])])
    b = _graph([oh.make_node("Relu", ["x"], ["y"]), oh.make_node("Neg", ["x"], ["unused"])])
    with pytest.raises(Mismatch, match="no output depends on"):
        assert_isomorphic(a, b)


def test_one_value_cannot_stand_for_two():
    a = _graph([oh.make_node("Add", ["x", "x"], ["y"])], inputs=("x", "z"))
    b = _graph([oh.make_node("Add", ["x", "z"], ["y"])], inputs=("x", "z"))
    assert not is_isomorphic(a, b)


def test_input_types_matter():
    a = _graph([oh.make_node("Relu", ["x"], ["y"])])
    b = oh.make_graph(
        [oh.make_node("Relu", ["x"], ["y"])],
        "g",
        [oh.make_tensor_value_info("x", F, [3])],
        [oh.make_tensor_value_info("y", F, [2])],
    )
    with pytest.raises(Mismatch, match="input 0 types differ"):
        assert_isomorphic(a, b)


def test_scripts_that_differ_only_in_names_and_order_are_isomorphic():
    @script()
    def first(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
        a = op.Relu(x)
        b = op.Neg(x)
        total = a + b
        for i in range(n):
            if op.ReduceSum(total) > 0.0:
                total = total * 0.5
        return total

    @script()
    def second(inp: FLOAT["N"], count: INT64) -> FLOAT["N"]:
        neg = op.Neg(inp)
        pos = op.Relu(inp)
        acc = pos + neg
        for k in range(count):
            if op.ReduceSum(acc) > 0.0:
                acc = acc * 0.5
        return acc

    @script()
    def third(inp: FLOAT["N"], count: INT64) -> FLOAT["N"]:
        neg = op.Neg(inp)
        pos = op.Relu(inp)
        acc = pos + neg
        for k in range(count):
            if op.ReduceSum(acc) > 0.0:
                acc = acc * 0.25  # differs inside the loop's If branch
        return acc

    assert_isomorphic(first.to_model_proto(), second.to_model_proto())
    with pytest.raises(Mismatch):
        assert_isomorphic(second.to_model_proto(), third.to_model_proto())


def test_function_protos_compare_interfaces_and_bodies():
    @script()
    def f(x: FLOAT["N"], alpha: float = 0.5) -> FLOAT["N"]:
        return op.LeakyRelu(x, alpha=alpha)

    @script()
    def g(x: FLOAT["N"], alpha: float = 0.25) -> FLOAT["N"]:
        return op.LeakyRelu(x, alpha=alpha)

    assert_isomorphic(f.to_function_proto(), f.to_function_proto())
    with pytest.raises(Mismatch, match="function"):
        assert_isomorphic(f.to_function_proto(), g.to_function_proto())


def test_different_proto_kinds_are_refused():
    a = _graph([oh.make_node("Relu", ["x"], ["y"])])
    with pytest.raises(Mismatch, match="cannot compare"):
        assert_isomorphic(a, oh.make_model(a))
