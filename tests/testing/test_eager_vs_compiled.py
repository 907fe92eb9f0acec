"""The eager-versus-compiled assertion helpers."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from onnxscript.evaluator import OnnxRuntimeEvaluator, default_as
from onnxscript.testing import assert_eager_matches_compiled, assert_same_values, compiled_outputs

X = np.array([[1.0, -2.0], [3.0, 0.5]], dtype=np.float32)


def test_matching_function_returns_both_results():
    @script()
    def f(x: FLOAT[2, 2], alpha: float = 2.0) -> tuple[FLOAT[2, 2], FLOAT[2]]:
        y = x * alpha
        return y, y[0]

    eager, compiled = assert_eager_matches_compiled(f, X, alpha=3.0)
    assert len(eager) == len(compiled) == 2
    np.testing.assert_array_equal(compiled[0], X * 3.0)


def test_inputs_given_as_python_numbers_are_typed_like_the_model_input():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        return x * op.Cast(n, to=FLOAT.dtype)

    (result,) = compiled_outputs(f, 1.5, 4)
    assert result.dtype == np.float32 and result == 6.0
    assert_eager_matches_compiled(f, 1.5, 4)


def test_differences_are_reported():
    with pytest.raises(AssertionError, match="dtype"):
        assert_same_values([np.zeros(2, np.float64)], [np.zeros(2, np.float32)])
    with pytest.raises(AssertionError, match="shape"):
        assert_same_values([np.zeros(3, np.float32)], [np.zeros(2, np.float32)])
    with pytest.raises(AssertionError, match="1 output"):
        assert_same_values([np.zeros(2)], [np.zeros(2), np.zeros(2)])
    with pytest.raises(AssertionError, match="differ"):
        assert_same_values([np.array([1, 2])], [np.array([1, 3])])
    assert_same_values([np.array([np.nan, 1.0])], [np.array([np.nan, 1.0 + 1e-9])])


def test_a_function_whose_eager_result_differs_is_caught():
    @script()
    def f(x: FLOAT[2, 2]) -> FLOAT[2, 2]:
        return op.Relu(x)

    class OffByOne(OnnxRuntimeEvaluator):
        """Simulates an eager bug: script functions return something else."""

        def eval_function(self, function, args, kwargs):
            return super().eval_function(function, args, kwargs) + 1

    with default_as(OffByOne()), pytest.raises(AssertionError, match="differ"):
        assert_eager_matches_compiled(f, X)
