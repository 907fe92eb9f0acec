"""A ``while`` condition known to be a scalar enters the ``Loop`` as is; one of unknown rank
is reshaped to a scalar first. Either way the compiled loop runs as Python does."""

from __future__ import annotations

import numpy as np

from onnxscript import BOOL, FLOAT, INT64, script
from onnxscript import opset18 as op
from tests.helpers import assert_close, assert_matches_python, checked_model, run_model


def _ops(fn) -> list[str]:
    return [n.op_type for n in checked_model(fn).graph.node]


def test_scalar_bool_input_is_the_condition():
    @script()
    def f(x: FLOAT, go: BOOL) -> FLOAT:
        while go:
            x = x + 7.0
            go = x < 50.0
        return x

    assert _ops(f) == ["Loop"]
    assert_matches_python(f, (np.float32(1.0), np.bool_(True)), (np.float32(1.0), np.bool_(False)))


def test_comparison_of_scalars_is_not_reshaped():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        i = 0
        while i < n:
            x = x * 2.0
            i = i + 1
        return x

    assert _ops(f) == ["Constant", "Less", "Loop"]
    assert_matches_python(f, (np.float32(1.0), np.int64(3)), (np.float32(1.0), np.int64(0)))


def test_full_reduction_without_kept_dims_is_a_scalar():
    @script()
    def f(x: FLOAT["N"]) -> FLOAT["N"]:
        go = op.ReduceSum(x, keepdims=0) < 100.0
        while go:
            x = op.Add(x, x)
            go = op.ReduceSum(x, keepdims=0) < 100.0
        return x

    assert "Reshape" not in _ops(f)
    x = np.ones(3, np.float32)
    assert_close(run_model(checked_model(f), x), [x * 64])


def test_condition_of_unknown_rank_is_reshaped():
    @script()
    def f(x: FLOAT["N"]) -> FLOAT["N"]:
        go = op.ReduceSum(x) < 100.0  # keepdims=1: shape [1]
        while go:
            x = op.Add(x, x)
            go = op.ReduceSum(x) < 100.0
        return x

    ops = _ops(f)
    assert ops.index("Reshape") == ops.index("Loop") - 1
    x = np.ones(3, np.float32)
    assert_close(run_model(checked_model(f), x), [x * 64])


def test_unannotated_condition_is_reshaped():
    @script()
    def f(x: FLOAT["N"], go) -> FLOAT["N"]:
        while go:
            x = op.Add(x, x)
            go = op.ReduceSum(x, keepdims=0) < 100.0
        return x

    model = f.to_model_proto(input_types=[None, BOOL[1]])
    assert "Reshape" in [n.op_type for n in model.graph.node]
    x = np.ones(3, np.float32)
    assert_close(run_model(model, x, np.array([True])), [x * 64])
