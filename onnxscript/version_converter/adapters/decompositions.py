"""Ops newer than the target opset (or whose older version is deprecated) written with
older ops: Gelu (20), ConstantOfShape (9), GroupNormalization-21 (18 is deprecated)."""

from __future__ import annotations

import math

import numpy as np
import onnx_ir as ir

from onnxscript.version_converter._context import Adapter, Rewrite
from onnxscript.version_converter.adapters._tables import Table


def _gelu(rewrite: Rewrite) -> None:
    """0.5 x (1 + erf(x / sqrt 2)), or with tanh: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715
    x^3)))."""
    x = rewrite.input(0)
    dtype = rewrite.required_dtype(x)

    def const(value: float) -> ir.Value:
        return rewrite.const(value, dtype)

    if rewrite.attr("approximate", "none") == "tanh":
        cube = rewrite.op1("Mul", [rewrite.op1("Mul", [x, x]), x])
        inner = rewrite.op1("Add", [x, rewrite.op1("Mul", [cube, const(0.044715)])])
        scaled = rewrite.op1("Mul", [inner, const(math.sqrt(2 / math.pi))])
        curve = rewrite.op1("Tanh", [scaled])
    else:
        curve = rewrite.op1("Erf", [rewrite.op1("Div", [x, const(math.sqrt(2))])])
    shifted = rewrite.op1("Add", [curve, const(1.0)])
    half = rewrite.op1("Mul", [x, const(0.5)])
    rewrite.replace_outputs([rewrite.op1("Mul", [half, shifted])])


def _constant_of_shape(rewrite: Rewrite) -> None:
    """Tile of the one value reshaped to [1, ..., 1] (as many ones as the shape has
    entries: shape * 0 + 1)."""
    shape = rewrite.input(0)
    value = rewrite.attr("value")
    array = np.zeros(1, np.float32) if value is None else value.numpy().reshape(1)
    ones = rewrite.op1(
        "Add",
        [rewrite.op1("Mul", [shape, rewrite.const([0], np.int64)]), rewrite.const([1], np.int64)],
    )
    single = rewrite.op1("Reshape", [rewrite.const(array), ones])
    rewrite.replace_outputs([rewrite.op1("Tile", [single, shape])])


def _group_normalization(rewrite: Rewrite) -> None:
    """GroupNormalization-21 (GroupNormalization-18 is deprecated): statistics over
    [N, groups, -1], then scale and bias per channel over [N, C, -1]."""
    x, scale, bias = rewrite.node.inputs[:3]
    groups = int(rewrite.attr("num_groups"))
    dtype = rewrite.required_dtype(x)
    stash = rewrite.attr("stash_type", 1) == 1 and dtype != ir.DataType.FLOAT
    source = rewrite.op1("Cast", [x], {"to": ir.DataType.FLOAT}) if stash else x
    grouped = rewrite.op1("Reshape", [source, rewrite.const([0, groups, -1], np.int64)])
    mean = rewrite.op1("ReduceMean", [grouped, rewrite.const([2], np.int64)], {"keepdims": 1})
    centered = rewrite.op1("Sub", [grouped, mean])
    square = rewrite.op1("Mul", [centered, centered])
    var = rewrite.op1("ReduceMean", [square, rewrite.const([2], np.int64)], {"keepdims": 1})
    epsilon = rewrite.const(rewrite.attr("epsilon", 1e-5), ir.DataType.FLOAT if stash else dtype)
    deviation = rewrite.op1("Sqrt", [rewrite.op1("Add", [var, epsilon])])
    normalized = rewrite.op1("Div", [centered, deviation])
    if stash:
        normalized = rewrite.op1("Cast", [normalized], {"to": dtype})
    channels = rewrite.op1("Reshape", [normalized, rewrite.const([0, -1, 1], np.int64)])
    per_channel = rewrite.op1("Reshape", [channels, _batch_channels(rewrite, x)])
    column = rewrite.const([-1, 1], np.int64)
    scaled = rewrite.op1("Mul", [per_channel, rewrite.op1("Reshape", [scale, column])])
    shifted = rewrite.op1("Add", [scaled, rewrite.op1("Reshape", [bias, column])])
    result = rewrite.op1("Reshape", [shifted, rewrite.op1("Shape", [x])])
    rewrite.replace_outputs([result])


def _batch_channels(rewrite: Rewrite, x: ir.Value | None) -> ir.Value:
    """[N, C, -1] for ``x`` of shape [N, C, ...]."""
    leading = rewrite.op1("Shape", [x], {"start": 0, "end": 2})
    return rewrite.op1("Concat", [leading, rewrite.const([-1], np.int64)], {"axis": 0})


ADAPTERS: Table = {
    ("Gelu", 20, 19): Adapter(_gelu, "written with Erf (or Tanh for approximate='tanh')"),
    ("ConstantOfShape", 9, 8): Adapter(
        _constant_of_shape, "written as Tile of the value reshaped to [1, ..., 1]"
    ),
    ("GroupNormalization", 21, 18): Adapter(
        _group_normalization,
        "written with Reshape/ReduceMean/Sub/Div/Sqrt/Mul/Add (GroupNormalization-18 is"
        " deprecated)",
    ),
}

__all__ = ["ADAPTERS"]
