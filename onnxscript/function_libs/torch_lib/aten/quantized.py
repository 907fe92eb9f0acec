"""torch's decomposed quantization ops (``quantized_decomposed::``), which PT2E and FX
reference quantization leave around each quantized op: written as ONNX QuantizeLinear /
DequantizeLinear (a QDQ model) where ONNX has the integer type, else as torch's formula.

torch quantizes as ``round(x * (1 / scale))`` while ONNX divides, ``round(x / scale)``:
the two differ by one step where ``x / scale`` lies within a rounding error of a half
(a few elements in a million)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.constants import typed_constant
from onnxscript.function_libs.torch_lib.helpers.facts import element_type, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import is_static
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import TFloat, TIntOrUInt8

FLOAT = ir.DataType.FLOAT

_QDQ_TYPES = (ir.DataType.UINT8, ir.DataType.INT8)
"""The integer types of QuantizeLinear / DequantizeLinear at opset 18."""

_BOUNDS = {
    ir.DataType.UINT8: (0, 255),
    ir.DataType.INT8: (-128, 127),
    ir.DataType.UINT16: (0, 2**16 - 1),
    ir.DataType.INT16: (-(2**15), 2**15 - 1),
    ir.DataType.INT32: (-(2**31), 2**31 - 1),
}


def _typed(value: Any, dtype: ir.DataType) -> Any:
    """A number as a constant of ``dtype``; a tensor cast to it (unless it has it)."""
    if is_static(value):
        number = int(value) if dtype.is_integer() else float(value)
        return typed_constant(number, dtype)
    if element_type(value) == dtype:
        return value
    return op.Cast(value, to=dtype)


def _scalar(value: Any, dtype: ir.DataType) -> Any:
    """A per-tensor parameter as a rank-0 value of ``dtype`` (torch's may be ``[1]``)."""
    typed = _typed(value, dtype)
    if is_static(value) or (value.shape is not None and rank(value) == 0):
        return typed
    return op.Reshape(typed, op.Constant(value_ints=[]))


def _along(value: Any, axis: int, count: int) -> Any:
    """A per-channel vector shaped to broadcast along ``axis`` of a rank-``count`` tensor."""
    others = [a for a in range(count) if a != axis]
    return op.Unsqueeze(value, others) if others else value


def _full_range(quant_min: Any, quant_max: Any, dtype: ir.DataType) -> bool:
    return (
        is_static(quant_min)
        and is_static(quant_max)
        and (quant_min, quant_max) == _BOUNDS.get(dtype)
    )


def _quantize(
    input: Any,
    scale: Any,
    zero_point: Any,
    quant_min: Any,
    quant_max: Any,
    dtype: int,
    axis: int | None = None,
) -> Any:
    """``clamp(round(x / scale) + zero_point, quant_min, quant_max)`` as ``dtype``;
    ``axis`` for one scale and zero point per channel."""
    target = ir.DataType(dtype)
    x = _typed(input, FLOAT)
    count = rank(input)
    if axis is not None:
        axis = axis % count
    if target in _QDQ_TYPES:
        if axis is None:
            scale_value, zero = _scalar(scale, FLOAT), _scalar(zero_point, target)
            result = op.QuantizeLinear(x, scale_value, zero)
        else:
            scale_value, zero = _typed(scale, FLOAT), _typed(zero_point, target)
            result = op.QuantizeLinear(x, scale_value, zero, axis=axis)
        if _full_range(quant_min, quant_max, target):
            return result
        return op.Clip(result, _scalar(quant_min, target), _scalar(quant_max, target))
    # No ONNX type: torch's own arithmetic, in float.
    if axis is None:
        inverse = (
            typed_constant(1.0 / scale, FLOAT)
            if is_static(scale)
            else op.Reciprocal(_scalar(scale, FLOAT))
        )
        zero = _scalar(zero_point, FLOAT)
    else:
        inverse = _along(op.Reciprocal(_typed(scale, FLOAT)), axis, count)
        zero = _along(_typed(zero_point, FLOAT), axis, count)
    shifted = op.Add(op.Round(op.Mul(x, inverse)), zero)
    clamped = op.Clip(shifted, _scalar(quant_min, FLOAT), _scalar(quant_max, FLOAT))
    return op.Cast(clamped, to=target)


def _dequantize(
    input: Any, scale: Any, zero_point: Any, out_dtype: int, axis: int | None = None
) -> Any:
    """``(x - zero_point) * scale`` in float (``out_dtype``: -1 for float32);
    ``zero_point`` None for 0."""
    source = element_type(input)
    count = rank(input)
    if axis is not None:
        axis = axis % count
    out = FLOAT if out_dtype in (-1, None) else ir.DataType(out_dtype)
    if source in _QDQ_TYPES and out == FLOAT:
        if axis is None:
            zero = None if zero_point is None else _scalar(zero_point, source)
            return op.DequantizeLinear(input, _scalar(scale, FLOAT), zero)
        zero = None if zero_point is None else _typed(zero_point, source)
        return op.DequantizeLinear(input, _typed(scale, FLOAT), zero, axis=axis)
    if axis is None:  # torch: x.to(out_dtype) - zero_point, then * scale (a float)
        shifted = op.Cast(input, to=out)
        if zero_point is not None:
            shifted = op.Sub(shifted, _scalar(zero_point, out))
        wide = ir.DataType.DOUBLE if out == ir.DataType.DOUBLE else FLOAT
        product = op.Mul(_typed(shifted, wide), _scalar(scale, wide))
        return product if out == wide else op.Cast(product, to=out)
    # torch: (x - zero_points) in integers, then * scales
    shifted = input
    if zero_point is not None:
        shifted = op.Sub(
            _typed(input, ir.DataType.INT64),
            _along(_typed(zero_point, ir.DataType.INT64), axis, count),
        )
    product = op.Mul(op.Cast(shifted, to=FLOAT), _along(_typed(scale, FLOAT), axis, count))
    return product if out == FLOAT else op.Cast(product, to=out)


@aten("quantized_decomposed::quantize_per_tensor")
def quantize_per_tensor(
    input: TFloat, scale: float, zero_point: int, quant_min: int, quant_max: int, dtype: int
) -> TIntOrUInt8:
    """quantized_decomposed::quantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, int quant_max, ScalarType dtype) -> Tensor"""
    return _quantize(input, scale, zero_point, quant_min, quant_max, dtype)


@aten("quantized_decomposed::quantize_per_tensor.tensor")
def quantize_per_tensor_tensor(
    input: TFloat,
    scale: TFloat,
    zero_point: TIntOrUInt8,
    quant_min: int,
    quant_max: int,
    dtype: int,
) -> TIntOrUInt8:
    """quantized_decomposed::quantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, int quant_min, int quant_max, ScalarType dtype) -> Tensor"""
    return _quantize(input, scale, zero_point, quant_min, quant_max, dtype)


@aten("quantized_decomposed::quantize_per_tensor.tensor2")
def quantize_per_tensor_tensor2(
    input: TFloat,
    scale: TFloat,
    zero_point: TIntOrUInt8,
    quant_min: TIntOrUInt8,
    quant_max: TIntOrUInt8,
    dtype: int,
) -> TIntOrUInt8:
    """quantized_decomposed::quantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, Tensor quant_min, Tensor quant_max, ScalarType dtype) -> Tensor"""
    return _quantize(input, scale, zero_point, quant_min, quant_max, dtype)


@aten("quantized_decomposed::dequantize_per_tensor")
def dequantize_per_tensor(
    input: TIntOrUInt8,
    scale: float,
    zero_point: int,
    quant_min: int,
    quant_max: int,
    dtype: int,
    *,
    out_dtype: int = -1,
) -> TFloat:
    """quantized_decomposed::dequantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor"""
    return _dequantize(input, scale, zero_point, out_dtype)


@aten("quantized_decomposed::dequantize_per_tensor.tensor")
def dequantize_per_tensor_tensor(
    input: TIntOrUInt8,
    scale: TFloat,
    zero_point: TIntOrUInt8,
    quant_min: int,
    quant_max: int,
    dtype: int,
    *,
    out_dtype: int = -1,
) -> TFloat:
    """quantized_decomposed::dequantize_per_tensor.tensor(Tensor input, Tensor scale, Tensor zero_point, int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor"""
    return _dequantize(input, scale, zero_point, out_dtype)


@aten("quantized_decomposed::dequantize_per_tensor.tensor2")
def dequantize_per_tensor_tensor2(
    input: TIntOrUInt8,
    scale: TFloat,
    zero_point: TIntOrUInt8,
    quant_min: TIntOrUInt8,
    quant_max: TIntOrUInt8,
    dtype: int,
    *,
    out_dtype: int = -1,
) -> TFloat:
    """quantized_decomposed::dequantize_per_tensor.tensor2(Tensor input, Tensor scale, Tensor zero_point, Tensor quant_min, Tensor quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor"""
    return _dequantize(input, scale, zero_point, out_dtype)


@aten("quantized_decomposed::quantize_per_channel")
def quantize_per_channel(
    input: TFloat,
    scales: TFloat,
    zero_points: TIntOrUInt8,
    axis: int,
    quant_min: int,
    quant_max: int,
    dtype: int,
) -> TIntOrUInt8:
    """quantized_decomposed::quantize_per_channel(Tensor input, Tensor scales, Tensor zero_points, int axis, int quant_min, int quant_max, ScalarType dtype) -> Tensor"""
    return _quantize(input, scales, zero_points, quant_min, quant_max, dtype, axis)


@aten("quantized_decomposed::dequantize_per_channel")
def dequantize_per_channel(
    input: TIntOrUInt8,
    scales: TFloat,
    zero_points: TIntOrUInt8 | None,
    axis: int,
    quant_min: int,
    quant_max: int,
    dtype: int,
    *,
    out_dtype: int = -1,
) -> TFloat:
    """quantized_decomposed::dequantize_per_channel(Tensor input, Tensor scales, Tensor? zero_points, int axis, int quant_min, int quant_max, ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor"""
    return _dequantize(input, scales, zero_points, out_dtype, axis)


__all__ = [
    "dequantize_per_channel",
    "dequantize_per_tensor",
    "dequantize_per_tensor_tensor",
    "dequantize_per_tensor_tensor2",
    "quantize_per_channel",
    "quantize_per_tensor",
    "quantize_per_tensor_tensor",
    "quantize_per_tensor_tensor2",
]
