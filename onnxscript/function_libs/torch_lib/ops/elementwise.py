"""Elementwise ATen operators: arithmetic, comparisons, activations, casts."""

from __future__ import annotations

import math
from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.ops.complex_layout import is_complex_dtype, real_to_complex
from onnxscript.function_libs.torch_lib.ops.facts import is_bool, is_integer
from onnxscript.function_libs.torch_lib.ops.sizes import scalar_like
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import BOOL, TFloat, TReal, TTensor


@aten("aten::add.Tensor", "aten::add.Scalar")
def add(self: TReal, other: TReal, alpha: float = 1.0) -> TReal:
    if alpha != 1:
        other = op.Mul(other, op.CastLike(alpha, other))
    return op.Add(self, other)


@aten("aten::sub.Tensor", "aten::sub.Scalar")
def sub(self: TReal, other: TReal, alpha: float = 1.0) -> TReal:
    if alpha != 1:
        other = op.Mul(other, op.CastLike(alpha, other))
    return op.Sub(self, other)


@aten("aten::rsub.Tensor", "aten::rsub.Scalar")
def rsub(self: TReal, other: TReal, alpha: float = 1.0) -> TReal:
    """``other - alpha * self``; a symbolic size given as ``other`` (``n - x``) is cast to
    ``self``'s type."""
    return sub(scalar_like(other, self), self, alpha=alpha)


@aten("aten::mul.Tensor", "aten::mul.Scalar")
def mul(self: TTensor, other: TTensor) -> TTensor:
    if is_bool(self):
        return op.And(self, other)
    return op.Mul(self, other)


@aten("aten::div.Tensor", "aten::div.Scalar")
def div(self: TFloat, other: TFloat) -> TFloat:
    return op.Div(self, other)


@aten("aten::div.Tensor_mode", "aten::div.Scalar_mode")
def div_mode(self: TReal, other: TReal, *, rounding_mode: str = "") -> TReal:
    # Optional attributes are written with a default of their own type (not Optional):
    # torch.onnx reads an Optional annotation as an input, and drops a None attribute.
    quotient = op.Div(self, other)
    if not rounding_mode or is_integer(self):
        if rounding_mode == "floor" and is_integer(self):
            return floor_divide_int(self, other)
        return quotient
    return op.Floor(quotient) if rounding_mode == "floor" else _trunc(quotient)


def _trunc(x: TFloat) -> TFloat:
    return op.Where(op.Less(x, op.CastLike(0, x)), op.Ceil(x), op.Floor(x))


def floor_divide_int(a: TReal, b: TReal) -> TReal:
    """Integer division rounding toward minus infinity (ONNX Div truncates): ``a - a % b``
    (Mod takes the divisor's sign, as Python's %) is a multiple of ``b``, so dividing it
    is exact."""
    return op.Div(op.Sub(a, op.Mod(a, b)), b)


@aten("aten::floor_divide")
def floor_divide(self: TReal, other: TReal) -> TReal:
    if is_integer(self):
        return floor_divide_int(self, other)
    return op.Floor(op.Div(self, other))


@aten("aten::remainder.Tensor", "aten::remainder.Scalar")
def remainder(self: TReal, other: TReal) -> TReal:
    if is_integer(self):
        return op.Mod(self, other)  # fmod=0: the sign of the divisor, like Python
    return op.Sub(self, op.Mul(op.Floor(op.Div(self, other)), other))


@aten("aten::fmod.Tensor", "aten::fmod.Scalar")
def fmod(self: TReal, other: TReal) -> TReal:
    return op.Mod(self, other, fmod=1)


@aten("aten::pow.Tensor_Tensor", "aten::pow.Tensor_Scalar")
def pow_(self: TReal, exponent: TReal) -> TReal:
    return op.Pow(self, exponent)


@aten("aten::pow.Scalar")
def pow_scalar(self: float, exponent: TReal) -> TReal:
    return op.Pow(op.CastLike(self, exponent), exponent)


@aten("aten::neg")
def neg(self: TReal) -> TReal:
    return op.Neg(self)


@aten("aten::abs")
def abs_(self: TReal) -> TReal:
    return op.Abs(self)


@aten("aten::exp")
def exp(self: TFloat) -> TFloat:
    return op.Exp(self)


@aten("aten::log")
def log(self: TFloat) -> TFloat:
    return op.Log(self)


@aten("aten::sqrt")
def sqrt(self: TFloat) -> TFloat:
    return op.Sqrt(self)


@aten("aten::rsqrt")
def rsqrt(self: TFloat) -> TFloat:
    return op.Reciprocal(op.Sqrt(self))


@aten("aten::reciprocal")
def reciprocal(self: TFloat) -> TFloat:
    return op.Reciprocal(self)


@aten("aten::sin")
def sin(self: TFloat) -> TFloat:
    return op.Sin(self)


@aten("aten::cos")
def cos(self: TFloat) -> TFloat:
    return op.Cos(self)


@aten("aten::tanh")
def tanh(self: TFloat) -> TFloat:
    return op.Tanh(self)


@aten("aten::sigmoid")
def sigmoid(self: TFloat) -> TFloat:
    return op.Sigmoid(self)


@aten("aten::erf")
def erf(self: TFloat) -> TFloat:
    return op.Erf(self)


@aten("aten::floor")
def floor(self: TFloat) -> TFloat:
    return op.Floor(self)


@aten("aten::ceil")
def ceil(self: TFloat) -> TFloat:
    return op.Ceil(self)


@aten("aten::trunc")
def trunc(self: TFloat) -> TFloat:
    return _trunc(self)


@aten("aten::round")
def round_(self: TFloat) -> TFloat:
    return op.Round(self)  # half to even, like torch


@aten("aten::sign", "aten::sgn")
def sign(self: TReal) -> TReal:
    return op.Sign(self)


@aten("aten::relu")
def relu(self: TReal) -> TReal:
    return op.Relu(self)


@aten("aten::gelu")
def gelu(self: TFloat, approximate: str = "none") -> TFloat:
    if approximate == "tanh":
        cube = op.Mul(op.Mul(self, self), self)
        inner = op.Mul(
            op.CastLike(math.sqrt(2 / math.pi), self),
            op.Add(self, op.Mul(op.CastLike(0.044715, self), cube)),
        )
        return op.Mul(
            op.Mul(op.CastLike(0.5, self), self), op.Add(op.Tanh(inner), op.CastLike(1.0, self))
        )
    half = op.CastLike(0.5, self)
    erf_part = op.Erf(op.Mul(self, op.CastLike(1 / math.sqrt(2), self)))
    return op.Mul(op.Mul(half, self), op.Add(erf_part, op.CastLike(1.0, self)))


@aten("aten::silu")
def silu(self: TFloat) -> TFloat:
    return op.Mul(self, op.Sigmoid(self))


@aten("aten::leaky_relu")
def leaky_relu(self: TFloat, negative_slope: float = 0.01) -> TFloat:
    return op.LeakyRelu(self, alpha=negative_slope)


@aten("aten::elu")
def elu(self: TFloat, alpha: float = 1.0, scale: float = 1.0, input_scale: float = 1.0) -> TFloat:
    scaled = op.Mul(self, op.CastLike(input_scale, self)) if input_scale != 1 else self
    result = op.Elu(scaled, alpha=alpha)
    return op.Mul(result, op.CastLike(scale, self)) if scale != 1 else result


@aten("aten::hardtanh")
def hardtanh(self: TFloat, min_val: float = -1.0, max_val: float = 1.0) -> TFloat:
    return op.Clip(self, op.CastLike(min_val, self), op.CastLike(max_val, self))


@aten("aten::hardswish")
def hardswish(self: TFloat) -> TFloat:
    return op.HardSwish(self)


@aten("aten::hardsigmoid")
def hardsigmoid(self: TFloat) -> TFloat:
    """torch's relu6(x + 3) / 6 is ONNX HardSigmoid with alpha 1/6 and beta 1/2."""
    return op.HardSigmoid(self, alpha=1 / 6, beta=0.5)


@aten("aten::mish")
def mish(self: TFloat) -> TFloat:
    return op.Mish(self)


@aten("aten::celu")
def celu(self: TFloat, alpha: float = 1.0) -> TFloat:
    return op.Celu(self, alpha=alpha)


@aten("aten::selu")
def selu(self: TFloat) -> TFloat:
    return op.Selu(self)  # ONNX's default alpha and gamma are torch's constants


@aten("aten::clamp", "aten::clamp.Tensor")
def clamp(self: TReal, min: TReal | None = None, max: TReal | None = None) -> TReal:
    result = self
    if min is not None:
        result = op.Max(result, op.CastLike(min, self))
    if max is not None:
        result = op.Min(result, op.CastLike(max, self))
    return result


@aten("aten::maximum", "aten::max.other")
def maximum(self: TReal, other: TReal) -> TReal:
    return op.Max(self, other)


@aten("aten::minimum", "aten::min.other")
def minimum(self: TReal, other: TReal) -> TReal:
    return op.Min(self, other)


@aten("aten::eq.Tensor", "aten::eq.Scalar")
def eq(self: TTensor, other: TTensor) -> BOOL:
    return op.Equal(self, other)


@aten("aten::ne.Tensor", "aten::ne.Scalar")
def ne(self: TTensor, other: TTensor) -> BOOL:
    return op.Not(op.Equal(self, other))


@aten("aten::lt.Tensor", "aten::lt.Scalar")
def lt(self: TReal, other: TReal) -> BOOL:
    return op.Less(self, other)


@aten("aten::le.Tensor", "aten::le.Scalar")
def le(self: TReal, other: TReal) -> BOOL:
    return op.LessOrEqual(self, other)


@aten("aten::gt.Tensor", "aten::gt.Scalar")
def gt(self: TReal, other: TReal) -> BOOL:
    return op.Greater(self, other)


@aten("aten::ge.Tensor", "aten::ge.Scalar")
def ge(self: TReal, other: TReal) -> BOOL:
    return op.GreaterOrEqual(self, other)


@aten("aten::logical_and")
def logical_and(self: BOOL, other: BOOL) -> BOOL:
    return op.And(_as_bool(self), _as_bool(other))


@aten("aten::logical_or")
def logical_or(self: BOOL, other: BOOL) -> BOOL:
    return op.Or(_as_bool(self), _as_bool(other))


@aten("aten::logical_not")
def logical_not(self: BOOL) -> BOOL:
    return op.Not(_as_bool(self))


@aten("aten::bitwise_not")
def bitwise_not(self: TTensor) -> TTensor:
    if is_bool(self):
        return op.Not(self)
    return op.BitwiseNot(self)


def _as_bool(x: Any) -> Any:
    return x if is_bool(x) else op.Cast(x, to=BOOL.dtype)


@aten("aten::isnan")
def isnan(self: TFloat) -> BOOL:
    return op.IsNaN(self)


@aten("aten::isinf")
def isinf(self: TFloat) -> BOOL:
    return op.IsInf(self)


@aten("aten::where.self")
def where(condition: BOOL, self: TTensor, other: TTensor) -> TTensor:
    return op.Where(condition, self, other)


@aten("aten::where.ScalarOther")
def where_scalar_other(condition: BOOL, self: TTensor, other: float) -> TTensor:
    return op.Where(condition, self, scalar_like(other, self))


@aten("aten::where.ScalarSelf")
def where_scalar_self(condition: BOOL, self: float, other: TTensor) -> TTensor:
    return op.Where(condition, scalar_like(self, other), other)


@aten("aten::masked_fill.Scalar", "aten::masked_fill.Tensor")
def masked_fill(self: TTensor, mask: BOOL, value: TTensor) -> TTensor:
    """``value`` where ``mask`` holds (a number, or a rank-0 tensor cast to self's type)."""
    return op.Where(mask, scalar_like(value, self), self)


@aten("aten::type_as")
def type_as(self: TTensor, other: TTensor) -> TTensor:
    return scalar_like(self, other)


@aten("aten::to.dtype")
def to_dtype(
    self: TTensor,
    dtype: int,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: str = "",
) -> TTensor:
    """``x.to(dtype)``, kept whole so torch need not decompose it into ``_to_copy``."""
    return to_copy(self, dtype)


@aten("aten::to.device")
def to_device(
    self: TTensor,
    device: str,
    dtype: int,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: str = "",
) -> TTensor:
    return to_copy(self, dtype)


@aten("aten::to.dtype_layout")
def to_dtype_layout(
    self: TTensor,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: str = "",
) -> TTensor:
    return to_copy(self, dtype)


@aten("aten::_to_copy")
def to_copy(
    self: TTensor,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    non_blocking: bool = False,
    memory_format: str = "",
) -> TTensor:
    if dtype == -1 or dtype is None:
        return op.Identity(self)
    if is_complex_dtype(dtype):
        return real_to_complex(self, dtype)
    return op.Cast(self, to=dtype)


@aten("aten::clone", "aten::alias", "aten::detach", "aten::lift_fresh_copy")
def clone(self: TTensor, memory_format: str = "") -> TTensor:
    return op.Identity(self)


@aten("aten::acos")
def acos(self: TFloat) -> TFloat:
    return op.Acos(self)


@aten("aten::acosh")
def acosh(self: TFloat) -> TFloat:
    return op.Acosh(self)


@aten("aten::asin")
def asin(self: TFloat) -> TFloat:
    return op.Asin(self)


@aten("aten::asinh")
def asinh(self: TFloat) -> TFloat:
    return op.Asinh(self)


@aten("aten::atan")
def atan(self: TFloat) -> TFloat:
    return op.Atan(self)


@aten("aten::atanh")
def atanh(self: TFloat) -> TFloat:
    return op.Atanh(self)


@aten("aten::tan")
def tan(self: TFloat) -> TFloat:
    return op.Tan(self)


@aten("aten::sinh")
def sinh(self: TFloat) -> TFloat:
    return op.Sinh(self)


@aten("aten::cosh")
def cosh(self: TFloat) -> TFloat:
    return op.Cosh(self)


@aten("aten::atan2")
def atan2(self: TFloat, other: TFloat) -> TFloat:
    """The angle of (other, self): atan(self/other), moved by pi where other < 0."""
    base = op.Atan(op.Div(self, other))
    pi = op.CastLike(math.pi, self)
    zero = op.CastLike(0.0, self)
    shift = op.Where(op.Less(self, zero), op.Neg(pi), pi)
    shifted = op.Where(op.Less(other, zero), op.Add(base, shift), base)
    at_zero = op.Where(
        op.Equal(self, zero),
        op.Where(op.Less(other, zero), pi, zero),
        op.Mul(op.Sign(self), op.CastLike(math.pi / 2, self)),
    )
    return op.Where(op.Equal(other, zero), at_zero, shifted)


@aten("aten::expm1")
def expm1(self: TFloat) -> TFloat:
    return op.Sub(op.Exp(self), op.CastLike(1.0, self))


@aten("aten::log1p")
def log1p(self: TFloat) -> TFloat:
    return op.Log(op.Add(self, op.CastLike(1.0, self)))


@aten("aten::log2")
def log2(self: TFloat) -> TFloat:
    return op.Div(op.Log(self), op.CastLike(math.log(2.0), self))


@aten("aten::log10")
def log10(self: TFloat) -> TFloat:
    return op.Div(op.Log(self), op.CastLike(math.log(10.0), self))


@aten("aten::logical_xor")
def logical_xor(self: BOOL, other: BOOL) -> BOOL:
    return op.Xor(_as_bool(self), _as_bool(other))


@aten("aten::bitwise_and.Tensor", "aten::bitwise_and.Scalar", "aten::__and__.Tensor")
def bitwise_and(self: TTensor, other: TTensor) -> TTensor:
    return op.And(self, other) if is_bool(self) else op.BitwiseAnd(self, other)


@aten("aten::bitwise_or.Tensor", "aten::bitwise_or.Scalar", "aten::__or__.Tensor")
def bitwise_or(self: TTensor, other: TTensor) -> TTensor:
    return op.Or(self, other) if is_bool(self) else op.BitwiseOr(self, other)


@aten("aten::bitwise_xor.Tensor", "aten::bitwise_xor.Scalar")
def bitwise_xor(self: TTensor, other: TTensor) -> TTensor:
    return op.Xor(self, other) if is_bool(self) else op.BitwiseXor(self, other)


@aten("aten::copy")
def copy(self: TTensor, src: TTensor, non_blocking: bool = False) -> TTensor:
    """``self`` overwritten by ``src`` (broadcast to self's shape, in self's type)."""
    return op.Expand(op.CastLike(src, self), op.Shape(self))


@aten("aten::fill.Scalar")
def fill(self: TTensor, value: float) -> TTensor:
    return op.Expand(op.CastLike(value, self), op.Shape(self))


def _bool(value: bool) -> BOOL:
    return op.Cast(op.Constant(value_int=int(value)), to=BOOL.dtype)


@aten("aten::native_dropout")
def native_dropout(input: TFloat, p: float, train: bool = False) -> tuple[TFloat, BOOL]:
    """In training, ONNX Dropout (random, as torch's: the values cannot match torch's)."""
    if not train or p == 0:
        return op.Identity(input), op.Expand(_bool(True), op.Shape(input))
    if p >= 1:  # everything dropped (ONNX would scale by 1 / 0)
        return op.Mul(input, op.CastLike(0.0, input)), op.Expand(_bool(False), op.Shape(input))
    output, mask = op.Dropout(input, op.Constant(value_float=p), _bool(True))
    return output, mask
