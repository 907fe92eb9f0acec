"""Constant folding's partial evaluators (0.7.2's): each op's rewrite on a small model,
checked with the full checker and onnxruntime before and after; the registry users extend;
the state and the reference evaluator."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx.parser
import onnx_ir as ir
import pytest

from onnxscript import optimizer
from onnxscript.optimizer import _constant_folding as cf
from onnxscript.passes import partial_evaluation as pe
from onnxscript.passes.constant_folding import FoldConstantsPass
from tests.rewriter.rule_checks import random_inputs, run

HEADER = '<ir_version: 10, opset_import: ["" : 18]>\n'


def fold(text: str) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    """The model and the model folded, both checker-clean."""
    before = onnx.parser.parse_model(HEADER + text)
    onnx.checker.check_model(before, full_check=True)
    model = ir.from_proto(before)
    FoldConstantsPass(shape_inference=True)(model)
    after = ir.to_proto(model)
    onnx.checker.check_model(after, full_check=True)
    return before, after


def ops(model: onnx.ModelProto) -> list[str]:
    return [n.op_type for n in model.graph.node]


def same_results(before: onnx.ModelProto, after: onnx.ModelProto) -> None:
    feeds = random_inputs(before, {"N": 3})
    for expected, got in zip(run(before, feeds), run(after, feeds), strict=True):
        np.testing.assert_allclose(got, expected, rtol=1e-6)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A Cast to the type its input has (0.7.2: Identity).
        (
            "g (float[N,4] x) => (float[N,4] y) { c = Cast<to=1>(x)\n y = Neg(c) }",
            ["Identity", "Neg"],
        ),
        ("g (float[N,4] x) => (float[N,4] y) { y = Cast<to=1>(x) }", ["Identity"]),
        # CastLike to its own type; to another type it stays a Cast.
        (
            "g (float[N,4] x, float[3] t) => (float[N,4] y) { c = CastLike(x, t)\n y = Neg(c) }",
            ["Identity", "Neg"],
        ),
        (
            "g (float[N,4] x, double[3] t) => (double[N,4] y) { c = CastLike(x, t)\n y = Neg(c) }",
            ["Cast", "Neg"],
        ),
        (
            "g (float[N,4] x) => (float[N,4] y) { c = Concat<axis=0>(x)\n y = Neg(c) }",
            ["Identity", "Neg"],
        ),
        (
            "g (float[N,4] x) => (float[N,4] y) { s = Shape(x)\n c = Reshape(x, s)\n y = Neg(c) }",
            ["Shape", "Identity", "Neg"],
        ),
        (
            "g (float[N,4] x) => (float[N,4] y) { s = Shape(x)\n c = Expand(x, s)\n y = Neg(c) }",
            ["Shape", "Identity", "Neg"],
        ),
        ("g (float[N,4] x) => (float[N,4] y) { c = Dropout(x)\n y = Neg(c) }", ["Identity", "Neg"]),
        # The static part of a shape is a constant; Gather and Squeeze of known dims too.
        ("g (float[N,4,5] x) => (int64[2] y) { y = Shape<start=1>(x) }", ["Constant"]),
        (
            "g (float[N,4] x) => (int64 y) { s = Shape(x)\n i = Constant<value_int=1>()\n"
            " y = Gather<axis=0>(s, i) }",
            ["Shape", "Constant", "Constant"],
        ),
        (
            "g (float[N,4] x) => (int64 y) { s = Shape<start=1,end=2>(x)\n"
            " a = Constant<value_ints=[0]>()\n y = Squeeze(s, a) }",
            ["Constant", "Constant"],
        ),
        # Reshape to Concat(Shape(x)[:1], [4]): x's own shape.
        (
            "g (float[N,4] x) => (float[N,4] y) { a = Shape<start=0,end=1>(x)\n"
            " b = Constant<value_ints=[4]>()\n s = Concat<axis=0>(a, b)\n c = Reshape(x, s)\n"
            " y = Neg(c) }",
            ["Shape", "Constant", "Concat", "Identity", "Neg"],
        ),
        ("g (float[N,4] x) => (int64[2] y) { s = Shape(x)\n y = Abs(s) }", ["Shape", "Identity"]),
    ],
)
def test_partial_evaluation(text: str, expected: list[str]) -> None:
    before, after = fold(text)
    assert ops(after) == expected
    assert [o.name for o in after.graph.output] == ["y"]
    same_results(before, after)


def test_unknown_dims_are_not_guessed() -> None:
    _, after = fold(
        "g (float[N,4] x) => (int64 y) { s = Shape(x)\n i = Constant<value_int=0>()\n"
        " y = Gather<axis=0>(s, i) }"
    )
    assert ops(after) == ["Shape", "Constant", "Gather"]


def test_sequences_become_tensor_ops() -> None:
    text = """g (float[N,4] x, float[N,4] z) => (float[N,8] y, float[N,4] w) {
  s = SequenceConstruct(x, z)
  y = ConcatFromSequence<axis=1>(s)
  i = Constant<value_int=1>()
  w = SequenceAt(s, i) }"""
    before, after = fold(text)
    assert "ConcatFromSequence" not in ops(after) and "SequenceAt" not in ops(after)
    same_results(before, after)


@pytest.mark.parametrize("keepdims", [1, 0])
def test_split_to_sequence_becomes_split(keepdims: int) -> None:
    split = "sp = Constant<value_ints=[1,3]>()\n s = SplitToSequence<axis=1>(x, sp)"
    out = "float[N,?]"
    if not keepdims:
        split, out = "s = SplitToSequence<axis=1, keepdims=0>(x)", "float[N]"
    text = f"""g (float[N,4] x) => ({out} y) {{
  {split}
  i = Constant<value_int=0>()
  y = SequenceAt(s, i) }}"""
    before, after = fold(text)
    assert "Split" in ops(after) and "SplitToSequence" not in ops(after)
    same_results(before, after)


@pytest.mark.parametrize("opset", [11, 12])
def test_split_to_sequence_stays_before_opset_13(opset: int) -> None:
    """Split takes its sizes as an input from opset 13: before, SplitToSequence stays."""
    text = """g (float[N,4] x) => (float[N,?] y) {
  sp = Constant<value=int64[2] {1, 3}>()
  s = SplitToSequence<axis=1>(x, sp)
  i = Constant<value=int64 {1}>()
  y = SequenceAt(s, i) }"""
    before = onnx.parser.parse_model(HEADER.replace("18", str(opset)) + text)
    model = ir.from_proto(before)
    FoldConstantsPass(shape_inference=True)(model)
    after = ir.to_proto(model)
    onnx.checker.check_model(after, full_check=True)
    assert "SplitToSequence" in ops(after)
    same_results(before, after)


def test_dropout_before_opset_7_trains_unless_is_test() -> None:
    """Dropout-1 to 6 train (drop at random) unless ``is_test=1``: only then an Identity.
    onnxruntime runs no Dropout before opset 7, so the folded graphs are compared by op."""
    for is_test, expected in ((0, "Dropout"), (1, "Identity")):
        before = onnx.parser.parse_model(
            '<ir_version: 3, opset_import: ["" : 6]>\n'
            f"g (float[2,4] x) => (float[2,4] y) {{ y = Dropout<is_test={is_test}>(x) }}"
        )
        onnx.checker.check_model(before, full_check=True)
        model = ir.from_proto(before)
        FoldConstantsPass(shape_inference=True)(model)
        after = ir.to_proto(model)
        onnx.checker.check_model(after, full_check=True)
        assert ops(after) == [expected]


def test_a_registered_evaluator_runs_for_its_op() -> None:
    # 0.7.2 users register their own ops' partial evaluators on this registry.
    registry = cf.registry

    @registry.register("Twice", domain="test.partial")
    def twice(node: ir.Node, op: Any, state: pe.OptimizerState) -> Any:
        return op.Add(node.inputs[0], node.inputs[0])

    try:
        text = """<ir_version: 10, opset_import: ["" : 18, "test.partial" : 1]>
g (float[3] x) => (float[3] y) { y = test.partial.Twice(x) }"""
        model = ir.from_proto(onnx.parser.parse_model(text))
        FoldConstantsPass(shape_inference=False)(model)
        assert [n.op_type for n in model.graph] == ["Add"]
        assert model.graph.outputs[0].name == "y"
        assert registry.lookup_evaluators("test.partial", "Twice", 1) == [twice]
    finally:
        del registry.op_evaluators[("test.partial", "Twice")]


def test_registry_versions_and_evaluator_ranges() -> None:
    registry = pe.PartialEvaluatorRegistry()

    def first(node: ir.Node, op: object, state: pe.OptimizerState) -> None:
        return None

    registry.register("Op", version=(1, 12))(first)
    assert registry.lookup_evaluators("", "Op", 5) == [first]
    assert registry.lookup_evaluators("ai.onnx", "Op", 13) == []
    assert pe.PartialEvaluator(1, 5, first).valid_for(5)
    assert not pe.PartialEvaluator(None, 5, first).valid_for(6)
    names = ("Abs", "Cast", "CastLike", "Concat", "Gather", "If", "Reshape", "Shape")
    assert {("", op) for op in names} <= set(cf.registry.op_evaluators)


def test_state_reads_shape_vectors() -> None:
    state = cf.OptimizerState()
    constant = ir.Value(name="c", const_value=ir.tensor(np.array([2, 3], dtype=np.int64)))
    constant.type = ir.TensorType(ir.DataType.INT64)
    assert state.get_shape_value(constant) == ir.Shape([2, 3])
    computed = ir.Value(name="s")
    assert state.get_shape_value(computed) is None
    state.set_sym_value(computed, ir.Shape([4, "N"]))
    assert state.get_shape_value(computed) == ir.Shape([4, "N"])
    assert state.get_sym_value(computed) == ir.Shape([4, "N"])


def test_reference_evaluator_runs_ops() -> None:
    evaluator = cf.ReferenceEvaluator()
    np.testing.assert_array_equal(
        evaluator.evaluate("", "Add", 18, np.array([1, 2]), np.array([3, 4])), [4, 6]
    )
    values, indices = evaluator.evaluate("", "TopK", 18, np.array([1.0, 5.0, 2.0]), np.array([2]))
    np.testing.assert_array_equal(values, [5.0, 2.0])
    np.testing.assert_array_equal(indices, [1, 2])
    assert evaluator.get_evaluator("custom", "Op", 1) is None
    add = evaluator.get_evaluator("", "Add", 18)
    assert add is not None
    np.testing.assert_array_equal(add(np.array([1]), np.array([2])), [3])


def test_replacement_holds_outputs_and_nodes() -> None:
    node = ir.node("Relu", [ir.Value(name="x")])
    replacement = cf.Replacement(node.outputs, [node])
    assert list(replacement.new_outputs) == list(node.outputs)
    assert list(replacement.new_nodes) == [node]


def test_split_to_sequence_of_chunk_zero_is_left_alone() -> None:
    """A scalar split of 0 splits nothing (onnxruntime refuses the node): the optimizer
    leaves it as it is instead of failing."""
    x = onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [4, 2])
    n = onnx.helper.make_tensor_value_info("n", onnx.TensorProto.INT64, [])
    zero = onnx.helper.make_tensor("s", onnx.TensorProto.INT64, [], [0])
    nodes = [
        onnx.helper.make_node("Constant", [], ["s"], value=zero),
        onnx.helper.make_node("SplitToSequence", ["x", "s"], ["q"]),
        onnx.helper.make_node("SequenceLength", ["q"], ["n"]),
    ]
    graph = onnx.helper.make_graph(nodes, "g", [x], [n])
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 18)])
    optimized = optimizer.optimize(model)
    assert [node.op_type for node in optimized.graph.node] == ["SplitToSequence", "SequenceLength"]
    onnx.checker.check_model(optimized)  # onnx's shape inference refuses the split of 0


def test_a_branch_taken_keeps_node_names_unique() -> None:
    """An If of a constant condition becomes its branch: the branch's nodes, named by the
    branch (here as a main-graph node is), get names no node of the graph has (onnxruntime
    refuses two nodes of one name); the branch's values too (an If's value name may recur
    in another If's branch)."""
    text = """g (float[N,4] x) => (float[N,4] y, float[N,4] z) {
        t = Constant<value=bool {1}>()
        a = Neg(x)
        y = If(t) <
          then_branch = b1 () => (float[N,4] o) { v = Neg(a)\n o = Relu(v) },
          else_branch = b2 () => (float[N,4] o2) { o2 = Identity(a) }>
        z = If(t) <
          then_branch = b3 () => (float[N,4] o3) { v = Abs(a)\n o3 = Relu(v) },
          else_branch = b4 () => (float[N,4] o4) { o4 = Identity(a) }>
    }"""
    before = onnx.parser.parse_model(HEADER + text)
    for node, name in zip(before.graph.node, ["k", "n", "if1", "if2"]):
        node.name = name  # each branch names its nodes "n", "r" (as the main graph's "n")
        for attr in node.attribute:
            for inner, inner_name in zip(attr.g.node, ["n", "r"]):
                inner.name = inner_name
    onnx.checker.check_model(before, full_check=True)
    model = ir.from_proto(before)
    FoldConstantsPass(shape_inference=True)(model)
    after = ir.to_proto(model)
    onnx.checker.check_model(after, full_check=True)
    assert "If" not in ops(after)
    node_names = [n.name for n in after.graph.node]
    assert len(node_names) == len(set(node_names)), node_names
    assert run(before, {"x": np.ones((3, 4), np.float32)})  # onnxruntime takes both
    same_results(before, after)
