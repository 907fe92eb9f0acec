"""Eager input checks follow the compiled model: element types always, shapes and ranks
only at the inputs of the top-level call (ONNX checks a model's inputs, not a function's)."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from onnxscript.errors import InputTypeError
from onnxscript.testing import assert_eager_matches_compiled


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
