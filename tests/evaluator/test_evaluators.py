"""Evaluators: the session cache, the reference and mixed evaluators, choosing one."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from onnxscript import FLOAT, script
from onnxscript import opset18 as op
from onnxscript.evaluator import (
    CachingEvaluator,
    Evaluator,
    MixedEvaluator,
    OnnxRuntimeEvaluator,
    OpCall,
    ReferenceEvaluator,
    Tensor,
    default,
    default_as,
    set_default,
)

X = np.arange(6, dtype=np.float32).reshape(2, 3)


def test_sessions_are_cached_by_op_attributes_and_input_types_and_ranks():
    evaluator = OnnxRuntimeEvaluator()
    with default_as(evaluator):
        op.Add(X, X)
        op.Add(X + 1, X * 2)  # same op, types and ranks: same session
        assert evaluator.cache_size() == 1
        op.Add(X[0], X[0])  # another rank
        assert evaluator.cache_size() == 2
        op.Add(X.astype(np.float64), X.astype(np.float64))  # another element type
        assert evaluator.cache_size() == 3
        op.LeakyRelu(X, alpha=0.1)
        op.LeakyRelu(X * 3, alpha=0.1)
        assert evaluator.cache_size() == 4
        op.LeakyRelu(X, alpha=0.2)  # another attribute value
        assert evaluator.cache_size() == 5
        # A different opset version of the same op is a different op.
        from onnxscript import opset17

        opset17.Add(X, X)
        assert evaluator.cache_size() == 6
    evaluator.clear_cache()
    assert evaluator.cache_size() == 0


def test_cache_is_bounded():
    evaluator = OnnxRuntimeEvaluator(max_cached=3)
    with default_as(evaluator):
        for alpha in (0.1, 0.2, 0.3, 0.4, 0.5):
            op.LeakyRelu(X, alpha=alpha)
    assert evaluator.cache_size() == 3


def test_reference_evaluator_gives_the_same_results():
    @script()
    def f(x: FLOAT[2, 3]) -> FLOAT[2, 3]:
        return op.Softmax(x * 2.0 - 1.0, axis=1) + x[0]

    expected = f(X)
    reference = ReferenceEvaluator()
    with default_as(reference):
        np.testing.assert_allclose(f(X), expected, rtol=1e-6)
    assert reference.cache_size() > 0


def test_mixed_evaluator_falls_back_when_onnxruntime_lacks_a_kernel():
    # onnxruntime has no Erf kernel for float64; the reference evaluator has one.
    x = np.array([-1.0, 0.0, 2.0], dtype=np.float64)
    with default_as(OnnxRuntimeEvaluator()), pytest.raises(RuntimeError, match="Erf"):
        op.Erf(x)
    with default_as(MixedEvaluator()):
        result = op.Erf(x)
    assert result.dtype == np.float64
    np.testing.assert_allclose(result, [-0.8427007929497149, 0.0, 0.9953222650189527])


def test_context_manager_restores_and_nests():
    outer = default()
    first, second = ReferenceEvaluator(), OnnxRuntimeEvaluator()
    with default_as(first):
        assert default() is first
        with default_as(second):
            assert default() is second
        assert default() is first
    assert default() is outer


def test_set_default_switches_in_the_current_context_only():
    original = default()
    seen: list[Evaluator] = []
    chosen = ReferenceEvaluator()
    try:
        set_default(chosen)
        assert default() is chosen
        thread = threading.Thread(target=lambda: seen.append(default()))
        thread.start()
        thread.join()
        assert seen[0] is not chosen  # another thread has its own context
    finally:
        set_default(original)
    assert default() is original


def test_non_evaluators_are_refused():
    with pytest.raises(TypeError, match="expected an Evaluator"):
        set_default("onnxruntime")  # type: ignore[arg-type]


class Recording(CachingEvaluator):
    """A custom evaluator: records each op it prepares and runs it with numpy."""

    def __init__(self) -> None:
        super().__init__()
        self.prepared: list[str] = []

    def prepare(self, call: OpCall, inputs: Sequence[Any]):
        self.prepared.append(f"{call.op_type}{tuple(np.asarray(i).dtype.name for i in inputs)}")
        implementations = {"Add": np.add, "Mul": np.multiply, "Neg": np.negative}
        fn = implementations[call.op_type]
        return lambda values: [np.asarray(fn(*values))]


def test_custom_evaluators_plug_in_through_the_protocol():
    recording = Recording()
    assert isinstance(recording, Evaluator)
    with default_as(recording):
        t = Tensor(X)
        result = -(t * 2.0 + t)
    np.testing.assert_array_equal(result.numpy(), -(X * 3))
    assert recording.prepared == [
        "Mul('float32', 'float32')",
        "Add('float32', 'float32')",
        "Neg('float32',)",
    ]


def test_tensor_wrapper_conversions():
    scalar = Tensor(np.array(3, dtype=np.int64))
    assert int(scalar) == 3 and float(scalar) == 3.0 and bool(scalar)
    assert list(range(scalar)) == [0, 1, 2]
    assert scalar.rank == 0 and Tensor(X).rank == 2 and Tensor(X).shape == (2, 3)
    with pytest.raises(TypeError, match="scalar"):
        int(Tensor(X))
    t = Tensor(X)
    np.testing.assert_array_equal(t[1].numpy(), X[1])
    np.testing.assert_array_equal(t[:, 1:].numpy(), X[:, 1:])
    np.testing.assert_array_equal(t[np.array([1, 0])].numpy(), X[[1, 0]])
    np.testing.assert_array_equal(np.asarray(t), X)
    assert [row.shape for row in t] == [(3,), (3,)]
