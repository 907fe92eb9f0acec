"""Proto comparison up to value renaming and the order of independent nodes: the strict
comparison, and the canonical one that round trips through scripts use; the canonical one
finds real differences and ignores only renaming and the documented canonical forms."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as nh
import pytest

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from onnxscript.testing import Mismatch, assert_isomorphic, is_isomorphic
from onnxscript.testing.isomorphism import differences
from tests.reverse.common import BOOL, make_model, vi

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
    assert differences(f.to_function_proto(), g.to_function_proto()) == [
        "function f: function this::f vs this::g",
        "function f: default of attribute alpha differs: 0.5 vs 0.25",
    ]
    # Canonically, only the number of attribute parameters counts.
    assert is_isomorphic(f.to_function_proto(), g.to_function_proto(), canonical=True)


def test_the_0_7_function_assertion_ignores_the_functions_own_names():
    from onnxscript.testing import assert_isomorphic_function

    @script()
    def implicit(x: FLOAT["N"], alpha: float = 0.5) -> FLOAT["N"]:
        return op.LeakyRelu(x + 1.0, alpha=alpha)

    @script()
    def explicit(y: FLOAT["N"], alpha: float = 0.5) -> FLOAT["N"]:
        return op.LeakyRelu(op.Add(y, op.Constant(value=1.0)), alpha=alpha)

    @script()
    def other_default(y: FLOAT["N"], alpha: float = 0.25) -> FLOAT["N"]:
        return op.LeakyRelu(op.Add(y, op.Constant(value=1.0)), alpha=alpha)

    a, b = implicit.to_function_proto(), explicit.to_function_proto()
    assert_isomorphic_function(a, b)
    assert (a.name, b.name) == ("implicit", "explicit")  # the arguments are not changed
    with pytest.raises(Mismatch, match="this::implicit vs this::explicit"):
        assert_isomorphic(a, b)
    with pytest.raises(Mismatch, match="default of attribute alpha"):
        assert_isomorphic_function(a, other_default.to_function_proto())


def test_different_proto_kinds_are_refused():
    a = _graph([oh.make_node("Relu", ["x"], ["y"])])
    with pytest.raises(Mismatch, match="cannot compare"):
        assert_isomorphic(a, oh.make_model(a))


# -- the canonical comparison (round trips through scripts) ---------------------------------------

I64 = onnx.TensorProto.INT64


def _chain(
    names: list[str], ops: tuple[str, ...] = ("Relu", "Neg"), **attrs: object
) -> onnx.ModelProto:
    a, b, c = names
    nodes = [oh.make_node(ops[0], [a], [b]), oh.make_node(ops[1], [b], [c], **attrs)]
    return make_model(nodes, [vi(a, F, [2])], [vi(c, F, [2])])


def test_canonical_renaming_and_node_order_do_not_matter():
    first = _chain(["x", "y", "z"])
    second = _chain(["p", "q", "r"])
    assert is_isomorphic(first, second, canonical=True)
    shuffled = make_model(
        [
            oh.make_node("Neg", ["a"], ["c1"]),
            oh.make_node("Abs", ["a"], ["c2"]),
            oh.make_node("Add", ["c1", "c2"], ["out"]),
        ],
        [vi("a", F, [2])],
        [vi("out", F, [2])],
    )
    reordered = onnx.ModelProto()
    reordered.CopyFrom(shuffled)
    reordered.graph.node[0].CopyFrom(shuffled.graph.node[1])
    reordered.graph.node[1].CopyFrom(shuffled.graph.node[0])
    assert is_isomorphic(shuffled, reordered, canonical=True)


def test_canonical_different_ops_attributes_and_wiring_are_found():
    assert differences(
        _chain(["x", "y", "z"]), _chain(["x", "y", "z"], ("Relu", "Abs")), canonical=True
    )
    base = _chain(["x", "y", "z"], ("Relu", "LeakyRelu"), alpha=0.1)
    other = _chain(["x", "y", "z"], ("Relu", "LeakyRelu"), alpha=0.2)
    assert any("alpha" in d for d in differences(base, other, canonical=True))
    add_ab = make_model(
        [oh.make_node("Sub", ["a", "b"], ["c"])],
        [vi("a", F, [2]), vi("b", F, [2])],
        [vi("c", F, [2])],
    )
    add_ba = make_model(
        [oh.make_node("Sub", ["b", "a"], ["c"])],
        [vi("a", F, [2]), vi("b", F, [2])],
        [vi("c", F, [2])],
    )
    assert differences(add_ab, add_ba, canonical=True)


def test_canonical_types_of_the_interface_are_compared():
    a = make_model([oh.make_node("Relu", ["x"], ["y"])], [vi("x", F, [2])], [vi("y", F, [2])])
    b = make_model([oh.make_node("Relu", ["x"], ["y"])], [vi("x", F, [3])], [vi("y", F, [3])])
    assert differences(a, b, canonical=True)


def test_canonical_tensor_values_are_compared_exactly():
    def const(values: list[float]) -> onnx.ModelProto:
        node = oh.make_node(
            "Constant", [], ["y"], value=nh.from_array(np.array(values, np.float32))
        )
        return make_model([node], [], [vi("y", F, [2])])

    assert is_isomorphic(const([1.0, np.nan]), const([1.0, np.nan]), canonical=True)
    assert differences(const([1.0, 2.0]), const([1.0, 2.5]), canonical=True)


def test_canonical_initializers_are_not_constants_and_extra_nodes_are_found():
    init = make_model(
        [oh.make_node("Add", ["x", "w"], ["y"])],
        [vi("x", F, [2])],
        [vi("y", F, [2])],
        initializers=[nh.from_array(np.ones(2, np.float32), "w")],
    )
    const = make_model(
        [
            oh.make_node("Constant", [], ["w"], value=nh.from_array(np.ones(2, np.float32))),
            oh.make_node("Add", ["x", "w"], ["y"]),
        ],
        [vi("x", F, [2])],
        [vi("y", F, [2])],
    )
    assert differences(init, const, canonical=True) == [
        "model graph output 0 <- Add input 1: computed by an initializer vs ai.onnx.Constant"
    ]
    extra = make_model(
        [oh.make_node("Identity", ["w"], ["w2"]), oh.make_node("Add", ["x", "w2"], ["y"])],
        [vi("x", F, [2])],
        [vi("y", F, [2])],
        initializers=[nh.from_array(np.ones(2, np.float32), "w")],
    )
    assert differences(init, extra, canonical=True)


def _if_with_branch_initializer(as_initializer: bool) -> onnx.GraphProto:
    """``y = x + (1, 1) if c else x``: the then-branch's constant is an initializer of the
    branch or a ``Constant`` node in it."""
    one = nh.from_array(np.ones(2, np.float32), "one")
    nodes = [oh.make_node("Add", ["x", "one"], ["t"])]
    if not as_initializer:
        nodes.insert(0, oh.make_node("Constant", [], ["one"], value=one))
    then_g = oh.make_graph(
        nodes, "then", [], [vi("t", F, [2])], initializer=[one] if as_initializer else []
    )
    else_g = oh.make_graph([oh.make_node("Identity", ["x"], ["e"])], "else", [], [vi("e", F, [2])])
    return oh.make_graph(
        [oh.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
        "g",
        [vi("x", F, [2]), vi("c", BOOL, [])],
        [vi("y", F, [2])],
    )


def test_initializers_of_nested_graphs_are_constants_canonically():
    init, const = _if_with_branch_initializer(True), _if_with_branch_initializer(False)
    assert_isomorphic(init, const, canonical=True)
    with pytest.raises(Mismatch, match=r"an initializer vs ai\.onnx\.Constant"):
        assert_isomorphic(init, const)


def test_input_default_values_are_compared():
    def graph(default: list[float] | None) -> onnx.GraphProto:
        inits = [] if default is None else [oh.make_tensor("b", F, [2], default)]
        return _graph(
            [oh.make_node("Add", ["x", "b"], ["y"])], inputs=("x", "b"), initializers=inits
        )

    for canonical in (False, True):
        assert is_isomorphic(graph([1.0, 2.0]), graph([1.0, 2.0]), canonical=canonical)
        assert differences(graph([1.0, 2.0]), graph(None), canonical=canonical) == [
            "graph input 1: default FLOAT[2] [1.0, 2.0] vs no default"
        ]
        assert differences(graph([1.0, 2.0]), graph([1.0, 3.0]), canonical=canonical) == [
            "graph input 1: default values differ: FLOAT[2] [1.0, 2.0] vs FLOAT[2] [1.0, 3.0]"
        ]


def test_unread_initializers_must_be_the_same_in_order():
    def graph(*values: float) -> onnx.GraphProto:
        inits = [oh.make_tensor(f"u{i}", F, [1], [v]) for i, v in enumerate(values)]
        return _graph([oh.make_node("Relu", ["x"], ["y"])], initializers=inits)

    for canonical in (False, True):
        assert is_isomorphic(graph(1.0, 2.0), graph(1.0, 2.0), canonical=canonical)
        assert differences(graph(1.0, 2.0), graph(1.0), canonical=canonical) == [
            "graph: initializers that nothing reads differ: [FLOAT[1] [1.0], FLOAT[1] [2.0]] "
            "vs [FLOAT[1] [1.0]]"
        ]
        assert not is_isomorphic(graph(1.0, 2.0), graph(2.0, 1.0), canonical=canonical)
    # A Constant node nothing reads is dead code (canonically), an initializer is not.
    dead = _graph(
        [
            oh.make_node("Relu", ["x"], ["y"]),
            oh.make_node("Constant", [], ["u0"], value=oh.make_tensor("", F, [1], [1.0])),
        ]
    )
    assert not is_isomorphic(graph(1.0), dead, canonical=True)
    assert is_isomorphic(graph(), dead, canonical=True)


def test_canonical_constant_true_loop_condition_equals_no_condition():
    body = oh.make_graph(
        [oh.make_node("Identity", ["c"], ["c2"]), oh.make_node("Add", ["y", "y"], ["y2"])],
        "body",
        [vi("i", I64, []), vi("c", BOOL, []), vi("y", F, [2])],
        [vi("c2", BOOL, []), vi("y2", F, [2])],
    )
    with_true = make_model(
        [
            oh.make_node("Constant", [], ["t"], value=oh.make_tensor("", BOOL, [], [True])),
            oh.make_node("Loop", ["n", "t", "x"], ["r"], body=body),
        ],
        [vi("x", F, [2]), vi("n", I64, [])],
        [vi("r", F, [2])],
    )
    without = make_model(
        [oh.make_node("Loop", ["n", "", "x"], ["r"], body=body)],
        [vi("x", F, [2]), vi("n", I64, [])],
        [vi("r", F, [2])],
    )
    assert is_isomorphic(with_true, without, canonical=True)
    with_input = make_model(
        [oh.make_node("Loop", ["n", "c", "x"], ["r"], body=body)],
        [vi("x", F, [2]), vi("n", I64, []), vi("c", BOOL, [])],
        [vi("r", F, [2])],
    )
    assert differences(without, with_input, canonical=True)


def test_canonical_nested_graphs_are_compared():
    def model(op_type: str) -> onnx.ModelProto:
        then_g = oh.make_graph([oh.make_node(op_type, ["x"], ["t"])], "t", [], [vi("t", F, [2])])
        else_g = oh.make_graph([oh.make_node("Neg", ["x"], ["e"])], "e", [], [vi("e", F, [2])])
        return make_model(
            [oh.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
            [vi("x", F, [2]), vi("c", BOOL, [])],
            [vi("y", F, [2])],
        )

    assert is_isomorphic(model("Abs"), model("Abs"), canonical=True)
    assert differences(model("Abs"), model("Relu"), canonical=True)


# -- what the two modes treat differently ----------------------------------------------------------


def test_initializers_are_not_constants_in_either_mode():
    init = _graph(
        [oh.make_node("Add", ["x", "w"], ["y"])],
        initializers=[nh.from_array(np.ones(2, np.float32), "w")],
    )
    const = _graph([
        oh.make_node("Constant", [], ["w"], value=nh.from_array(np.ones(2, np.float32))),
        oh.make_node("Add", ["x", "w"], ["y"]),
    ])  # fmt: skip
    for canonical in (False, True):
        with pytest.raises(Mismatch, match=r"an initializer vs ai\.onnx\.Constant"):
            assert_isomorphic(init, const, canonical=canonical)


def test_canonical_form_adds_identities_and_drops_unused_nodes():
    passthrough = _graph([], outputs=("x",))
    identity = _graph([oh.make_node("Identity", ["x"], ["y"])])
    assert not is_isomorphic(passthrough, identity)
    assert is_isomorphic(passthrough, identity, canonical=True)
    dead = _graph([oh.make_node("Identity", ["x"], ["y"]), oh.make_node("Neg", ["x"], ["n"])])
    with pytest.raises(Mismatch, match=r"no output depends on.*\['Neg'\]"):
        assert_isomorphic(identity, dead)
    assert_isomorphic(identity, dead, canonical=True)


def test_floats_match_bit_for_bit_only_strictly():
    minus = _graph([oh.make_node("LeakyRelu", ["x"], ["y"], alpha=-0.0)])
    plus = _graph([oh.make_node("LeakyRelu", ["x"], ["y"], alpha=0.0)])
    assert not is_isomorphic(minus, plus)
    assert is_isomorphic(minus, plus, canonical=True)


def test_nested_graph_types_are_exact_only_strictly():
    def model(shape: list[int]) -> onnx.ModelProto:
        branch = oh.make_graph([oh.make_node("Neg", ["x"], ["t"])], "t", [], [vi("t", F, shape)])
        return make_model(
            [oh.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=branch)],
            [vi("x", F, [2]), vi("c", BOOL, [])],
            [vi("y", F, [2])],
        )

    with pytest.raises(
        Mismatch, match=r"then_branch: output 0 types differ: FLOAT\[2\] vs FLOAT\[3\]"
    ):
        assert_isomorphic(model([2]), model([3]))
    assert_isomorphic(model([2]), model([3]), canonical=True)


def test_opset_imports_and_proto_kinds():
    relu = [oh.make_node("Relu", ["x"], ["y"])]
    a = make_model(relu, [vi("x", F, [2])], [vi("y", F, [2])], extra_opsets={"custom": 1})
    b = make_model(relu, [vi("x", F, [2])], [vi("y", F, [2])])
    assert differences(a, b) == ["model: opset custom 1 vs not imported"]
    assert is_isomorphic(a, b, canonical=True)  # an unused import is not compared
    newer = make_model(relu, [vi("x", F, [2])], [vi("y", F, [2])], opset=17)
    assert differences(b, newer, canonical=True) == ["model: opset ai.onnx 18 vs 17"]
    assert differences(b, b.graph) == ["cannot compare a ModelProto with a GraphProto"]
    assert is_isomorphic(b, b.graph, canonical=True)


def test_messages_say_where_and_list_every_difference():
    a = _graph([
        oh.make_node("LeakyRelu", ["x"], ["r"], alpha=0.1),
        oh.make_node("Add", ["r", "x"], ["y"]),
        oh.make_node("Neg", ["x"], ["z"]),
    ], outputs=("y", "z"))  # fmt: skip
    b = _graph([
        oh.make_node("LeakyRelu", ["x"], ["r"], alpha=0.2),
        oh.make_node("Add", ["r", "x"], ["y"]),
        oh.make_node("Abs", ["x"], ["z"]),
    ], outputs=("y", "z"))  # fmt: skip
    found = differences(a, b, canonical=True)
    assert found == [
        "graph output 1: computed by ai.onnx.Neg vs ai.onnx.Abs",
        "graph output 0 <- Add input 0 <- LeakyRelu: attribute alpha differs: 0.1 vs 0.2",
    ]
    with pytest.raises(Mismatch, match="2 differences:\n  graph output 1: computed by"):
        assert_isomorphic(a, b, canonical=True)


def test_graphs_attributes_and_outer_values_match_up_to_renaming():
    def model(value: str, inner: str, op_type: str = "Neg") -> onnx.ModelProto:
        bodies = [
            oh.make_graph([oh.make_node(op_type, [value], [inner])], "b", [], [vi(inner, F, [2])])
        ]
        node = oh.make_node("Fork", [], ["y"], domain="custom")
        node.attribute.append(oh.make_attribute("bodies", bodies))
        return make_model(
            [oh.make_node("Relu", ["x"], [value]), node],
            [vi("x", F, [2])],
            [vi("y", F, [2])],
            extra_opsets={"custom": 1},
        )

    for canonical in (False, True):
        assert is_isomorphic(model("r", "t"), model("s", "u"), canonical=canonical)
        assert not is_isomorphic(model("r", "t"), model("s", "u", "Abs"), canonical=canonical)
