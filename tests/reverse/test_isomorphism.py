"""The structural comparison finds real differences and ignores only renaming and the
documented canonical forms."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as nh

from onnxscript.reverse.isomorphism import differences, isomorphic
from tests.reverse.common import BOOL, FLOAT, INT64, make_model, vi


def _chain(
    names: list[str], ops: tuple[str, ...] = ("Relu", "Neg"), **attrs: object
) -> onnx.ModelProto:
    a, b, c = names
    nodes = [oh.make_node(ops[0], [a], [b]), oh.make_node(ops[1], [b], [c], **attrs)]
    return make_model(nodes, [vi(a, FLOAT, [2])], [vi(c, FLOAT, [2])])


def test_renaming_and_node_order_do_not_matter():
    first = _chain(["x", "y", "z"])
    second = _chain(["p", "q", "r"])
    assert isomorphic(first, second)
    shuffled = make_model(
        [
            oh.make_node("Neg", ["a"], ["c1"]),
            oh.make_node("Abs", ["a"], ["c2"]),
            oh.make_node("Add", ["c1", "c2"], ["out"]),
        ],
        [vi("a", FLOAT, [2])],
        [vi("out", FLOAT, [2])],
    )
    reordered = onnx.ModelProto()
    reordered.CopyFrom(shuffled)
    reordered.graph.node[0].CopyFrom(shuffled.graph.node[1])
    reordered.graph.node[1].CopyFrom(shuffled.graph.node[0])
    assert isomorphic(shuffled, reordered)


def test_different_ops_attributes_and_wiring_are_found():
    assert differences(_chain(["x", "y", "z"]), _chain(["x", "y", "z"], ("Relu", "Abs")))
    base = _chain(["x", "y", "z"], ("Relu", "LeakyRelu"), alpha=0.1)
    other = _chain(["x", "y", "z"], ("Relu", "LeakyRelu"), alpha=0.2)
    assert any("alpha" in d for d in differences(base, other))
    add_ab = make_model(
        [oh.make_node("Sub", ["a", "b"], ["c"])],
        [vi("a", FLOAT, [2]), vi("b", FLOAT, [2])],
        [vi("c", FLOAT, [2])],
    )
    add_ba = make_model(
        [oh.make_node("Sub", ["b", "a"], ["c"])],
        [vi("a", FLOAT, [2]), vi("b", FLOAT, [2])],
        [vi("c", FLOAT, [2])],
    )
    assert differences(add_ab, add_ba)


def test_types_of_the_interface_are_compared():
    a = make_model(
        [oh.make_node("Relu", ["x"], ["y"])], [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])]
    )
    b = make_model(
        [oh.make_node("Relu", ["x"], ["y"])], [vi("x", FLOAT, [3])], [vi("y", FLOAT, [3])]
    )
    assert differences(a, b)


def test_tensor_values_are_compared_exactly():
    def const(values: list[float]) -> onnx.ModelProto:
        node = oh.make_node(
            "Constant", [], ["y"], value=nh.from_array(np.array(values, np.float32))
        )
        return make_model([node], [], [vi("y", FLOAT, [2])])

    assert isomorphic(const([1.0, np.nan]), const([1.0, np.nan]))
    assert differences(const([1.0, 2.0]), const([1.0, 2.5]))


def test_initializers_equal_constants_and_extra_nodes_are_found():
    init = make_model(
        [oh.make_node("Add", ["x", "w"], ["y"])],
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [2])],
        initializers=[nh.from_array(np.ones(2, np.float32), "w")],
    )
    const = make_model(
        [
            oh.make_node("Constant", [], ["w"], value=nh.from_array(np.ones(2, np.float32))),
            oh.make_node("Add", ["x", "w"], ["y"]),
        ],
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [2])],
    )
    assert isomorphic(init, const)
    extra = make_model(
        [
            oh.make_node("Constant", [], ["w"], value=nh.from_array(np.ones(2, np.float32))),
            oh.make_node("Identity", ["w"], ["w2"]),
            oh.make_node("Add", ["x", "w2"], ["y"]),
        ],
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [2])],
    )
    assert differences(init, extra)


def test_constant_true_loop_condition_equals_no_condition():
    body = oh.make_graph(
        [oh.make_node("Identity", ["c"], ["c2"]), oh.make_node("Add", ["y", "y"], ["y2"])],
        "body",
        [vi("i", INT64, []), vi("c", BOOL, []), vi("y", FLOAT, [2])],
        [vi("c2", BOOL, []), vi("y2", FLOAT, [2])],
    )
    with_true = make_model(
        [
            oh.make_node("Constant", [], ["t"], value=oh.make_tensor("", BOOL, [], [True])),
            oh.make_node("Loop", ["n", "t", "x"], ["r"], body=body),
        ],
        [vi("x", FLOAT, [2]), vi("n", INT64, [])],
        [vi("r", FLOAT, [2])],
    )
    without = make_model(
        [oh.make_node("Loop", ["n", "", "x"], ["r"], body=body)],
        [vi("x", FLOAT, [2]), vi("n", INT64, [])],
        [vi("r", FLOAT, [2])],
    )
    assert isomorphic(with_true, without)
    with_input = make_model(
        [oh.make_node("Loop", ["n", "c", "x"], ["r"], body=body)],
        [vi("x", FLOAT, [2]), vi("n", INT64, []), vi("c", BOOL, [])],
        [vi("r", FLOAT, [2])],
    )
    assert differences(without, with_input)


def test_nested_graphs_are_compared():
    def model(op: str) -> onnx.ModelProto:
        then_g = oh.make_graph([oh.make_node(op, ["x"], ["t"])], "t", [], [vi("t", FLOAT, [2])])
        else_g = oh.make_graph([oh.make_node("Neg", ["x"], ["e"])], "e", [], [vi("e", FLOAT, [2])])
        return make_model(
            [oh.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
            [vi("x", FLOAT, [2]), vi("c", BOOL, [])],
            [vi("y", FLOAT, [2])],
        )

    assert isomorphic(model("Abs"), model("Abs"))
    assert differences(model("Abs"), model("Relu"))
