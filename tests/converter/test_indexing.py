"""Indexing and slicing compile to Slice/Gather/Unsqueeze and match numpy."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from tests.helpers import assert_close, checked_model, define, run_model

X = np.arange(60, dtype=np.float32).reshape(3, 4, 5)

CASES = [
    "x[0]",
    "x[-1]",
    "x[1:3]",
    "x[::2]",
    "x[::-1]",
    "x[-2:]",
    "x[:-1]",
    "x[2:0:-1]",
    "x[:, 1]",
    "x[:, -1]",
    "x[:, 1:3, ::2]",
    "x[1:3, ::2]",
    "x[..., 0]",
    "x[..., 1:3]",
    "x[1, ..., 2]",
    "x[0, 1, 2]",
    "x[-1, -2, -3]",
    "x[None]",
    "x[:, None]",
    "x[..., None]",
    "x[0, None, 1:3]",
    "x[:, ::-2, 4:0:-2]",
    "x[[0, 2]]",
    "x[:, [3, 1]]",
    "x[1:100]",
    "x[-100:2]",
]


@pytest.mark.parametrize("expr", CASES)
def test_indexing_matches_numpy(expr):
    source = f"def f(x: FLOAT[3, 4, 5]):\n    return {expr}\n"
    f = script()(define(source, {"FLOAT": FLOAT, "op": op}))
    expected = eval(expr, {"x": X})
    assert_close(run_model(checked_model(f), X), [expected])


def test_tensor_indices_and_bounds():
    @script()
    def f(x: FLOAT[3, 4, 5], i: INT64, j: INT64, k: INT64) -> FLOAT["A", "B"]:
        a = x[i]
        b = a[j:k]
        return b

    model = checked_model(f)
    for i, j, k in [(0, 1, 3), (2, -3, -1), (1, 0, 100)]:
        ii, jj, kk = (np.array(v, dtype=np.int64) for v in (i, j, k))
        assert_close(run_model(model, X, ii, jj, kk), [X[i][j:k]])


def test_computed_index_and_indexing_inside_expressions():
    @script()
    def f(x: FLOAT[3, 4, 5], i: INT64) -> FLOAT:
        last = op.Shape(x)[-1]
        return x[i + 1, 0, 0] * op.Cast(last, to=FLOAT.dtype)

    i = np.array(1, dtype=np.int64)
    assert_close(run_model(checked_model(f), X, i), [X[2, 0, 0] * 5])


def test_tensor_step_with_explicit_bounds():
    @script()
    def f(x: FLOAT[3, 4, 5], s: INT64) -> FLOAT["A", 4, 5]:
        return x[2:-4:s]

    s = np.array(-1, dtype=np.int64)
    assert_close(run_model(checked_model(f), X, s), [X[2:-4:-1]])


def test_one_slice_node_for_all_slices():
    @script()
    def f(x: FLOAT[3, 4, 5]) -> FLOAT[2, 2, 5]:
        return x[1:, ::2, :]

    ops = [n.op_type for n in f.to_function_proto().node]
    assert ops.count("Slice") == 1 and "Gather" not in ops
