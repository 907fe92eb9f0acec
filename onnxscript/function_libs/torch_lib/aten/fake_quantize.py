"""Fake quantization: values rounded to a quantized grid and back, in floating point.

torch computes ``(clamp(zero_point + round(x * (1 / scale)), quant_min, quant_max) -
zero_point) * scale`` with round half to even (ONNX Round's rounding) and a range that
need not be an 8-bit type's, which QuantizeLinear/DequantizeLinear (saturating to their
type's range, dividing by the scale) do not give exactly: the arithmetic is written out.
A floating zero point (per-channel only) is added before rounding, as torch does."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.constants import int64_constant
from onnxscript.function_libs.torch_lib.helpers.facts import element_type, is_floating, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import is_static, scalar_like
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import TAnyTensor, TFloat


def _fake_quantize(
    self: Any, scale: Any, inv_scale: Any, zero_point: Any, zero_is_floating: bool, bounds: Any
) -> Any:
    """The rounding and clamping; ``scale``, ``inv_scale`` and ``zero_point`` in
    ``self``'s element type, ``bounds`` (quant_min, quant_max) as Python ints."""
    scaled = op.Mul(self, inv_scale)
    if zero_is_floating:
        quantized = op.Round(op.Add(scaled, zero_point))
    else:
        quantized = op.Add(op.Round(scaled), zero_point)
    low, high = (scalar_like(float(bound), self) for bound in bounds)
    return op.Mul(op.Sub(op.Clip(quantized, low, high), zero_point), scale)


def _as_type_of(value: Any, like: Any) -> Any:
    """A tensor argument in ``like``'s element type (no Cast when it is already)."""
    dtype = element_type(like)
    if dtype is None:
        return op.CastLike(value, like)
    return value if element_type(value) == dtype else op.Cast(value, to=dtype)


@aten("aten::fake_quantize_per_tensor_affine")
def fake_quantize_per_tensor_affine(
    self: TFloat, scale: float, zero_point: int, quant_min: int, quant_max: int
) -> TFloat:
    """fake_quantize_per_tensor_affine(Tensor self, float scale, int zero_point, int quant_min, int quant_max) -> Tensor"""
    if is_static(scale):
        scale32 = np.float32(scale)  # torch's kernel takes the scale as a float
        inv_scale = scalar_like(float(np.float32(1.0) / scale32), self)
        scale_value = scalar_like(float(scale32), self)
    else:
        scale_value = scalar_like(scale, self)
        inv_scale = op.Reciprocal(scale_value)
    zero = scalar_like(zero_point, self)
    return _fake_quantize(self, scale_value, inv_scale, zero, False, (quant_min, quant_max))


@aten("aten::fake_quantize_per_tensor_affine.tensor_qparams")
def fake_quantize_per_tensor_affine_tensor_qparams(
    self: TFloat, scale: TFloat, zero_point: TAnyTensor, quant_min: int, quant_max: int
) -> TFloat:
    """fake_quantize_per_tensor_affine.tensor_qparams(Tensor self, Tensor scale, Tensor zero_point, int quant_min, int quant_max) -> Tensor

    The scale (float32) and zero point (int32) as one-element tensors.
    """
    scalar_shape = int64_constant([])
    scale_value = op.Reshape(scale, scalar_shape)
    inv_scale = _as_type_of(op.Reciprocal(scale_value), self)
    zero = _as_type_of(op.Reshape(zero_point, scalar_shape), self)
    return _fake_quantize(
        self, _as_type_of(scale_value, self), inv_scale, zero, False, (quant_min, quant_max)
    )


@aten("aten::fake_quantize_per_channel_affine")
def fake_quantize_per_channel_affine(
    self: TFloat, scale: TFloat, zero_point: TAnyTensor, axis: int, quant_min: int, quant_max: int
) -> TFloat:
    """fake_quantize_per_channel_affine(Tensor self, Tensor scale, Tensor zero_point, int axis, int quant_min, int quant_max) -> Tensor

    One scale and zero point per index of dim ``axis``.
    """
    trailing = rank(self) - 1 - (axis % rank(self))
    along = [-1] + [1] * trailing
    scale_value = op.Reshape(scale, along)
    inv_scale = _as_type_of(op.Reciprocal(scale_value), self)
    zero = _as_type_of(op.Reshape(zero_point, along), self)
    return _fake_quantize(
        self,
        _as_type_of(scale_value, self),
        inv_scale,
        zero,
        is_floating(zero_point),
        (quant_min, quant_max),
    )
