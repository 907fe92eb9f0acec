"""Eager input checks follow the compiled model: element types always, shapes and ranks
only at the inputs of the top-level call (ONNX checks a model's inputs, not a function's)."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np
import onnx
import pytest

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from onnxscript.errors import BindingError, InputTypeError
from onnxscript.evaluator import Tensor
from onnxscript.language.binding import bind
from onnxscript.testing import assert_eager_matches_compiled, assert_same_values, run_model


@script()
def square(x: FLOAT[1]) -> FLOAT[1]:
    return op.Mul(x, x)


@script()
def outer(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Add(x, square(op.ReduceSum(x, keepdims=0)))


@script()
def takes_ints(i: INT64[1]) -> INT64[1]:
    return op.Neg(i)


@script()
def passes_floats(x: FLOAT["N"]) -> INT64["N"]:
    return takes_ints(x)


def test_top_level_call_checks_rank_and_dims():
    with pytest.raises(InputTypeError, match="rank 1"):
        square(np.float32(2.0))
    with pytest.raises(InputTypeError, match="dimension 0"):
        square(np.ones(3, np.float32))


def test_nested_call_does_not_check_shapes():
    x = np.array([1.0, 2.0], np.float32)
    np.testing.assert_allclose(outer(x), [10.0, 11.0])
    assert_eager_matches_compiled(outer, x)


def test_nested_call_still_checks_element_types():
    with pytest.raises(InputTypeError, match="takes_ints"):
        passes_floats(np.array([1.0], np.float32))


def test_nested_call_with_a_python_scalar_for_a_shaped_parameter():
    @script()
    def squares_a_literal(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.Add(x, square(3.0))

    x = np.array([1.0, 2.0], np.float32)
    eager, _ = assert_eager_matches_compiled(squares_a_literal, x)
    np.testing.assert_allclose(eager[0], [10.0, 11.0])


def test_top_level_checks_keywords_and_tensors_too():
    with pytest.raises(InputTypeError, match="rank 1"):
        square(x=np.float32(2.0))
    with pytest.raises(InputTypeError, match="dimension 0"):
        square(Tensor(np.ones(2, np.float32)))
    with pytest.raises(InputTypeError, match=r"float32"):
        square(np.ones(1, np.float64))


@script()
def any_size(x: FLOAT["A", None, 4], y: FLOAT["N", "M"]) -> FLOAT["N", "M"]:
    return op.Add(op.ReduceSum(x, keepdims=0), y)


def test_symbolic_and_unknown_dimensions_take_any_size():
    for x, y in ((np.ones((2, 3, 4)), np.ones((2, 5))), (np.ones((1, 1, 4)), np.ones((1, 1)))):
        assert_eager_matches_compiled(any_size, x.astype(np.float32), y.astype(np.float32))
    with pytest.raises(InputTypeError, match="rank 2"):
        any_size(np.ones((1, 1, 4), np.float32), np.ones(5, np.float32))
    with pytest.raises(InputTypeError, match="dimension 2"):
        any_size(np.ones((1, 1, 3), np.float32), np.ones((1, 1), np.float32))


def test_shapes_are_checked_again_after_a_failed_nested_call():
    with pytest.raises(InputTypeError):
        passes_floats(np.array([1.0], np.float32))
    with pytest.raises(InputTypeError, match="rank 1"):
        square(np.float32(2.0))


# -- optional inputs: parameters defaulted to None --------------------------------------------


@script()
def clipped(x: FLOAT["N"], low: FLOAT = None, high: Optional[FLOAT] = None) -> FLOAT["N"]:
    return op.Clip(x, low, high)


@script()
def shifted(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias is None:
        y = op.Neg(x)
    else:
        y = op.Add(x, bias)
    return y


X = np.array([-1.0, 0.5, 2.0], np.float32)


def _compare(fn: Any, *args: Any, **kwargs: Any) -> list[Any]:
    """``fn`` eagerly against its checked model run by onnxruntime (``None`` feeds an
    absent optional input); returns the compiled outputs."""
    model = fn.to_model_proto()
    onnx.checker.check_model(model, full_check=True)
    bound = bind(fn.call_signature, args, kwargs)
    compiled = run_model(model, bound.inputs)
    eager = fn(*args, **kwargs)
    assert_same_values([eager], compiled)
    return compiled


def test_none_and_omission_are_accepted_for_optional_inputs():
    np.testing.assert_allclose(_compare(shifted, X)[0], -X)
    np.testing.assert_allclose(_compare(shifted, X, None)[0], -X)
    np.testing.assert_allclose(_compare(shifted, X, bias=None)[0], -X)
    np.testing.assert_allclose(_compare(shifted, X, bias=X)[0], 2 * X)
    low, high = np.float32(0.0), np.float32(1.0)
    np.testing.assert_allclose(_compare(clipped, X, low, high)[0], np.clip(X, low, high))
    # (The compiled clipped() cannot run with a bound omitted yet: its model reads every
    # optional input with OptionalGetElement.)
    np.testing.assert_allclose(clipped(X), X)
    np.testing.assert_allclose(clipped(X, None, high), np.minimum(X, high))
    np.testing.assert_allclose(clipped(X, low=None, high=high), np.minimum(X, high))
    np.testing.assert_allclose(clipped(X, low), np.maximum(X, low))


def test_given_optional_inputs_are_still_checked():
    with pytest.raises(InputTypeError, match=r"'low'.*float64"):
        clipped(X, np.float64(0.0))
    with pytest.raises(InputTypeError, match=r"'bias'.*rank 1"):
        shifted(X, np.float32(1.0))
    with pytest.raises(BindingError, match="missing required input 'x'"):
        clipped(None)


@script()
def calls_with_and_without_bounds(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Add(clipped(x), clipped(x, None, 1.0)) + clipped(x, high=0.5) + shifted(x, x)


def test_nested_calls_omit_optional_inputs():
    # (A nested call omitting shifted's bias does not run compiled: onnxruntime refuses an
    # omitted input read in a required slot, tests/converter/test_optional_io.py.)
    eager, _ = assert_eager_matches_compiled(calls_with_and_without_bounds, X)
    np.testing.assert_allclose(eager[0], X + np.minimum(X, 1.0) + np.minimum(X, 0.5) + 2 * X)
    np.testing.assert_allclose(shifted(X), -X)
