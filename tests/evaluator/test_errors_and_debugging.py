"""Errors of eager calls, and debugging script functions: tracebacks, print, tracing."""

from __future__ import annotations

import inspect
import sys
import traceback

import numpy as np
import pytest

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from onnxscript.evaluator import (
    EagerEvaluationError,
    InputTypeError,
    OnnxRuntimeEvaluator,
    default_as,
)

X = np.ones((2, 3), dtype=np.float32)


def _line_of(fn, text: str) -> int:
    """The file line number of the first line of ``fn``'s source containing ``text``."""
    lines, start = inspect.getsourcelines(fn)
    for offset, line in enumerate(lines):
        if text in line:
            return start + offset
    raise AssertionError(f"{text!r} not in source")


@script()
def scaled(x: FLOAT["N"], k: INT64) -> FLOAT["N"]:
    y = x * 2.0
    z = op.MatMul(y, y)  # fails eagerly for a vector and a matrix... see below
    return z + op.Cast(k, to=FLOAT.dtype)


@script()
def mismatched(x: FLOAT[2, 3]) -> FLOAT[2, 3]:
    w = op.Transpose(x)
    return op.MatMul(x, x) + w


def test_function_input_with_the_wrong_element_type():
    with pytest.raises(InputTypeError) as info:
        scaled(np.ones(3, dtype=np.float64), np.array(1))
    message = str(info.value)
    assert "scaled()" in message and "'x'" in message
    assert "float64" in message and "shape (3,)" in message
    assert "FLOAT['N']" in message


def test_function_input_with_the_wrong_rank_or_static_dim():
    with pytest.raises(InputTypeError, match=r"mismatched\(\): input 'x'.*rank 2"):
        mismatched(np.ones(6, dtype=np.float32))
    with pytest.raises(InputTypeError, match="fixes dimension 1 to 3"):
        mismatched(np.ones((2, 4), dtype=np.float32))


def test_op_input_of_a_type_the_schema_rejects():
    with pytest.raises(InputTypeError) as info:
        op.Add(X, X.astype(np.float64))
    message = str(info.value)
    assert "Add()" in message and "'B'" in message and "float64" in message
    assert "input 'A' is tensor(float)" in message
    with pytest.raises(InputTypeError, match=r"Relu\(\): input 'X'.*tensor\(string\)"):
        op.Relu(np.array(["a"]))


def test_runtime_failure_names_the_op_and_the_users_line():
    with pytest.raises(EagerEvaluationError) as info:
        mismatched(X)
    error = info.value
    assert error.op_type == "MatMul"
    assert error.location is not None
    assert error.location.filename == __file__
    assert error.location.lineno == _line_of(mismatched.function, "op.MatMul(x, x)")
    assert "mismatched" in str(error) and "op.MatMul(x, x)" in str(error)
    assert "input 0: numpy array of float32 with shape (2, 3)" in str(error)


def test_runtime_failure_of_a_direct_op_call_names_this_line():
    with pytest.raises(EagerEvaluationError) as info:
        op.MatMul(X, X)  # the line reported
    assert info.value.location is not None
    assert info.value.location.lineno == _line_of(
        test_runtime_failure_of_a_direct_op_call_names_this_line, "the line reported"
    )


def test_traceback_shows_the_users_source_lines():
    try:
        mismatched(X)
    except EagerEvaluationError as exc:
        frames = traceback.extract_tb(exc.__traceback__)
    else:
        raise AssertionError("expected a failure")
    ours = [f for f in frames if f.name == "mismatched"]
    assert ours, [f.name for f in frames]
    assert ours[0].filename == __file__
    assert ours[0].lineno == _line_of(mismatched.function, "op.MatMul(x, x)")
    assert ours[0].line is not None and "op.MatMul(x, x)" in ours[0].line


def test_python_errors_inside_a_script_point_at_the_users_line():
    table = {"a": 1}

    @script()
    def lookup(x: FLOAT[2, 3]) -> FLOAT[2, 3]:
        return x * table["a"]

    table.clear()  # compiled already; eager mode reads the closure now
    with pytest.raises(KeyError) as info:
        lookup(X)
    last = traceback.extract_tb(info.value.__traceback__)[-1]
    assert last.filename == __file__
    assert last.lineno == _line_of(lookup.function, 'table["a"]')


def test_print_and_python_control_flow_run_in_eager_mode(capsys):
    @script()
    def loud(x: FLOAT[2, 3], n: INT64) -> FLOAT[2, 3]:
        y = x
        for i in range(n):
            print("step", int(i))
            y = y + 1.0
        return y

    result = loud(X, np.array(3))
    np.testing.assert_array_equal(result, X + 3)
    assert capsys.readouterr().out.splitlines() == ["step 0", "step 1", "step 2"]


def test_a_debugger_sees_the_users_lines():
    @script()
    def stepped(x: FLOAT[2, 3]) -> FLOAT[2, 3]:
        a = x + 1.0
        b = a * 2.0
        return b - x

    seen: list[tuple[str, int]] = []

    def tracer(frame, event, arg):
        if frame.f_code.co_name == "stepped" and event == "line":
            seen.append((frame.f_code.co_filename, frame.f_lineno))
        return tracer

    sys.settrace(tracer)
    try:
        stepped(X)
    finally:
        sys.settrace(None)
    expected = [
        (__file__, _line_of(stepped.function, text))
        for text in ("a = x + 1.0", "b = a * 2.0", "return b - x")
    ]
    assert seen == expected


def test_unknown_keyword_argument_of_a_function():
    @script()
    def add_alpha(x: FLOAT[2, 3], alpha: float = 1.0) -> FLOAT[2, 3]:
        return x + alpha

    with pytest.raises(TypeError, match="unexpected keyword argument 'beta'"):
        add_alpha(X, beta=2.0)
    with default_as(OnnxRuntimeEvaluator(ignore_unknown_function_kwargs=True)):
        np.testing.assert_array_equal(add_alpha(X, beta=2.0), X + 1)


def test_attribute_of_the_wrong_type():
    @script()
    def shift(x: FLOAT[2, 3], k: int = 1) -> FLOAT[2, 3]:
        return x + op.Cast(k, to=FLOAT.dtype)

    with pytest.raises(TypeError, match=r"shift\(\): attribute 'k'.*int"):
        shift(X, k="three")


def test_truthiness_of_a_non_scalar_tensor_is_an_error():
    @script()
    def branchy(x: FLOAT[2, 3]) -> FLOAT[2, 3]:
        if x > 0:
            return x
        return -x

    with pytest.raises(ValueError, match="truth value of a tensor with 6 elements"):
        branchy(X)
