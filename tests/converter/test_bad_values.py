"""Values no tensor or attribute can hold exactly are refused with a located ScriptError
(compile time) or a clear error (eager, decoration), never an internal exception."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript import DOUBLE, FLOAT, INT32, INT64, ScriptError, script
from onnxscript import opset18 as op
from tests.helpers import assert_close, define, run_compiled

HEADER = "def f(x: FLOAT[3], i: INT64[3]):\n"

CASES = {
    "a list as annotation": (
        "def f(x: [3, 4]):\n    return op.Identity(x)\n",
        "unsupported annotation [3, 4]",
    ),
    "Constant past INT64": (
        HEADER + "    return op.Constant(value=2**70)\n",
        "does not fit in INT64",
    ),
    "literal past the tensor's type": (HEADER + "    return i + 2**63\n", "values range from"),
    "literal past INT32": (
        "def f(i: INT32[3]):\n    return i + 2**40\n",
        "is combined with an INT32 tensor",
    ),
    "ragged list": (HEADER + "    return x * [[1.0], [2.0, 3.0]]\n", "different lengths"),
    "object array of None": (
        HEADER + "    return op.Identity(np.array([None]))\n",
        "object array holding NoneType",
    ),
    "strings mixed with numbers": (
        HEADER + "    return op.Constant(value=[1, 'a'])\n",
        "mixes strings and numbers",
    ),
    "an opset indexed by a tuple": (HEADER + "    return op[3, 2]\n", "indexed by an op name"),
    "an INT attribute past 64 bits": (
        HEADER + "    return op.ReduceSum(x, keepdims=-2**63 - 1)\n",
        "does not fit in an INT attribute",
    ),
}


def _compile_error(source: str) -> ScriptError:
    scope = {"FLOAT": FLOAT, "INT64": INT64, "INT32": INT32, "op": op, "np": np}
    f = define(source, scope)
    with pytest.raises(ScriptError) as caught:
        script()(f)
    return caught.value


@pytest.mark.parametrize("name", sorted(CASES))
def test_error_names_the_line_and_the_reason(name):
    source, expected = CASES[name]
    error = _compile_error(source)
    assert expected in str(error)
    assert error.lineno >= 1 and error.filename.startswith("<test-source-")


def test_a_600_term_sum_compiles_and_runs():
    source = HEADER + "    return " + " + ".join(["x"] * 600) + "\n"
    scope = {"FLOAT": FLOAT, "INT64": INT64, "op": op}
    f = script()(define(source, scope))
    x = np.array([1.0, 2.0, 3.0], np.float32)
    i = np.zeros(3, np.int64)
    assert_close(run_compiled(f, x, i), [x * 600])
    assert_close(f(x, i), x * 600)  # eagerly too


@pytest.mark.parametrize("dim", [-1, 2**63, 2**70])
def test_annotation_dims_out_of_range_are_refused(dim):
    with pytest.raises(ValueError, match="a static size is from 0 to 2\\*\\*63 - 1"):
        FLOAT[dim]


def test_unknown_script_keyword_is_refused_when_decorating():
    with pytest.raises(TypeError, match="@script\\(\\) got an unexpected keyword 'bogus'"):

        @script(bogus=1)
        def f(x: FLOAT[2]) -> FLOAT[2]:
            return op.Identity(x)

    @script(producer_name="me", ir_version=10)
    def g(x: FLOAT[2]) -> FLOAT[2]:
        return op.Identity(x)

    assert g.to_model_proto().producer_name == "me"


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda: op.Add(2**63, 0), "does not fit in INT64"),
        (lambda: op.Add(2**64 - 1, 0), "does not fit in INT64"),
        (lambda: op.Constant(value=2**70), "does not fit in INT64"),
        (lambda: op.Constant(value=[1, "a"]), "mixes strings and numbers"),
    ],
)
def test_eager_python_values_are_exact_or_refused(call, expected):
    with pytest.raises(Exception, match=expected) as caught:
        call()
    assert not isinstance(caught.value, (OverflowError, NotImplementedError))


def test_eager_big_endian_arrays_compute_as_native_ones():
    a = np.array([1, 2], ">i4")
    assert_close(op.Add(a, a), np.array([2, 4], np.int32))
    assert_close(op.Relu(np.array([1.0, -2.0], ">f4")), np.array([1.0, 0.0], np.float32))


def test_eager_bytes_in_object_arrays_are_utf8_strings():
    texts = np.array([b"abc", "d\u00e9f"], dtype=object)
    got = op.Identity(texts)
    assert list(np.asarray(got).tolist()) == ["abc", "d\u00e9f"]
    with pytest.raises(Exception, match="not UTF-8"):
        op.Identity(np.array([b"\xff\xfe"], dtype=object))


@pytest.mark.parametrize(
    ("loop", "expected"),
    [("range(2**63)", "does not fit in INT64"), ("range(-2**62, 2**62 + 1)", "more than 2**63")],
)
def test_range_past_int64_is_refused(loop, expected):
    source = (
        HEADER + "    s = x\n    for k in range_placeholder:\n        s = s + x\n    return s\n"
    )
    error = _compile_error(source.replace("range_placeholder", loop))
    assert expected in str(error)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("x + [0.1, 0.2]", lambda x: x + np.array([0.1, 0.2])),
        ("x * 0.1", lambda x: x * 0.1),
    ],
)
def test_float_literals_next_to_double_tensors_are_exact(body, expected):
    # Found by comparing eager and compiled results of fuzz mutants: the literal used to be
    # a FLOAT widened to DOUBLE (1.1000000014901161), eagerly and, for lists, compiled too.
    f = script()(define(f"def f(x: DOUBLE[2]):\n    return {body}\n", {"DOUBLE": DOUBLE}))
    x = np.array([1.0, 2.0])
    want = expected(x)
    np.testing.assert_array_equal(f(x), want)
    np.testing.assert_array_equal(run_compiled(f, x)[0], want)


def test_ints_past_int64_next_to_float_tensors_are_the_same_eagerly_and_compiled():
    source = "def f(x: FLOAT):\n    if x < -2**63 - 1:\n        return -x\n    return x * 2**70\n"
    f = script()(define(source, {"FLOAT": FLOAT}))
    x = np.float32(2.0)
    want = np.float32(2.0) * np.float32(2**70)
    np.testing.assert_array_equal(f(x), want)
    np.testing.assert_array_equal(run_compiled(f, x)[0], want)
