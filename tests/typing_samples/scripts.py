"""Script functions as users write them: shaped annotations, Python operators, op calls,
attribute parameters, loops (over ranges and over rows), optional inputs, indexing, numpy
constants, type aliases, one script function calling another."""

from typing import Optional

import numpy as np

from onnxscript import BOOL, DOUBLE, FLOAT, INT64, UINT64, script
from onnxscript import opset18 as op

Rows = FLOAT["N", 4]
"""A type alias with a symbolic dimension."""

OFFSET = np.array([1.0, 2.0, 3.0, 4.0], dtype=np.float32)


@script()
def linear(x: FLOAT["N", 4], w: FLOAT[4, 3], b: FLOAT[3]) -> FLOAT["N", 3]:
    """A linear layer."""
    return op.MatMul(x, w) + b


@script()
def leaky_relu(x: FLOAT["N"], alpha: float = 0.1) -> FLOAT["N"]:
    return op.Where(x > 0.0, x, x * alpha)


@script()
def arithmetic(x: FLOAT["N"], w: FLOAT["N"]) -> FLOAT["N"]:
    y = x * 2.0 + w - 1
    z = -y / (w**2 + 1.0)
    return +z % 3.0 + 2 * x - 1.5 / w


@script()
def weighted_sum(x: FLOAT, n: INT64) -> FLOAT:
    total = x
    for i in range(n):
        total = total + op.Cast(i, to=FLOAT.dtype) * x
    return total


@script()
def masks(a: BOOL["N"], b: BOOL["N"]) -> BOOL["N"]:
    return (a & b) | (a ^ ~b)


@script()
def integers(i: INT64["N"], j: INT64["N"]) -> INT64["N"]:
    return (i // 2 - j) % 3 & ~j


@script()
def shifts(u: UINT64["N"], v: UINT64["N"]) -> UINT64["N"]:
    return (u << v) >> 1 | v


@script()
def clipped(x: FLOAT["N"], low: float = 0.0) -> BOOL["N"]:
    y = op.Clip(x, op.Constant(value_float=low))
    return (y >= 1.0) == (x < 2)


@script()
def layer(x: FLOAT["N", 4], w: FLOAT[4, 3], b: FLOAT[3]) -> FLOAT["N", 3]:
    return op.Relu(linear(x, w, b))


@script()
def clamp_below(x: FLOAT["N"], low: FLOAT["N"] | None = None) -> FLOAT["N"]:
    if low is None:
        y = op.Identity(x)
    else:
        y = op.Max(x, low)
    return y


@script()
def clamp_above(x: FLOAT["N"], high: Optional[FLOAT["N"]] = None) -> FLOAT["N"]:
    if high is not None:
        return op.Min(x, high)
    return x - x[0]


@script()
def shifted_row_sum(x: Rows) -> FLOAT[4]:
    total = x[0] * 0.0
    for row in x:
        total = total + row + OFFSET
    return total


@script()
def any_float(x: FLOAT["N"] | DOUBLE["N"]) -> FLOAT["N"] | DOUBLE["N"]:
    """A union of tensor types: ops on it give the union back."""
    y = op.Relu(x)
    first, second = op.Split(op.Concat(y, y, axis=0), num_outputs=2)
    values, _ = op.TopK(first, op.Constant(value_ints=[1]))
    return op.Where(x > 0.0, second * 2.0, op.CastLike(1.0, values))


@script()
def biased(x: FLOAT["N"], bias: FLOAT = op.Constant(value_float=0.5)) -> FLOAT["N"]:  # noqa: B008
    """A tensor default: an optional input filled with the default when left out."""
    return op.Add(x, bias)
