"""Op calls of every kind: optional inputs, inputs by keyword, variadic inputs, several
outputs, attributes with defaults, fixed output types."""

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op


@script()
def shape_of(x: FLOAT["N", "M"]) -> INT64[2]:
    return op.Shape(x)


@script()
def resize(x: FLOAT["N", "C", "H", "W"], scales: FLOAT[4]) -> FLOAT["N", "C", "H2", "W2"]:
    return op.Resize(x, None, scales, mode="linear")


@script()
def clip_above(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Clip(x, max=op.Constant(value_float=6.0))


@script()
def concat(a: FLOAT["N"], b: FLOAT["M"]) -> FLOAT["L"]:
    return op.Concat(a, b, a, axis=0)


@script()
def top2(x: FLOAT["N"]) -> tuple[FLOAT[2], INT64[2]]:
    values, indices = op.TopK(x, [2])
    return values, indices


@script()
def halves(x: FLOAT["N"]) -> FLOAT["M"]:
    first, second = op.Split(x, num_outputs=2)
    return op.Sub(first, second)


@script()
def softmax_sum(x: FLOAT["N", "C"]) -> FLOAT["N"]:
    probabilities = op.Softmax(x)
    return op.ReduceSum(probabilities, [1], keepdims=0)


@script()
def to_int(x: FLOAT["N"]) -> INT64["N"]:
    return op.Cast(op.Floor(x), to=INT64)
