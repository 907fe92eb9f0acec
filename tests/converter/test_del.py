"""``del`` of any parameter or local name compiles: it only ends the name's scope; reading
the name afterwards is a located ScriptError."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript import FLOAT, INT64, ScriptError, script
from onnxscript import opset18 as op
from onnxscript.testing import assert_eager_matches_compiled
from tests.helpers import checked_model, define, run_compiled, run_model


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


def _compile(source: str):
    return script()(define(source, {"FLOAT": FLOAT, "INT64": INT64, "op": op}))


def _unbound(source: str, name: str, line_text: str) -> str:
    """The message of compiling ``source``: a located 'Unbound name' error for ``name``."""
    with pytest.raises(ScriptError, match=f"Unbound name: {name}") as info:
        _compile(source)
    message = str(info.value)
    assert line_text in message
    assert "del" in message
    return message


def test_del_of_an_optional_input_and_a_used_attribute():
    @script()
    def f(x: FLOAT["N"], bias: FLOAT["N"] = None, k: float = 2.0) -> FLOAT["N"]:
        y = op.Mul(x, k)
        del bias, k
        return y

    x = np.array([-1.0, 3.0], np.float32)
    model = checked_model(f)
    assert [i.name for i in model.graph.input] == ["x", "bias"]
    (got,) = run_model(model, x)
    np.testing.assert_allclose(got, [-2.0, 6.0])
    np.testing.assert_allclose(f(x), got)


def test_reading_a_deleted_tensor_parameter_is_a_located_error():
    source = "def f(x: FLOAT['N']) -> FLOAT['N']:\n    del x\n    return op.Abs(x)\n"
    message = _unbound(source, "x", "return op.Abs(x)")
    assert ":3:" in message


def test_reading_a_deleted_local_is_a_located_error():
    source = (
        "def f(x: FLOAT['N']) -> FLOAT['N']:\n    y = op.Abs(x)\n    del y\n    return op.Neg(y)\n"
    )
    _unbound(source, "y", "return op.Neg(y)")


def test_a_del_in_one_branch_leaves_the_name_unbound_after_the_if():
    """Python fails on that path when the name is read after the if; so does compiling."""
    source = (
        "def f(x: FLOAT['N']) -> FLOAT['N']:\n"
        "    if op.ReduceSum(x) > 0.0:\n"
        "        del x\n"
        "    return x\n"
    )
    _unbound(source, "x", "return x")


def test_a_del_in_a_loop_body_leaves_the_name_unbound_after_the_loop():
    source = (
        "def f(x: FLOAT['N'], n: INT64) -> FLOAT['N']:\n"
        "    w = op.Abs(x)\n"
        "    y = x\n"
        "    for i in range(n):\n"
        "        y = y * 2.0\n"
        "        del w\n"
        "    return op.Add(y, w)\n"
    )
    _unbound(source, "w", "return op.Add(y, w)")


def test_del_then_assign_again_in_a_loop():
    @script()
    def f(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
        y = x
        for i in range(n):
            z = y + 1.0
            del y
            y = z
            del z
        return y

    x = np.array([1.0, 2.0], np.float32)
    n = np.array(3, np.int64)
    (got,) = run_model(checked_model(f), x, n)
    np.testing.assert_allclose(got, x + 3)
    assert_eager_matches_compiled(f, x, n)


def test_del_of_a_name_never_bound_is_an_error():
    source = "def f(x: FLOAT['N']) -> FLOAT['N']:\n    del nothing\n    return x\n"
    with pytest.raises(ScriptError, match="Unbound name: nothing") as info:
        _compile(source)
    assert "del nothing" in str(info.value)
