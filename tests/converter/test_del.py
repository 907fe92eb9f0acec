"""``del`` of any parameter or local name compiles: it only ends the name's scope; reading
the name afterwards is a located ScriptError."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript import FLOAT, ScriptError, script
from onnxscript import opset18 as op
from onnxscript.testing import assert_eager_matches_compiled
from tests.helpers import run_compiled


def test_del_of_attribute_tensor_and_local_names():
    @script()
    def f(x: FLOAT["N"], unused: int = 0, k: float = 2.0) -> FLOAT["N"]:
        del unused
        y = op.Mul(x, k)
        z = op.Abs(y)
        del x, y
        return z

    x = np.array([-1.0, 3.0], np.float32)
    (got,) = run_compiled(f, x)
    np.testing.assert_allclose(got, [2.0, 6.0])
    assert_eager_matches_compiled(f, x)


def test_reading_a_deleted_attribute_is_an_error():
    with pytest.raises(ScriptError, match="Unbound name: unused") as info:

        @script()
        def g(x: FLOAT["N"], unused: int = 0) -> FLOAT["N"]:
            del unused
            return op.Add(x, unused)

    assert "deleted with `del`" in str(info.value)


def test_deleting_twice_is_an_error():
    with pytest.raises(ScriptError, match="Unbound name: unused"):

        @script()
        def h(x: FLOAT["N"], unused: int = 0) -> FLOAT["N"]:
            del unused
            del unused
            return x


def test_del_inside_a_branch_ends_only_that_branch():
    @script()
    def pick(x: FLOAT["N"], flag: float = 1.0) -> FLOAT["N"]:
        if op.ReduceSum(x) > 0.0:
            y = op.Abs(x)
            del flag
        else:
            y = op.Mul(x, op.Constant(value_float=flag))
        return y

    x = np.array([-1.0, -2.0], np.float32)
    (got,) = run_compiled(pick, x)
    np.testing.assert_allclose(got, x)
    assert_eager_matches_compiled(pick, x)
