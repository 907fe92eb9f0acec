"""The inference rules never guess: axes normalized in each op's own range, sizes read only
from constants, every opset version of an op followed. Each case is checked on the node
(the inferred shape) and on a model (``optimize()`` then the full checker and onnxruntime
computing what the original does)."""

from __future__ import annotations

import warnings

import numpy as np
import onnx
import onnx.parser
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript import optimizer
from onnxscript.inference import InferenceError
from onnxscript.inference.infer import infer_node
from onnxscript.testing.node_tests import _collect
from tests.helpers import assert_transform_keeps_results
from tests.inference.node_values import const as _const
from tests.inference.node_values import infer as _infer
from tests.inference.node_values import shape_of as _shape
from tests.inference.node_values import value as _value


def _unknown(value: ir.Value) -> bool:
    """Whether no dim of ``value`` is known (its rank may be)."""
    return value.shape is None or all(not isinstance(d, int) for d in value.shape)


def _model(text: str) -> onnx.ModelProto:
    model = onnx.parser.parse_model(text)
    onnx.checker.check_model(model, full_check=True)
    return model


def _optimized_keeps_results(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> None:
    assert_transform_keeps_results(model, optimizer.optimize(model), feeds)


# -- Flatten's axis is in [-r, r] ---------------------------------------------------------


@pytest.mark.parametrize(
    ("axis", "expected"), [(-2, [1, 12]), (-1, [3, 4]), (0, [1, 12]), (1, [3, 4]), (2, [12, 1])]
)
def test_flatten_axis_counts_negative_axes_from_the_rank(axis: int, expected: list[int]):
    (out,) = _infer("Flatten", [_value([3, 4])], axis=axis)
    assert _shape(out) == expected


def test_flatten_negative_axis_is_not_removed_by_optimize():
    model = _model(
        """<ir_version: 10, opset_import: ["" : 18]>
        g (float[3,4] X) => (float[?,?] Y) { f = Flatten<axis=-2>(X)  Y = Relu(f) }"""
    )
    feeds = {"X": np.arange(12, dtype=np.float32).reshape(3, 4)}
    _optimized_keeps_results(model, feeds)


def test_flatten_of_a_zero_size_dim_keeps_the_zero():
    (out,) = _infer("Flatten", [_value([0, 4])], axis=1)
    assert _shape(out) == [0, 4]


def _layer_norm_cases() -> list[object]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = [c for c in _collect() if c.name.startswith("test_layer_normalization")]
    return [c for c in cases if c.name.endswith("_expanded") and "axis_negative" in c.name]


@pytest.mark.parametrize("case", _layer_norm_cases()[:4], ids=lambda c: c.name)
def test_expanded_layer_normalization_with_negative_axes(case):
    """onnx's expanded LayerNormalization flattens at a negative axis."""
    model = case.model
    inputs, _ = case.data_sets[0]
    feeds = {info.name: value for info, value in zip(model.graph.input, inputs)}
    _optimized_keeps_results(model, feeds)


# -- sizes, shapes and axes only from constants --------------------------------------------


def test_split_sizes_that_are_not_constant_are_not_guessed():
    outs = _infer("Split", [_value([2, 6]), _value([2], ir.DataType.INT64, "s")], outputs=2, axis=1)
    assert [_shape(o) for o in outs] == [[2, None], [2, None]]
    known = _infer("Split", [_value([2, 6]), _const([5, 1])], outputs=2, axis=1)
    assert [_shape(o) for o in known] == [[2, 5], [2, 1]]
    equal = _infer("Split", [_value([2, 6])], outputs=2, axis=1, num_outputs=2)
    assert [_shape(o) for o in equal] == [[2, 3], [2, 3]]


def test_expand_after_a_split_of_runtime_sizes_is_kept():
    model = _model(
        """<ir_version: 10, opset_import: ["" : 18]>
        g (float[2,6] X, int64[2] S) => (float[?,?] Y) {
          t = Constant<value_ints=[2,3]>()
          a, b = Split<axis=1>(X, S)
          Y = Expand(b, t) }"""
    )
    feeds = {"X": np.arange(12, dtype=np.float32).reshape(2, 6), "S": np.array([5, 1])}
    _optimized_keeps_results(model, feeds)


def test_a_graph_inputs_initializer_is_not_read_as_a_shape():
    """The caller may feed ``S``: its initializer is a default, not the shape."""
    shape = _const([4, 3], "shape")
    graph = ir.Graph([_value([3, 4], name="x"), shape], [], nodes=[], name="g")
    graph.register_initializer(shape)
    (out,) = _infer("Reshape", [graph.inputs[0], shape])
    assert _unknown(out)
    model = _model(
        """<ir_version: 10, opset_import: ["" : 18]>
        g (float[3,4] X, int64[2] S) => (float[?,?] Y, int64[2] Z) <int64[2] S = {4, 3}> {
          Y = Reshape(X, S)
          Z = Shape(Y) }"""
    )
    feeds = {"X": np.arange(12, dtype=np.float32).reshape(3, 4), "S": np.array([2, 6])}
    _optimized_keeps_results(model, feeds)


def test_slice_axes_or_steps_that_are_not_constant_leave_the_shape_unknown():
    x, starts, ends = _value([4, 6]), _const([0], "starts"), _const([2], "ends")
    axes, steps = _value([1], ir.DataType.INT64, "axes"), _value([1], ir.DataType.INT64, "steps")
    assert _unknown(_infer("Slice", [x, starts, ends, axes])[0])
    assert _unknown(_infer("Slice", [x, starts, ends, _const([1], "a"), steps])[0])
    assert _shape(_infer("Slice", [x, starts, ends, _const([1], "a")])[0]) == [4, 2]
    model = _model(
        """<ir_version: 10, opset_import: ["" : 18]>
        g (float[4,6] X, int64[1] A, int64[1] T) => (float[?,?] Y, int64[2] Z) {
          s = Constant<value_ints=[0]>()
          e = Constant<value_ints=[2]>()
          Y = Slice(X, s, e, A, T)
          Z = Shape(Y) }"""
    )
    feeds = {"X": np.arange(24, dtype=np.float32).reshape(4, 6)}
    _optimized_keeps_results(model, {**feeds, "A": np.array([1]), "T": np.array([1])})
    _optimized_keeps_results(model, {**feeds, "A": np.array([0]), "T": np.array([1])})


# -- every version of an op ----------------------------------------------------------------


def _old_model(
    nodes: list[onnx.NodeProto], opset: int, out_shape: list[int], dtype: int = TensorProto.FLOAT
) -> onnx.ModelProto:
    """An IR-3 model of ``nodes`` from ``X`` (float[4, 5]) to ``Y``."""
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [4, 5])],
        [helper.make_tensor_value_info("Y", dtype, out_shape)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    model.ir_version = 3
    onnx.checker.check_model(model, full_check=True)
    return model


def test_slice_before_opset_10_reads_its_attributes():
    (out,) = _infer("Slice", [_value([4, 5])], version=1, starts=[1, 0], ends=[3, 2])
    assert _shape(out) == [2, 2]
    (out,) = _infer("Slice", [_value([4, 5])], version=9, starts=[1], ends=[10], axes=[1])
    assert _shape(out) == [4, 4]
    nodes = [
        helper.make_node("Slice", ["X"], ["s"], starts=[1, 0], ends=[3, 2]),
        helper.make_node("Transpose", ["s"], ["Y"]),  # s an intermediate value: inferred
    ]
    feeds = {"X": np.arange(20, dtype=np.float32).reshape(4, 5)}
    _optimized_keeps_results(_old_model(nodes, 1, [2, 2]), feeds)


def test_reshape_before_opset_5_reads_its_attribute():
    (out,) = _infer("Reshape", [_value([4, 5])], version=4, shape=[-1, 0])
    assert _shape(out) == [4, 5]  # 0 copies the input's dim
    (out,) = _infer("Reshape", [_value([4, 5])], version=4, shape=[-1, 2])
    assert _shape(out) == [10, 2]
    nodes = [
        helper.make_node("Reshape", ["X"], ["s"], shape=[10, 2]),
        helper.make_node("Transpose", ["s"], ["Y"]),
    ]
    feeds = {"X": np.arange(20, dtype=np.float32).reshape(4, 5)}
    _optimized_keeps_results(_old_model(nodes, 4, [2, 10]), feeds)


def test_cast_before_opset_6_names_its_type():
    (out,) = _infer("Cast", [_value([4, 5])], version=5, to="DOUBLE")
    assert out.dtype == ir.DataType.DOUBLE and _shape(out) == [4, 5]
    nodes = [
        helper.make_node("Cast", ["X"], ["c"], to="DOUBLE"),
        helper.make_node("Cast", ["c"], ["Y"], to="DOUBLE"),
    ]
    model = _old_model(nodes, 5, [4, 5], TensorProto.DOUBLE)
    # neither onnxruntime nor onnx's inference runs Cast-1: the cast merged is what is told
    optimized = optimizer.optimize(model)
    onnx.checker.check_model(optimized, full_check=True)
    assert [(n.op_type, n.attribute[0].s) for n in optimized.graph.node] == [("Cast", b"DOUBLE")]


def test_concat_before_opset_4_defaults_to_axis_1():
    (out,) = _infer("Concat", [_value([2, 3]), _value([2, 3], name="y")], version=1)
    assert _shape(out) == [2, 6]
    (out,) = _infer("Concat", [_value([2, 3]), _value([2, 3], name="y")], version=4, axis=0)
    assert _shape(out) == [4, 3]


def test_scan_8_outputs_are_not_read_as_scan_9s():
    """Scan-8 has a batch dim and ``sequence_lens`` first: Scan-9's rule does not apply."""
    body = helper.make_graph(
        [helper.make_node("Add", ["s", "x"], ["s2"]), helper.make_node("Identity", ["s2"], ["o"])],
        "body",
        [
            helper.make_tensor_value_info("s", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
        ],
        [
            helper.make_tensor_value_info("s2", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("o", TensorProto.FLOAT, [2]),
        ],
    )
    body_attr = ir.serde.deserialize_graph(body)
    node = ir.Node(
        "",
        "Scan",
        [None, _value([1, 2], name="init"), _value([1, 3, 2], name="xs")],
        [ir.AttrGraph("body", body_attr), ir.AttrInt64("num_scan_inputs", 1)],
        num_outputs=2,
    )
    infer_node(node, 8)
    for value, expected in zip(node.outputs, ([1, 2], [1, 3, 2])):
        assert _shape(value) in (None, expected)


def test_a_loop_carried_value_has_the_shapes_its_first_value_and_body_agree_on():
    """Zero iterations give the initial value: its shape is not the body output's."""
    model = _model(
        """<ir_version: 10, opset_import: ["" : 18]>
        g (float[3] X, int64 M) => (float[?] Y, int64[1] Z) {
          t = Constant<value=bool {1}>()
          y = Loop(M, t, X) <body = body (int64 i, bool c, float[?] v) => (bool c2, float[?] w) {
            c2 = Identity(c)
            w = Constant<value_floats=[1.0, 2.0, 3.0, 4.0, 5.0]>() }>
          Z = Shape(y)
          Y = Relu(y) }"""
    )
    optimized = optimizer.optimize(model)
    for trips in (0, 1, 2):
        feeds = {"X": np.ones(3, np.float32), "M": np.array(trips, np.int64)}
        assert_transform_keeps_results(model, optimized, feeds)


def test_broadcasting_follows_the_opset():
    """numpy-style broadcasting from opset 7 (8 for Max, Min, Sum, Mean); before, ``B``
    onto ``A`` with ``broadcast=1``, else inputs of one shape."""
    a, b = _value([2, 3]), _value([3], name="b")
    assert _shape(_infer("Add", [a, b], version=7)[0]) == [2, 3]
    assert _shape(_infer("Add", [a, b], version=6, broadcast=1)[0]) == [2, 3]
    assert _shape(_infer("Max", [a, _value([2, 3], name="c")], version=7)[0]) == [2, 3]
    assert _shape(_infer("Max", [a, _value([1, 3], name="c")], version=8)[0]) == [2, 3]
    with pytest.raises(InferenceError, match="one shape"):
        _infer("Min", [_value([1]), a], version=7)
    with pytest.raises(InferenceError, match="one shape"):
        _infer("Equal", [a, _value([1, 3], name="c")], version=6)


def test_min_before_opset_8_is_not_given_a_broadcast_shape():
    """Min-6 does not broadcast: onnx's checker infers its result shaped like its inputs;
    a broadcast shape written on it would contradict the checker."""
    model = _model(
        """<ir_version: 3, opset_import: ["" : 7]>
        g (float[2,3] x) => (float[1] y) {
          c2 = Constant<value=float[1] {0.5}>()
          m3 = Max(x, c2)
          c4 = Constant<value=float[1] {0}>()
          m5 = Min(c4, m3)
          c6 = Constant<value=float {-1}>()
          y = Max(m5, c6) }"""
    )
    optimized = optimizer.optimize(model)
    onnx.checker.check_model(optimized, full_check=True)
