"""Constant folding keeps what a model computes: values that are not tensors (sequences,
optionals) are never folded into tensors, string results are folded as strings, and
graphs holding sequences (main graph outputs, If and Loop bodies) stay valid. Each model
is checked with the full checker and run in onnxruntime before and after."""

from __future__ import annotations

import warnings

import numpy as np
import onnx
import onnx.parser
import pytest
from onnx import TensorProto, helper

from onnxscript import optimizer
from onnxscript.testing.node_tests import _collect
from tests.helpers import assert_transform_keeps_results

X3 = {"X": np.array([1.0, -2.0, 3.0], np.float32)}


def _model(text: str) -> onnx.ModelProto:
    model = onnx.parser.parse_model(text)
    onnx.checker.check_model(model, full_check=True)
    return model


SEQUENCE_MODELS = {
    "construct_of_a_constant_as_output": """
        g (float[3] X) => (seq(float[?]) Y) {
          c = Constant<value_floats=[1.0, 2.0, 3.0]>()
          Y = SequenceConstruct(c) }""",
    "empty_as_output": """
        g (float[3] X) => (seq(double) Y) { Y = SequenceEmpty<dtype=11>() }""",
    "empty_then_insert": """
        g (float[3] X) => (float[?] Y, int64 L) {
          e = SequenceEmpty<dtype=1>()
          s = SequenceInsert(e, X)
          L = SequenceLength(s)
          Y = ConcatFromSequence<axis=0>(s) }""",
    "item_of_a_constant_sequence": """
        g (float[3] X) => (float[?] Y) {
          c = Constant<value_floats=[1.0, 2.0, 3.0]>()
          s = SequenceConstruct(c, c)
          i = Constant<value_int=1>()
          e = SequenceAt(s, i)
          Y = Add(X, e) }""",
    "identity_of_a_sequence": """
        g (float[3] X) => (seq(float[?]) Y) {
          c = Constant<value_floats=[1.0, 2.0, 3.0]>()
          s = SequenceConstruct(c, X)
          Y = Identity(s) }""",
    "if_with_a_constant_condition_returning_a_sequence": """
        g (float[3] X) => (seq(float[?]) Y) {
          t = Constant<value=bool {1}>()
          Y = If(t) <
            then_branch = a () => (seq(float[?]) s) { s = SequenceConstruct(X) },
            else_branch = b () => (seq(float[?]) e) { e = SequenceEmpty<dtype=1>() }> }""",
    "if_returning_a_sequence": """
        g (float[3] X, bool C) => (seq(float[?]) Y) {
          Y = If(C) <
            then_branch = a () => (seq(float[?]) s) {
              c = Constant<value_floats=[1.0, 2.0, 3.0]>()
              s = SequenceConstruct(c) },
            else_branch = b () => (seq(float[?]) e) { e = SequenceEmpty<dtype=1>() }> }""",
    "loop_carrying_a_sequence": """
        g (float[3] X) => (seq(float[?]) Y) {
          n = Constant<value=int64 {2}>()
          t = Constant<value=bool {1}>()
          e = SequenceEmpty<dtype=1>()
          Y = Loop(n, t, e) <body = body (int64 i, bool c, seq(float[?]) acc)
              => (bool c2, seq(float[?]) acc2) {
            c2 = Identity(c)
            k = Constant<value_floats=[1.0]>()
            acc2 = SequenceInsert(acc, k) }> }""",
}


@pytest.mark.parametrize("name", sorted(SEQUENCE_MODELS))
def test_sequences_are_never_folded_into_tensors(name: str):
    model = _model('<ir_version: 10, opset_import: ["" : 18]>' + SEQUENCE_MODELS[name])
    optimized = optimizer.optimize(model)
    feeds = dict(X3)
    if any(i.name == "C" for i in model.graph.input):
        for condition in (True, False):
            assert_transform_keeps_results(model, optimized, {**feeds, "C": np.array(condition)})
        return
    assert_transform_keeps_results(model, optimized, feeds)
    kinds = [o.type.WhichOneof("value") for o in optimized.graph.output]
    assert kinds == [o.type.WhichOneof("value") for o in model.graph.output]


def test_string_constants_fold_as_strings():
    model = _model(
        """<ir_version: 10, opset_import: ["" : 18]>
        g (string[2] X) => (string[?] Y) {
          c = Constant<value=string[2] {"a", "bc"}>()
          d = Identity(c)
          Y = Concat<axis=0>(X, d) }"""
    )
    optimized = optimizer.optimize(model)
    assert_transform_keeps_results(model, optimized, {"X": np.array(["x", "y"], dtype=object)})


def _optional_sequence_of_strings_model(consume: bool) -> onnx.ModelProto:
    """An If returning ``optional(seq(string))``: the sequence in one branch, an empty
    optional in the other (the ``Optional`` of no input has no input to be constant)."""
    strings = helper.make_sequence_type_proto(
        helper.make_tensor_type_proto(TensorProto.STRING, None)
    )
    optional = helper.make_optional_type_proto(strings)
    then = helper.make_graph(
        [
            helper.make_node("SequenceConstruct", ["S"], ["s"]),
            helper.make_node("Optional", ["s"], ["a"]),
        ],
        "then",
        [],
        [helper.make_value_info("a", optional)],
    )
    other = helper.make_graph(
        [helper.make_node("Optional", [], ["b"], type=strings)],
        "else",
        [],
        [helper.make_value_info("b", optional)],
    )
    nodes = [helper.make_node("If", ["C"], ["Y"], then_branch=then, else_branch=other)]
    outputs = [helper.make_value_info("Y", optional)]
    if consume:
        nodes.append(helper.make_node("OptionalHasElement", ["Y"], ["Z"]))
        outputs = [helper.make_tensor_value_info("Z", TensorProto.BOOL, [])]
    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("C", TensorProto.BOOL, []),
            helper.make_tensor_value_info("S", TensorProto.STRING, [2]),
        ],
        outputs,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 10
    onnx.checker.check_model(model, full_check=True)
    return model


@pytest.mark.parametrize("consume", [False, True])
def test_if_returning_an_optional_sequence_of_strings(consume: bool):
    """Was ``TypeError: Bitwidth not available ... STRING``: the empty optional was folded
    into a tensor of ``None`` typed STRING, which no reader of constants could take."""
    model = _optional_sequence_of_strings_model(consume)
    optimized = optimizer.optimize(model)
    words = np.array(["a", "b"], dtype=object)
    for condition in (True, False):
        feeds = {"C": np.array(condition), "S": words}
        assert_transform_keeps_results(model, optimized, feeds)


# -- constants in the forms the IR version and opset allow --------------------------------


def _old_model(
    nodes: list[onnx.NodeProto],
    outputs: list[onnx.ValueInfoProto],
    opset: int,
    ir_version: int,
    initializers: list[onnx.TensorProto] = (),  # type: ignore[assignment]
) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [2, 3])
    inputs = [x]
    if ir_version < 4:  # every initializer is a graph input
        inputs += [helper.make_tensor_value_info(t.name, t.data_type, t.dims) for t in initializers]
    graph = helper.make_graph(nodes, "g", inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = ir_version
    onnx.checker.check_model(model, full_check=True)
    return model


X23 = {"X": np.arange(6, dtype=np.float32).reshape(2, 3)}
Y23 = helper.make_tensor_value_info("Y", TensorProto.FLOAT, [2, 3])


@pytest.mark.parametrize("ir_version", [3, 4])
def test_folded_floats_in_an_old_model(ir_version: int):
    """IR 3 has no initializer that is not a graph input: the folded value, and the
    model's own Constant nodes, stay Constant nodes (Constant-1 holds floats)."""
    c = helper.make_tensor("c", TensorProto.FLOAT, [3], [1, 2, 3])
    nodes = [
        helper.make_node("Constant", [], ["c"], value=c),
        helper.make_node("Add", ["c", "c"], ["d"]),
        helper.make_node("Mul", ["X", "d"], ["Y"]),
    ]
    model = _old_model(nodes, [Y23], 7, ir_version)
    optimized = optimizer.optimize(model)
    assert_transform_keeps_results(model, optimized, X23)
    assert "Add" not in [n.op_type for n in optimized.graph.node]
    assert [i.name for i in optimized.graph.input] == ["X"]


@pytest.mark.parametrize("ir_version", [3, 4])
def test_an_int64_result_below_opset_9_is_no_constant_node(ir_version: int):
    """Constant-1 holds no int64: a folded shape that is a graph output stays computed;
    an intermediate one is an initializer from IR 4 and stays computed in IR 3."""
    shape_out = helper.make_tensor_value_info("S", TensorProto.INT64, [2])
    nodes = [
        helper.make_node("Shape", ["X"], ["S"]),
        helper.make_node("Shape", ["X"], ["s"]),
        helper.make_node("Reshape", ["X", "s"], ["r"]),
        helper.make_node("Relu", ["r"], ["Y"]),
    ]
    model = _old_model(nodes, [Y23, shape_out], 8, ir_version)
    optimized = optimizer.optimize(model)
    assert_transform_keeps_results(model, optimized, X23)
    assert [i.name for i in optimized.graph.input] == ["X"]
    for node in optimized.graph.node:
        if node.op_type == "Constant":
            assert node.attribute[0].t.data_type != TensorProto.INT64


@pytest.mark.parametrize(
    "name", ["test_affine_grid_2d_expanded", "test_affine_grid_2d_align_corners_expanded"]
)
def test_expanded_affine_grid_stays_checker_clean(name: str):
    """Its If of a constant condition is inlined; the 2-D branch's one-element D then
    reaches a Range as a constant, which the checker refuses unless the Range is folded
    (onnx.reference and onnxruntime read a one-element limit as a scalar)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        (case,) = [c for c in _collect() if c.name == name]
    inputs, _ = case.data_sets[0]
    feeds = {info.name: value for info, value in zip(case.model.graph.input, inputs)}
    assert_transform_keeps_results(case.model, optimizer.optimize(case.model), feeds)


def test_a_constant_node_named_after_its_value_takes_a_free_node_name() -> None:
    """A folded graph output stays a Constant node named after the output; another node
    of that name (node and value names are apart in ONNX) makes onnxruntime refuse the
    model: the Constant gets a free name."""
    before = _model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[3] X) => (float[2] Y, float[3] Z) {
          a = Constant<value=float[2] {1, 2}>()
          Y = Neg(a)
          Z = Relu(X) }"""
    )
    for node, name in zip(before.graph.node, ["a", "n", "Y"]):  # Relu's node is "Y"
        node.name = name
    after = optimizer.fold_constants(before)
    names = [n.name for n in after.graph.node]
    assert "Constant" in [n.op_type for n in after.graph.node]
    assert len(names) == len(set(names)), names
    assert_transform_keeps_results(before, after, X3)
