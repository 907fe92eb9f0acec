"""Optional inputs and outputs eagerly: an omitted optional input is ``None``, ``x is None``
and its spellings give what the compiled model gives, ``op.OptionalHasElement`` takes
``None`` or an array, and an output that is ``None`` on one branch is ``None``. Each case
is compared with the compiled model (checked, full) run by onnxruntime on the same inputs."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript import BOOL, FLOAT, script
from onnxscript import opset18 as op
from onnxscript.errors import EagerEvaluationError
from onnxscript.testing import assert_same_values, run_model
from tests.helpers import checked_model

X = np.array([-1.0, 2.0], np.float32)
B = np.array([0.5, 0.25], np.float32)


def _both(fn, *args):
    """(eager outputs, compiled outputs) on the same inputs; ``None`` is an omitted input."""
    eager = fn(*args)
    eager = list(eager) if isinstance(eager, tuple) else [eager]
    compiled = run_model(checked_model(fn), list(args))
    assert_same_values(eager, compiled)
    return eager, compiled


def test_optional_has_element_on_none_and_arrays():
    assert op.OptionalHasElement(None) == np.array(False)
    assert op.OptionalHasElement(X) == np.array(True)
    assert op.OptionalHasElement(np.float32(1.0)) == np.array(True)


@script()
def presence(x: FLOAT["N"], b: FLOAT["N"] = None) -> tuple[BOOL, BOOL, BOOL, BOOL, BOOL]:
    return b is None, b is not None, b == None, b != None, op.OptionalHasElement(b)  # noqa: E711


@pytest.mark.parametrize("given", [False, True])
def test_every_spelling_of_the_test_as_values(given):
    args = (X, B) if given else (X,)
    eager, _ = _both(presence, *args)
    assert [bool(v) for v in eager] == [not given, given, not given, given, given]


def test_none_given_explicitly_is_omitted():
    eager, _ = _both(presence, X, None)
    assert [bool(v) for v in eager] == [True, False, True, False, False]


@script()
def add_bias(x: FLOAT["N"], b: FLOAT["N"] = None, scale: float = 1.0) -> FLOAT["N"]:
    if b != None:  # noqa: E711
        y = op.Add(x, b)
    else:
        y = op.Identity(x)
    return y * scale


def test_omitted_by_keyword_and_by_position():
    np.testing.assert_allclose(add_bias(X, b=None), X)
    np.testing.assert_allclose(add_bias(X, scale=2.0), 2 * X)
    np.testing.assert_allclose(add_bias(X, b=B), X + B)
    _both(add_bias, X)
    _both(add_bias, X, B)


@script()
def caller(x: FLOAT["N"], b: FLOAT["N"]) -> FLOAT["N"]:
    return add_bias(x, None) + add_bias(x, b)


def test_a_script_passes_none_to_a_script_function():
    np.testing.assert_allclose(caller(X, B), 2 * X + B)


@script()
def maybe(x: FLOAT["N"]) -> FLOAT["N"]:
    if op.ReduceSum(x) > 0.0:
        y = op.Abs(x)
    else:
        y = None
    return y


@script()
def uses_maybe(x: FLOAT["N"]) -> FLOAT["N"]:
    y = maybe(x)
    if y is None:
        z = op.Neg(x)
    else:
        z = y * 2.0
    return z


def test_a_none_output_is_none_eagerly_and_compiled():
    eager, compiled = _both(maybe, -X * 3)
    assert eager == [None] and compiled == [None]
    eager, _ = _both(maybe, X)
    np.testing.assert_allclose(eager[0], np.abs(X))


def test_a_none_from_a_called_function_is_tested():
    _both(uses_maybe, X)
    _both(uses_maybe, -X * 3)


@script()
def reads_maybe(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.OptionalGetElement(maybe(x))


def test_reading_an_empty_optional_fails_eagerly_and_compiled():
    np.testing.assert_allclose(reads_maybe(X), np.abs(X))
    with pytest.raises(EagerEvaluationError, match="empty"):
        reads_maybe(-X * 3)
    with pytest.raises(Exception, match=r"OptionalGetElement|empty|optional"):
        run_model(checked_model(reads_maybe), [-X * 3])
