"""How many outputs an eager op call gives.

Outside a script, a call that does not ask gives every output the schema declares that the
spec allows for the call (as onnxscript 0.7 and torch.onnx's recorder do); ``_outputs=k``
asks for ``k``. Inside a script (run eagerly or compiled) the assignment decides. Each
direct call is compared with a compiled script that unpacks the same outputs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx
import onnx.helper as oh
import pytest

from onnxscript import BOOL, FLOAT, INT64, TracedOnnxFunction, opset11, opset13, opset23, script
from onnxscript import opset18 as op
from onnxscript.evaluator import ReferenceEvaluator, Tensor, call_op, default_as
from onnxscript.language import binding
from onnxscript.testing import assert_eager_matches_compiled, assert_same_values, run_model
from onnxscript.values import Opset

RNG = np.random.default_rng(7)
IMAGE = RNG.standard_normal((1, 1, 4, 4)).astype(np.float32)
ROWS = RNG.standard_normal((2, 4)).astype(np.float32)


def _outputs(result: Any) -> list[Any]:
    return list(result) if isinstance(result, tuple) else [result]


def assert_direct_call_matches(direct: Callable[[], Any], fn: Any, *inputs: Any) -> list[Any]:
    """``direct()`` (an op call outside a script) gives exactly the outputs of the compiled
    script ``fn`` (which unpacks them) on ``inputs``; ``fn`` also runs eagerly alike."""
    _, compiled = assert_eager_matches_compiled(fn, *inputs)
    outputs = _outputs(direct())
    assert_same_values(outputs, compiled, what="direct call")
    return outputs


# -- ops with optional outputs -----------------------------------------------------------


@script()
def pool_all(x: FLOAT[1, 1, 4, 4]) -> tuple[FLOAT[1, 1, 3, 3], INT64[1, 1, 3, 3]]:
    y, indices = op.MaxPool(x, kernel_shape=[2, 2])
    return y, indices


@script()
def norm_all(x: FLOAT[2, 4], scale: FLOAT[4]) -> tuple[FLOAT[2, 4], FLOAT[2, 1], FLOAT[2, 1]]:
    y, mean, inv_std = op.LayerNormalization(x, scale)
    return y, mean, inv_std


@script()
def dropout_all(x: FLOAT[2, 4]) -> tuple[FLOAT[2, 4], BOOL[2, 4]]:
    y, mask = op.Dropout(x)
    return y, mask


@script()
def unique_all(x: INT64["N"]) -> tuple[INT64["U"], INT64["U"], INT64["N"], INT64["U"]]:
    y, first, inverse, counts = op.Unique(x)
    return y, first, inverse, counts


@script()
def loss_all(scores: FLOAT[3, 5], labels: INT64[3]) -> tuple[FLOAT, FLOAT[3, 5]]:
    loss, log_prob = op.SoftmaxCrossEntropyLoss(scores, labels)
    return loss, log_prob


def test_max_pool_gives_values_and_indices():
    outputs = assert_direct_call_matches(
        lambda: op.MaxPool(IMAGE, kernel_shape=[2, 2]), pool_all, IMAGE
    )
    assert [o.dtype for o in outputs] == [np.float32, np.int64]


def test_layer_normalization_gives_mean_and_inverse_deviation():
    scale = np.ones(4, np.float32)
    outputs = assert_direct_call_matches(
        lambda: op.LayerNormalization(ROWS, scale), norm_all, ROWS, scale
    )
    assert len(outputs) == 3


def test_dropout_gives_output_and_mask():
    y, mask = assert_direct_call_matches(lambda: op.Dropout(ROWS), dropout_all, ROWS)
    np.testing.assert_array_equal(y, ROWS)  # inference mode: the input, all kept
    assert mask.dtype == np.bool_ and mask.all()


def test_unique_and_softmax_cross_entropy_give_every_output():
    values = np.array([3, 1, 3, 2], np.int64)
    assert len(assert_direct_call_matches(lambda: op.Unique(values), unique_all, values)) == 4
    scores = RNG.standard_normal((3, 5)).astype(np.float32)
    labels = np.array([1, 0, 4], np.int64)
    outputs = assert_direct_call_matches(
        lambda: op.SoftmaxCrossEntropyLoss(scores, labels), loss_all, scores, labels
    )
    assert len(outputs) == 2


@script()
def lstm_all(
    x: FLOAT[2, 3, 4], w: FLOAT[1, 12, 4], r: FLOAT[1, 12, 3]
) -> tuple[FLOAT[2, 1, 3, 3], FLOAT[1, 3, 3], FLOAT[1, 3, 3]]:
    y, y_h, y_c = op.LSTM(x, w, r, hidden_size=3)
    return y, y_h, y_c


@script()
def gru_all(
    x: FLOAT[2, 3, 4], w: FLOAT[1, 9, 4], r: FLOAT[1, 9, 3]
) -> tuple[FLOAT[2, 1, 3, 3], FLOAT[1, 3, 3]]:
    y, y_h = op.GRU(x, w, r, hidden_size=3)
    return y, y_h


def test_recurrent_ops_give_every_state():
    x = RNG.standard_normal((2, 3, 4)).astype(np.float32)
    w, r = (RNG.standard_normal(s).astype(np.float32) for s in ((1, 12, 4), (1, 12, 3)))
    assert_direct_call_matches(lambda: op.LSTM(x, w, r, hidden_size=3), lstm_all, x, w, r)
    w, r = w[:, :9], r[:, :9]
    assert_direct_call_matches(lambda: op.GRU(x, w, r, hidden_size=3), gru_all, x, w, r)


# -- outputs the spec allows only in some calls -------------------------------------------

DATA = RNG.standard_normal((2, 2, 3)).astype(np.float32)
STAT = np.array([0.5, 2.0], np.float32)


@script()
def batch_norm_training(
    x: FLOAT[2, 2, 3], s: FLOAT[2], b: FLOAT[2], m: FLOAT[2], v: FLOAT[2]
) -> tuple[FLOAT[2, 2, 3], FLOAT[2], FLOAT[2]]:
    y, mean, var = op.BatchNormalization(x, s, b, m, v, training_mode=1)
    return y, mean, var


@script()
def batch_norm(x: FLOAT[2, 2, 3], s: FLOAT[2], b: FLOAT[2], m: FLOAT[2], v: FLOAT[2]):
    return op.BatchNormalization(x, s, b, m, v)


def test_batch_normalization_gives_statistics_only_in_training_mode():
    args = (DATA, STAT, STAT, STAT, STAT)
    assert_direct_call_matches(lambda: op.BatchNormalization(*args), batch_norm, *args)
    outputs = assert_direct_call_matches(
        lambda: op.BatchNormalization(*args, training_mode=1), batch_norm_training, *args
    )
    assert len(outputs) == 3
    # Opset 9 tells the mode by the output count only: one output, the inference mode.
    assert isinstance(Opset("", 9).BatchNormalization(*args), np.ndarray)


Q = RNG.standard_normal((1, 2, 3, 4)).astype(np.float32)
PAST = RNG.standard_normal((1, 2, 1, 4)).astype(np.float32)


@script()
def attention_with_cache(
    q: FLOAT[1, 2, 3, 4], past_k: FLOAT[1, 2, 1, 4], past_v: FLOAT[1, 2, 1, 4]
) -> tuple[FLOAT[1, 2, 3, 4], FLOAT[1, 2, 4, 4], FLOAT[1, 2, 4, 4], FLOAT[1, 2, 3, 4]]:
    y, key, value, qk = opset23.Attention(q, q, q, None, past_k, past_v)
    return y, key, value, qk


def test_attention_gives_the_cache_only_with_a_past_cache():
    assert isinstance(opset23.Attention(Q, Q, Q), np.ndarray)
    outputs = assert_direct_call_matches(
        lambda: opset23.Attention(Q, Q, Q, past_key=PAST, past_value=PAST),
        attention_with_cache,
        Q,
        PAST,
        PAST,
    )
    assert outputs[1].shape == (1, 2, 4, 4)


def test_the_rule_reads_each_schema_version():
    def count(name: str, version: int, attrs: dict[str, Any], given: tuple[str, ...] = ()):
        sig = binding.signature_for("", name, version)
        assert sig is not None
        return binding.declared_output_count(sig, "", attrs, given)

    assert count("BatchNormalization", 6, {}) == 5  # is_test=0: training, five outputs
    assert count("BatchNormalization", 6, {"is_test": 1}) == 1
    assert count("Dropout", 6, {"is_test": 1}) == 1
    assert count("Dropout", 6, {}) == count("Dropout", 13, {}) == 2
    assert count("Attention", 23, {}, ("Q", "K", "V", "past_key")) == 4
    assert count("TopK", 11, {}) == 2 and count("Add", 14, {}) == 1
    assert count("Split", 18, {"num_outputs": 2}) is None  # variadic: the shared rule
    assert binding.declared_output_count(binding.free_form("Custom"), "my.domain") == 1


# -- variadic outputs ----------------------------------------------------------------------

SEQ = np.arange(6, dtype=np.float32)


@script()
def split_three(x: FLOAT[6]) -> tuple[FLOAT[2], FLOAT[2], FLOAT[2]]:
    a, b, c = op.Split(x, num_outputs=3)
    return a, b, c


@script()
def split_sizes(x: FLOAT[6]) -> tuple[FLOAT[2], FLOAT[4]]:
    a, b = op.Split(x, op.Constant(value_ints=[2, 4]))
    return a, b


@script()
def split_attribute(x: FLOAT[6]) -> tuple[FLOAT[1], FLOAT[5]]:
    a, b = opset11.Split(x, split=[1, 5])
    return a, b


def test_split_gives_num_outputs_or_as_many_as_its_sizes():
    assert_direct_call_matches(lambda: op.Split(SEQ, num_outputs=3), split_three, SEQ)
    sizes = np.array([2, 4], np.int64)
    assert_direct_call_matches(lambda: op.Split(SEQ, sizes), split_sizes, SEQ)
    assert_direct_call_matches(lambda: opset11.Split(SEQ, split=[1, 5]), split_attribute, SEQ)


def test_split_into_equal_parts_needs_a_count():
    with pytest.raises(TypeError, match="n_outputs"):
        opset13.Split(SEQ)
    parts = call_op(opset13.Split, (SEQ,), {}, n_outputs=3)
    assert [p.tolist() for p in parts] == [[0, 1], [2, 3], [4, 5]]


# -- asking for a count ---------------------------------------------------------------------


def test_outputs_keyword_asks_for_a_count():
    single = op.MaxPool(IMAGE, kernel_shape=[2, 2], _outputs=1)
    assert isinstance(single, np.ndarray)
    assert_same_values([single], assert_eager_matches_compiled(pooled, IMAGE)[1])
    two = call_op(op.LayerNormalization, (ROWS, np.ones(4, np.float32)), {}, n_outputs=2)
    assert len(two) == 2
    with pytest.raises(TypeError, match="at most 2 output"):
        op.MaxPool(IMAGE, kernel_shape=[2, 2], _outputs=3)


def test_tensors_in_give_a_tuple_of_tensors_out():
    y, indices = op.MaxPool(Tensor(IMAGE), kernel_shape=[2, 2])
    assert isinstance(y, Tensor) and isinstance(indices, Tensor)
    assert indices.dtype == np.int64


def test_the_rule_does_not_depend_on_the_evaluator():
    with default_as(ReferenceEvaluator()):
        reference = _outputs(op.MaxPool(IMAGE, kernel_shape=[2, 2]))
    outputs = _outputs(op.MaxPool(IMAGE, kernel_shape=[2, 2]))
    assert len(reference) == len(outputs) == 2
    # (onnx.reference and onnxruntime disagree on some indices; the values agree.)
    assert_same_values(reference[:1], outputs[:1])


# -- inside scripts: the assignment decides --------------------------------------------------


@script()
def pooled(x: FLOAT[1, 1, 4, 4]) -> FLOAT[1, 1, 3, 3]:
    y = op.MaxPool(x, kernel_shape=[2, 2])
    return y


@script()
def normalized(x: FLOAT[2, 4]) -> FLOAT[2, 4]:
    return op.LayerNormalization(x, op.Constant(value_floats=[1.0, 2.0, 1.0, 2.0]))


@script()
def dropped_twice(x: FLOAT[2, 4]) -> FLOAT[2, 4]:
    y = op.Dropout(x)
    z, _ = op.Dropout(y)
    return op.Add(normalized(z), y)


def test_scripts_get_the_outputs_they_assign():
    for fn, x in ((pooled, IMAGE), (normalized, ROWS), (dropped_twice, ROWS)):
        eager, compiled = assert_eager_matches_compiled(fn, x)
        assert len(eager) == len(compiled) == 1


def test_the_count_is_the_same_before_and_after_a_script_runs():
    assert isinstance(pooled(IMAGE), np.ndarray)
    assert len(op.MaxPool(IMAGE, kernel_shape=[2, 2])) == 2
    assert isinstance(pooled(IMAGE), np.ndarray)


# -- traced functions: their body is Python calling ops -------------------------------------


def _normalize(x: FLOAT[2, 4], scale: FLOAT[4]) -> FLOAT[2, 4]:
    y, _, _ = op.LayerNormalization(x, scale)
    return y


normalize = TracedOnnxFunction(Opset("my.ns", 1), _normalize)


def test_traced_functions_see_every_output_eagerly_and_traced():
    scale = np.array([1.0, 2.0, 1.0, 2.0], np.float32)
    function = normalize.to_function_proto()
    assert [len(n.output) for n in function.node] == [3]
    value = oh.make_tensor_value_info
    model_graph = oh.make_graph(
        [oh.make_node(function.name, ["x", "s"], ["y"], domain="my.ns")],
        "g",
        [value("x", onnx.TensorProto.FLOAT, [2, 4]), value("s", onnx.TensorProto.FLOAT, [4])],
        [value("y", onnx.TensorProto.FLOAT, [2, 4])],
    )
    opsets = [*function.opset_import, oh.make_opsetid("my.ns", 1)]
    model = oh.make_model(model_graph, functions=[function], opset_imports=opsets, ir_version=10)
    onnx.checker.check_model(model, full_check=True)
    assert_same_values([normalize(ROWS, scale)], run_model(model, [ROWS, scale]))
