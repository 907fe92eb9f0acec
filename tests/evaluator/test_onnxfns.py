"""Script re-implementations of ONNX ops, checked on the ONNX backend node test cases of
those ops: eager result == compiled result == the case's expected output.

Like the ``onnxfns`` functions of the existing package, they take attributes with the
schema's defaults, so each case's node attributes are passed as keyword arguments.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import onnx
import onnx.helper
import pytest

from onnxscript import FLOAT, INT64, opset19, script
from onnxscript import opset18 as op
from onnxscript.testing import assert_eager_matches_compiled, assert_same_values
from onnxscript.values import OnnxFunction


@script()
def Relu(X: FLOAT[...]) -> FLOAT[...]:
    return op.Max(X, op.CastLike(0, X))


@script()
def Selu(
    X: FLOAT[...],
    alpha: float = 1.67326319217681884765625,
    gamma: float = 1.05070102214813232421875,
) -> FLOAT[...]:
    negative = gamma * (alpha * op.Exp(X) - alpha)
    return op.Where(X <= 0, negative, gamma * X)


@script()
def Elu(X: FLOAT[...], alpha: float = 1.0) -> FLOAT[...]:
    return op.Where(X < 0, alpha * (op.Exp(X) - 1.0), X)


@script()
def LeakyRelu(X: FLOAT[...], alpha: float = 0.01) -> FLOAT[...]:
    return op.Where(X < 0, alpha * X, X)


@script()
def ThresholdedRelu(X: FLOAT[...], alpha: float = 1.0) -> FLOAT[...]:
    return op.Where(alpha < X, X, op.CastLike(0, X))


@script()
def HardSigmoid(X: FLOAT[...], alpha: float = 0.2, beta: float = 0.5) -> FLOAT[...]:
    return op.Max(op.CastLike(0, X), op.Min(op.CastLike(1, X), alpha * X + beta))


@script()
def Softsign(X: FLOAT[...]) -> FLOAT[...]:
    return X / (1.0 + op.Abs(X))


@script()
def Hardmax(X: FLOAT[...], axis: int = -1) -> FLOAT[...]:
    best = op.ArgMax(X, axis=axis, keepdims=0)
    depth = op.Shape(X)[axis]
    return op.CastLike(op.OneHot(best, depth, [0, 1], axis=axis), X)


@script()
def ReduceL2(data: FLOAT[...], axes: INT64[...], keepdims: int = 1) -> FLOAT[...]:
    return op.Sqrt(op.ReduceSumSquare(data, axes, keepdims=keepdims))


@script()
def DepthToSpace(input: FLOAT[...], blocksize: int, mode: str = "DCR") -> FLOAT[...]:
    shape = opset19.Shape(input)
    b, c, h, w = shape[0:1], shape[1:2], shape[2:3], shape[3:4]
    size = opset19.Reshape(blocksize, [1])
    depth = c / (size * size)
    if mode == "DCR":
        split = opset19.Reshape(input, opset19.Concat(b, size, size, depth, h, w, axis=0))
        moved = opset19.Transpose(split, perm=[0, 3, 4, 1, 5, 2])
    else:
        split = opset19.Reshape(input, opset19.Concat(b, depth, size, size, h, w, axis=0))
        moved = opset19.Transpose(split, perm=[0, 1, 4, 2, 5, 3])
    return opset19.Reshape(moved, opset19.Concat(b, depth, h * size, w * size, axis=0))


FUNCTIONS: dict[str, OnnxFunction] = {
    f.name: f
    for f in (Relu, Selu, Elu, LeakyRelu, ThresholdedRelu, HardSigmoid, Softsign, Hardmax,
              ReduceL2, DepthToSpace)
}  # fmt: skip


def _cases() -> list[Any]:
    import onnx.backend.test.case.node as node_cases

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases = node_cases.collect_testcases(None)
    return [
        c
        for c in cases
        if c.kind == "node"
        and len(c.model.graph.node) == 1
        and c.model.graph.node[0].op_type in FUNCTIONS
        and not c.name.endswith("_empty_set")  # a zero-size axis: not an op re-implementation issue
    ]


CASES = _cases()


def _type(value: np.ndarray) -> Any:
    dtype = onnx.helper.np_dtype_to_tensor_dtype(value.dtype)
    from onnxscript.onnx_types import TensorType

    base = next(t for t in TensorType.__subclasses__() if t.dtype == dtype)
    return base[value.shape]  # type: ignore[index]


def test_every_reimplemented_op_has_cases():
    assert {c.model.graph.node[0].op_type for c in CASES} == set(FUNCTIONS)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_reimplementation_matches_the_node_test(case: Any) -> None:
    node = case.model.graph.node[0]
    fn = FUNCTIONS[node.op_type]
    attrs = {}
    for attr in node.attribute:
        value = onnx.helper.get_attribute_value(attr)
        attrs[attr.name] = value.decode() if isinstance(value, bytes) else value
    for inputs, expected in case.data_sets:
        options = {
            "input_types": [_type(np.asarray(v)) for v in inputs],
            "output_types": [_type(np.asarray(v)) for v in expected],
        }
        eager, _ = assert_eager_matches_compiled(
            fn, *inputs, rtol=1e-5, atol=1e-6, model_options=options, **attrs
        )
        assert_same_values(eager, expected, rtol=max(case.rtol, 1e-5), atol=max(case.atol, 1e-6))
