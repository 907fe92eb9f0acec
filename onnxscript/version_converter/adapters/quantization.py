"""QuantizeLinear and DequantizeLinear: per-axis scales (13), float8 and new scale types
(19), blocked quantization and output_dtype (21), precision and output_dtype (23). Going
down, a node must not use what the older version lacks; element types are checked."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir

from onnxscript.version_converter._context import Adapt, Rewrite, nothing
from onnxscript.version_converter.adapters._tables import (
    Table,
    chain,
    default_only,
    equals,
    step,
)


def _per_tensor(rewrite: Rewrite) -> None:
    dims = rewrite.dims(rewrite.input(1))
    if dims is None or (dims and dims != [1]):
        rewrite.fail("per-axis scales (or a scale of unknown shape) need version 13")
    rewrite.drop_attr("axis")


def _as_scale_type(name: str) -> Adapt:
    """Attribute ``name`` (an element type) dropped when it is the scale's type."""

    def apply(rewrite: Rewrite) -> None:
        value = rewrite.attr(name, 0)
        rewrite.drop_attr(name)
        if value and value != rewrite.dtype(rewrite.input(1)):
            rewrite.fail(f"{name}={value} differs from the scale's element type")

    return apply


def _output_dtype_as_zero_point(rewrite: Rewrite) -> None:
    """QuantizeLinear-21's output_dtype, without a zero point: a zero point of that type."""
    value = rewrite.attr("output_dtype", 0)
    rewrite.drop_attr("output_dtype")
    if not value or rewrite.input(2) is not None or value == ir.DataType.UINT8:
        return
    dims = rewrite.dims(rewrite.input(1))
    if dims is None or any(d is None for d in dims):
        rewrite.fail("output_dtype without a zero point needs a scale of known shape")
    zeros = np.zeros([d or 0 for d in dims], ir.DataType(value).numpy())
    rewrite.set_input(2, rewrite.const(zeros))


_NO_BLOCKS = default_only("block_size", equals(0))

ADAPTERS: Table = {}
for _op in ("QuantizeLinear", "DequantizeLinear"):
    ADAPTERS |= step(
        _op,
        13,
        nothing,
        _per_tensor,
        "unchanged (per-axis scales allowed)",
        "the scale must be per-tensor; axis dropped",
    )
ADAPTERS |= step(
    "QuantizeLinear",
    19,
    nothing,
    default_only("saturate", lambda value: True),
    "unchanged (float8 outputs and new scale types)",
    "saturate dropped (float8 only); element types checked",
)
ADAPTERS |= step(
    "DequantizeLinear",
    19,
    nothing,
    nothing,
    "unchanged (float8 inputs and new scale types)",
    "element types checked",
)
ADAPTERS |= step(
    "QuantizeLinear",
    21,
    nothing,
    chain(_NO_BLOCKS, _output_dtype_as_zero_point),
    "unchanged (blocked quantization, output_dtype)",
    "block_size must be 0; output_dtype becomes a zero point of that type",
)
ADAPTERS |= step(
    "DequantizeLinear",
    21,
    nothing,
    _NO_BLOCKS,
    "unchanged (blocked quantization)",
    "block_size must be 0",
)
ADAPTERS |= step(
    "QuantizeLinear",
    23,
    nothing,
    _as_scale_type("precision"),
    "unchanged (precision attribute, scale type of its own)",
    "precision must be the scale's type; element types checked",
)
ADAPTERS |= step(
    "DequantizeLinear",
    23,
    nothing,
    _as_scale_type("output_dtype"),
    "unchanged (output_dtype attribute)",
    "output_dtype must be the scale's type",
)

__all__ = ["ADAPTERS"]
