"""Elementwise ATen operators: arithmetic, comparisons, activations, casts."""

from __future__ import annotations

import math
from typing import Any

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.complex_layout import (
    is_complex_dtype,
    real_to_complex,
)
from onnxscript.function_libs.torch_lib.helpers.constants import int64_constant, typed_constant
from onnxscript.function_libs.torch_lib.helpers.facts import (
    element_type,
    is_bool,
    is_floating,
    is_integer,
)
from onnxscript.function_libs.torch_lib.helpers.promotion import promote
from onnxscript.function_libs.torch_lib.helpers.sizes import is_static, scalar_like
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import (
    BOOL,
    TAnyTensor,
    TFloat,
    TIntOrUInt8,
    TRealOrUInt8,
)
from onnxscript.onnx_types import DOUBLE, FLOAT


@aten("aten::add.Tensor", "aten::add.Scalar")
def add(self: TAnyTensor, other: TAnyTensor, alpha: float = 1.0) -> TAnyTensor:
    """add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor

    On booleans torch's sum is a logical or (its alpha can only be true)."""
    if is_bool(self):
        return op.Or(self, other)
    if alpha != 1:
        other = op.Mul(other, op.CastLike(alpha, other))
    return op.Add(self, other)


@aten("aten::sub.Tensor", "aten::sub.Scalar")
def sub(self: TRealOrUInt8, other: TRealOrUInt8, alpha: float = 1.0) -> TRealOrUInt8:
    """sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"""
    if alpha != 1:
        other = op.Mul(other, op.CastLike(alpha, other))
    return op.Sub(self, other)


@aten("aten::rsub.Tensor", "aten::rsub.Scalar")
def rsub(self: TRealOrUInt8, other: TRealOrUInt8, alpha: float = 1.0) -> TRealOrUInt8:
    """rsub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor

    ``other - alpha * self``; a symbolic size given as ``other`` (``n - x``) is cast to
    ``self``'s type."""
    return sub(scalar_like(other, self), self, alpha=alpha)


@aten("aten::mul.Tensor", "aten::mul.Scalar")
def mul(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """mul.Tensor(Tensor self, Tensor other) -> Tensor"""
    if is_bool(self):
        return op.And(self, other)
    return op.Mul(self, other)


@aten("aten::div.Tensor", "aten::div.Scalar")
def div(self: TFloat, other: TFloat) -> TFloat:
    """div.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Div(self, other)


@aten("aten::div.Tensor_mode", "aten::div.Scalar_mode")
def div_mode(self: TRealOrUInt8, other: TRealOrUInt8, *, rounding_mode: str = "") -> TRealOrUInt8:
    # Optional attributes are written with a default of their own type (not Optional):
    # torch.onnx reads an Optional annotation as an input, and drops a None attribute.
    """div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor"""
    quotient = op.Div(self, other)
    if not rounding_mode or is_integer(self):
        if rounding_mode == "floor" and is_integer(self):
            return floor_divide_int(self, other)
        return quotient
    return op.Floor(quotient) if rounding_mode == "floor" else _trunc(quotient)


def _trunc(x: TFloat) -> TFloat:
    return op.Where(op.Less(x, op.CastLike(0, x)), op.Ceil(x), op.Floor(x))


def floor_divide_int(a: TRealOrUInt8, b: TRealOrUInt8) -> TRealOrUInt8:
    """Integer division rounding toward minus infinity (ONNX Div truncates): ``a - a % b``
    (Mod takes the divisor's sign, as Python's %) is a multiple of ``b``, so dividing it
    is exact."""
    return op.Div(op.Sub(a, op.Mod(a, b)), b)


@aten("aten::floor_divide")
def floor_divide(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """floor_divide(Tensor self, Tensor other) -> Tensor"""
    if is_integer(self):
        return floor_divide_int(self, other)
    return op.Floor(op.Div(self, other))


@aten("aten::remainder.Tensor", "aten::remainder.Scalar")
def remainder(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """remainder.Tensor(Tensor self, Tensor other) -> Tensor"""
    if is_integer(self):
        return op.Mod(self, other)  # fmod=0: the sign of the divisor, like Python
    return op.Sub(self, op.Mul(op.Floor(op.Div(self, other)), other))


@aten("aten::fmod.Tensor", "aten::fmod.Scalar")
def fmod(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """fmod.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Mod(self, other, fmod=1)


@aten("aten::pow.Tensor_Tensor", "aten::pow.Tensor_Scalar")
def pow_(self: TRealOrUInt8, exponent: TRealOrUInt8) -> TRealOrUInt8:
    """pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor"""
    return op.Pow(self, exponent)


@aten("aten::pow.Scalar")
def pow_scalar(self: float, exponent: TRealOrUInt8) -> TRealOrUInt8:
    """pow.Scalar(Scalar self, Tensor exponent) -> Tensor"""
    return op.Pow(op.CastLike(self, exponent), exponent)


@aten("aten::neg")
def neg(self: TRealOrUInt8) -> TRealOrUInt8:
    """neg(Tensor self) -> Tensor"""
    return op.Neg(self)


@aten("aten::abs")
def abs_(self: TRealOrUInt8) -> TRealOrUInt8:
    """abs(Tensor self) -> Tensor"""
    return op.Abs(self)


@aten("aten::exp")
def exp(self: TFloat) -> TFloat:
    """exp(Tensor self) -> Tensor"""
    return op.Exp(self)


@aten("aten::log")
def log(self: TFloat) -> TFloat:
    """log(Tensor self) -> Tensor"""
    return op.Log(self)


@aten("aten::sqrt")
def sqrt(self: TFloat) -> TFloat:
    """sqrt(Tensor self) -> Tensor"""
    return op.Sqrt(self)


@aten("aten::rsqrt")
def rsqrt(self: TFloat) -> TFloat:
    """rsqrt(Tensor self) -> Tensor"""
    return op.Reciprocal(op.Sqrt(self))


@aten("aten::reciprocal")
def reciprocal(self: TFloat) -> TFloat:
    """reciprocal(Tensor self) -> Tensor"""
    return op.Reciprocal(self)


@aten("aten::sin")
def sin(self: TFloat) -> TFloat:
    """sin(Tensor self) -> Tensor"""
    return op.Sin(self)


@aten("aten::cos")
def cos(self: TFloat) -> TFloat:
    """cos(Tensor self) -> Tensor"""
    return op.Cos(self)


@aten("aten::tanh")
def tanh(self: TFloat) -> TFloat:
    """tanh(Tensor self) -> Tensor"""
    return op.Tanh(self)


@aten("aten::sigmoid")
def sigmoid(self: TFloat) -> TFloat:
    """sigmoid(Tensor self) -> Tensor"""
    return op.Sigmoid(self)


@aten("aten::erf")
def erf(self: TFloat) -> TFloat:
    """erf(Tensor self) -> Tensor"""
    return op.Erf(self)


@aten("aten::floor")
def floor(self: TFloat) -> TFloat:
    """floor(Tensor self) -> Tensor"""
    return op.Floor(self)


@aten("aten::ceil")
def ceil(self: TFloat) -> TFloat:
    """ceil(Tensor self) -> Tensor"""
    return op.Ceil(self)


@aten("aten::trunc")
def trunc(self: TFloat) -> TFloat:
    """trunc(Tensor self) -> Tensor"""
    return _trunc(self)


@aten("aten::round")
def round_(self: TFloat) -> TFloat:
    """round(Tensor self) -> Tensor"""
    return op.Round(self)  # half to even, like torch


@aten("aten::sign", "aten::sgn")
def sign(self: TRealOrUInt8) -> TRealOrUInt8:
    """sign(Tensor self) -> Tensor"""
    return op.Sign(self)


@aten("aten::relu")
def relu(self: TRealOrUInt8) -> TRealOrUInt8:
    """relu(Tensor self) -> Tensor"""
    return op.Relu(self)


@aten("aten::gelu")
def gelu(self: TFloat, approximate: str = "none") -> TFloat:
    """gelu(Tensor self, *, str approximate="none") -> Tensor"""
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
    """silu(Tensor self) -> Tensor"""
    return op.Mul(self, op.Sigmoid(self))


@aten("aten::leaky_relu")
def leaky_relu(self: TFloat, negative_slope: float = 0.01) -> TFloat:
    """leaky_relu(Tensor self, Scalar negative_slope=0.01) -> Tensor"""
    return op.LeakyRelu(self, alpha=negative_slope)


@aten("aten::elu")
def elu(self: TFloat, alpha: float = 1.0, scale: float = 1.0, input_scale: float = 1.0) -> TFloat:
    """elu(Tensor self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor"""
    scaled = op.Mul(self, op.CastLike(input_scale, self)) if input_scale != 1 else self
    result = op.Elu(scaled, alpha=alpha)
    return op.Mul(result, op.CastLike(scale, self)) if scale != 1 else result


@aten("aten::hardtanh")
def hardtanh(self: TFloat, min_val: float = -1.0, max_val: float = 1.0) -> TFloat:
    """hardtanh(Tensor self, Scalar min_val=-1, Scalar max_val=1) -> Tensor"""
    return op.Clip(self, op.CastLike(min_val, self), op.CastLike(max_val, self))


@aten("aten::hardswish")
def hardswish(self: TFloat) -> TFloat:
    """hardswish(Tensor self) -> Tensor"""
    return op.HardSwish(self)


@aten("aten::hardsigmoid")
def hardsigmoid(self: TFloat) -> TFloat:
    """hardsigmoid(Tensor self) -> Tensor

    torch's relu6(x + 3) / 6 is ONNX HardSigmoid with alpha 1/6 and beta 1/2.
    """
    return op.HardSigmoid(self, alpha=1 / 6, beta=0.5)


@aten("aten::mish")
def mish(self: TFloat) -> TFloat:
    """mish(Tensor self) -> Tensor"""
    return op.Mish(self)


@aten("aten::celu")
def celu(self: TFloat, alpha: float = 1.0) -> TFloat:
    """celu(Tensor self, Scalar alpha=1.) -> Tensor"""
    return op.Celu(self, alpha=alpha)


@aten("aten::selu")
def selu(self: TFloat) -> TFloat:
    """selu(Tensor self) -> Tensor"""
    return op.Selu(self)  # ONNX's default alpha and gamma are torch's constants


@aten("aten::clamp", "aten::clamp.Tensor")
def clamp(
    self: TRealOrUInt8, min: TRealOrUInt8 | None = None, max: TRealOrUInt8 | None = None
) -> TRealOrUInt8:
    """clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor"""
    result = self
    if min is not None:
        result = op.Max(result, op.CastLike(min, self))
    if max is not None:
        result = op.Min(result, op.CastLike(max, self))
    return result


@aten("aten::maximum", "aten::max.other")
def maximum(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """maximum(Tensor self, Tensor other) -> Tensor"""
    return op.Max(self, other)


@aten("aten::minimum", "aten::min.other")
def minimum(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """minimum(Tensor self, Tensor other) -> Tensor"""
    return op.Min(self, other)


@aten("aten::eq.Tensor", "aten::eq.Scalar")
def eq(self: TAnyTensor, other: TAnyTensor) -> BOOL:
    """eq.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Equal(self, other)


@aten("aten::ne.Tensor", "aten::ne.Scalar")
def ne(self: TAnyTensor, other: TAnyTensor) -> BOOL:
    """ne.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Not(op.Equal(self, other))


@aten("aten::lt.Tensor", "aten::lt.Scalar")
def lt(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """lt.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Less(self, other)


@aten("aten::le.Tensor", "aten::le.Scalar")
def le(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """le.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.LessOrEqual(self, other)


@aten("aten::gt.Tensor", "aten::gt.Scalar")
def gt(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """gt.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Greater(self, other)


@aten("aten::ge.Tensor", "aten::ge.Scalar")
def ge(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """ge.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.GreaterOrEqual(self, other)


@aten("aten::logical_and")
def logical_and(self: BOOL, other: BOOL) -> BOOL:
    """logical_and(Tensor self, Tensor other) -> Tensor"""
    return op.And(_as_bool(self), _as_bool(other))


@aten("aten::logical_or")
def logical_or(self: BOOL, other: BOOL) -> BOOL:
    """logical_or(Tensor self, Tensor other) -> Tensor"""
    return op.Or(_as_bool(self), _as_bool(other))


@aten("aten::logical_not")
def logical_not(self: BOOL) -> BOOL:
    """logical_not(Tensor self) -> Tensor"""
    return op.Not(_as_bool(self))


@aten("aten::bitwise_not")
def bitwise_not(self: TAnyTensor) -> TAnyTensor:
    """bitwise_not(Tensor self) -> Tensor"""
    if is_bool(self):
        return op.Not(self)
    return op.BitwiseNot(self)


def _as_bool(x: Any) -> Any:
    return x if is_bool(x) else op.Cast(x, to=BOOL.dtype)


@aten("aten::isnan")
def isnan(self: TFloat) -> BOOL:
    """isnan(Tensor self) -> Tensor"""
    return op.IsNaN(self)


@aten("aten::isinf")
def isinf(self: TFloat) -> BOOL:
    """isinf(Tensor self) -> Tensor"""
    return op.IsInf(self)


@aten("aten::where.self")
def where(condition: BOOL, self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """where.self(Tensor condition, Tensor self, Tensor other) -> Tensor"""
    return op.Where(condition, self, other)


@aten("aten::where.ScalarOther")
def where_scalar_other(condition: BOOL, self: TAnyTensor, other: float) -> TAnyTensor:
    """where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor"""
    return op.Where(condition, self, scalar_like(other, self))


@aten("aten::where.ScalarSelf")
def where_scalar_self(condition: BOOL, self: float, other: TAnyTensor) -> TAnyTensor:
    """where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor"""
    return op.Where(condition, scalar_like(self, other), other)


@aten("aten::masked_fill.Scalar", "aten::masked_fill.Tensor")
def masked_fill(self: TAnyTensor, mask: BOOL, value: TAnyTensor) -> TAnyTensor:
    """masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor

    ``value`` where ``mask`` holds (a number, or a rank-0 tensor cast to self's type).
    """
    return op.Where(mask, scalar_like(value, self), self)


@aten("aten::type_as")
def type_as(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """type_as(Tensor self, Tensor other) -> Tensor"""
    return scalar_like(self, other)


@aten("aten::to.dtype")
def to_dtype(
    self: TAnyTensor,
    dtype: int,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)

    ``x.to(dtype)``, kept whole so torch need not decompose it into ``_to_copy``.
    """
    return to_copy(self, dtype)


@aten("aten::to.device")
def to_device(
    self: TAnyTensor,
    device: str,
    dtype: int,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)"""
    return to_copy(self, dtype)


@aten("aten::to.dtype_layout")
def to_dtype_layout(
    self: TAnyTensor,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    non_blocking: bool = False,
    copy: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)"""
    return to_copy(self, dtype)


@aten("aten::_to_copy")
def to_copy(
    self: TAnyTensor,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    non_blocking: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor"""
    if dtype == -1 or dtype is None:
        return op.Identity(self)
    if is_complex_dtype(dtype):
        return real_to_complex(self, dtype)
    return op.Cast(self, to=dtype)


@aten(
    "aten::clone",
    "aten::alias",
    "aten::detach",
    "aten::lift_fresh_copy",
    "aten::resolve_conj",
    "aten::resolve_neg",
)
def clone(self: TAnyTensor, memory_format: str = "") -> TAnyTensor:
    """clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor"""
    return op.Identity(self)


@aten("aten::conj", "aten::_conj")
def conj(self: TAnyTensor) -> TAnyTensor:
    """conj(Tensor(a) self) -> Tensor(a)

    A real tensor is its own conjugate (complex ones: aten/complex.py).
    """
    return op.Identity(self)


@aten("aten::acos")
def acos(self: TFloat) -> TFloat:
    """acos(Tensor self) -> Tensor"""
    return op.Acos(self)


@aten("aten::acosh")
def acosh(self: TFloat) -> TFloat:
    """acosh(Tensor self) -> Tensor"""
    return op.Acosh(self)


@aten("aten::asin")
def asin(self: TFloat) -> TFloat:
    """asin(Tensor self) -> Tensor"""
    return op.Asin(self)


@aten("aten::asinh")
def asinh(self: TFloat) -> TFloat:
    """asinh(Tensor self) -> Tensor"""
    return op.Asinh(self)


@aten("aten::atan")
def atan(self: TFloat) -> TFloat:
    """atan(Tensor self) -> Tensor"""
    return op.Atan(self)


@aten("aten::atanh")
def atanh(self: TFloat) -> TFloat:
    """atanh(Tensor self) -> Tensor"""
    return op.Atanh(self)


@aten("aten::tan")
def tan(self: TFloat) -> TFloat:
    """tan(Tensor self) -> Tensor"""
    return op.Tan(self)


@aten("aten::sinh")
def sinh(self: TFloat) -> TFloat:
    """sinh(Tensor self) -> Tensor"""
    return op.Sinh(self)


@aten("aten::cosh")
def cosh(self: TFloat) -> TFloat:
    """cosh(Tensor self) -> Tensor"""
    return op.Cosh(self)


@aten("aten::angle")
def angle(self: TRealOrUInt8) -> TFloat:
    """angle(Tensor self) -> Tensor

    The angle of a real number: pi for a negative one, else 0 (NaN stays NaN); integers
    give float32, as in torch (complex ones: aten/complex.py)."""
    if not is_floating(self):
        self = op.Cast(self, to=FLOAT.dtype)
    zero = op.CastLike(0.0, self)
    result = op.Where(op.Less(self, zero), op.CastLike(math.pi, self), zero)
    return op.Where(op.IsNaN(self), self, result)


@aten("aten::atan2")
def atan2(self: TFloat, other: TFloat) -> TFloat:
    """atan2(Tensor self, Tensor other) -> Tensor

    The angle of (other, self): atan(self/other), moved by pi where other < 0.
    """
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
    """expm1(Tensor self) -> Tensor"""
    return op.Sub(op.Exp(self), op.CastLike(1.0, self))


@aten("aten::log1p")
def log1p(self: TFloat) -> TFloat:
    """log1p(Tensor self) -> Tensor"""
    return op.Log(op.Add(self, op.CastLike(1.0, self)))


@aten("aten::log2")
def log2(self: TFloat) -> TFloat:
    """log2(Tensor self) -> Tensor"""
    return op.Div(op.Log(self), op.CastLike(math.log(2.0), self))


@aten("aten::log10")
def log10(self: TFloat) -> TFloat:
    """log10(Tensor self) -> Tensor"""
    return op.Div(op.Log(self), op.CastLike(math.log(10.0), self))


@aten("aten::logical_xor")
def logical_xor(self: BOOL, other: BOOL) -> BOOL:
    """logical_xor(Tensor self, Tensor other) -> Tensor"""
    return op.Xor(_as_bool(self), _as_bool(other))


@aten("aten::bitwise_and.Tensor", "aten::bitwise_and.Scalar", "aten::__and__.Tensor")
def bitwise_and(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """bitwise_and.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.And(self, other) if is_bool(self) else op.BitwiseAnd(self, other)


@aten("aten::bitwise_or.Tensor", "aten::bitwise_or.Scalar", "aten::__or__.Tensor")
def bitwise_or(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """bitwise_or.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Or(self, other) if is_bool(self) else op.BitwiseOr(self, other)


@aten("aten::bitwise_xor.Tensor", "aten::bitwise_xor.Scalar")
def bitwise_xor(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """bitwise_xor.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Xor(self, other) if is_bool(self) else op.BitwiseXor(self, other)


@aten("aten::copy")
def copy(self: TAnyTensor, src: TAnyTensor, non_blocking: bool = False) -> TAnyTensor:
    """copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor

    ``self`` overwritten by ``src`` (broadcast to self's shape, in self's type).
    """
    return op.Expand(op.CastLike(src, self), op.Shape(self))


@aten("aten::fill.Scalar")
def fill(self: TAnyTensor, value: float) -> TAnyTensor:
    """fill.Scalar(Tensor self, Scalar value) -> Tensor"""
    return op.Expand(op.CastLike(value, self), op.Shape(self))


def _bool(value: bool) -> BOOL:
    return op.Cast(op.Constant(value_int=int(value)), to=BOOL.dtype)


@aten("aten::native_dropout")
def native_dropout(input: TFloat, p: float, train: bool = False) -> tuple[TFloat, BOOL]:
    """native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)

    In training, ONNX Dropout (random, as torch's: the values cannot match torch's).
    """
    if not train or p == 0:
        return op.Identity(input), op.Expand(_bool(True), op.Shape(input))
    if p >= 1:  # everything dropped (ONNX would scale by 1 / 0)
        return op.Mul(input, op.CastLike(0.0, input)), op.Expand(_bool(False), op.Shape(input))
    output, mask = op.Dropout(input, op.Constant(value_float=p), _bool(True))
    return output, mask


# Aliases and further overloads torch keeps whole when the library registers them.


@aten("aten::divide.Tensor", "aten::divide.Scalar", "aten::true_divide.Tensor")
def divide(self: TFloat, other: TFloat) -> TFloat:
    """divide.Tensor(Tensor self, Tensor other) -> Tensor

    True division (integers give float32), operands promoted as torch does.
    """
    a, b = promote(self, other, to_float=True)
    return op.Div(a, b)


@aten("aten::true_divide.Scalar")
def true_divide_scalar(self: TFloat, other: TFloat) -> TFloat:
    """true_divide.Scalar(Tensor self, Scalar other) -> Tensor"""
    return op.Div(self, scalar_like(other, self))


@aten("aten::multiply.Tensor", "aten::multiply.Scalar")
def multiply(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """multiply.Tensor(Tensor self, Tensor other) -> Tensor"""
    return mul(*promote(self, other))


@aten("aten::subtract.Tensor", "aten::subtract.Scalar")
def subtract(self: TRealOrUInt8, other: TRealOrUInt8, alpha: float = 1.0) -> TRealOrUInt8:
    """subtract.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"""
    a, b = promote(self, other)
    return sub(a, b, alpha=alpha)


@aten("aten::mul")
def mul_scalars(a: TRealOrUInt8, b: TRealOrUInt8) -> TRealOrUInt8:
    """mul(Scalar a, Scalar b) -> Scalar

    ``aten::mul(Scalar, Scalar)``, the TorchScript scalar form (FX graphs use
    ``_operator::mul``)."""
    return op.Mul(a, b)


@aten("aten::eq")
def eq_scalars(a: TRealOrUInt8, b: TRealOrUInt8) -> BOOL:
    """eq(Scalar a, Scalar b) -> bool"""
    return op.Equal(a, b)


@aten("aten::ne")
def ne_scalars(a: TRealOrUInt8, b: TRealOrUInt8) -> BOOL:
    """ne(Scalar a, Scalar b) -> bool"""
    return op.Not(op.Equal(a, b))


@aten("aten::greater.Tensor")
def greater(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """greater.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Greater(*promote(self, other))


@aten("aten::greater_equal.Tensor")
def greater_equal(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """greater_equal.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.GreaterOrEqual(*promote(self, other))


@aten("aten::less.Tensor")
def less(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """less.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Less(*promote(self, other))


@aten("aten::less_equal.Tensor")
def less_equal(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """less_equal.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.LessOrEqual(*promote(self, other))


@aten("aten::bitwise_and.Scalar_Tensor")
def bitwise_and_scalar_tensor(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"""
    return bitwise_and(other, scalar_like(self, other))


@aten("aten::bitwise_or.Scalar_Tensor")
def bitwise_or_scalar_tensor(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"""
    return bitwise_or(other, scalar_like(self, other))


@aten("aten::bitwise_xor.Scalar_Tensor")
def bitwise_xor_scalar_tensor(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"""
    return bitwise_xor(other, scalar_like(self, other))


_UNSIGNED = {
    ir.DataType.INT8: ir.DataType.UINT8,
    ir.DataType.INT16: ir.DataType.UINT16,
    ir.DataType.INT32: ir.DataType.UINT32,
    ir.DataType.INT64: ir.DataType.UINT64,
}


@aten(
    "aten::bitwise_left_shift.Tensor",
    "aten::bitwise_left_shift.Tensor_Scalar",
    "aten::__lshift__.Tensor",
    "aten::__lshift__.Scalar",
)
def bitwise_left_shift(self: TIntOrUInt8, other: TIntOrUInt8) -> TIntOrUInt8:
    """bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor

    ONNX BitShift takes unsigned integers: a signed ``self`` is shifted as the unsigned
    integer of its width (two's complement bits, as torch shifts them)."""
    dtype = element_type(self)
    unsigned = _UNSIGNED.get(dtype) if dtype is not None else None
    amount = scalar_like(other, self)
    if unsigned is None:
        return op.BitShift(self, amount, direction="LEFT")
    bits = op.BitShift(op.Cast(self, to=unsigned), op.Cast(amount, to=unsigned), direction="LEFT")
    return op.Cast(bits, to=dtype)


@aten("aten::bitwise_left_shift.Scalar_Tensor")
def bitwise_left_shift_scalar_tensor(self: TIntOrUInt8, other: TIntOrUInt8) -> TIntOrUInt8:
    """bitwise_left_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"""
    return bitwise_left_shift(scalar_like(self, other), other)


@aten(
    "aten::bitwise_right_shift.Tensor",
    "aten::bitwise_right_shift.Tensor_Scalar",
    "aten::__rshift__.Tensor",
    "aten::__rshift__.Scalar",
)
def bitwise_right_shift(self: TIntOrUInt8, other: TIntOrUInt8) -> TIntOrUInt8:
    """bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor

    Arithmetic shift: a signed ``self`` is divided by ``2**other`` rounding toward minus
    infinity (in INT64, the type Pow takes); an unsigned one is BitShift-ed."""
    dtype = element_type(self)
    amount = scalar_like(other, self)
    if dtype not in _UNSIGNED:
        return op.BitShift(self, amount, direction="RIGHT")
    wide = self if dtype == ir.DataType.INT64 else op.Cast(self, to=ir.DataType.INT64)
    power = op.Pow(typed_constant(2, ir.DataType.INT64), op.Cast(amount, to=ir.DataType.INT64))
    shifted = floor_divide_int(wide, power)
    return shifted if dtype == ir.DataType.INT64 else op.Cast(shifted, to=dtype)


@aten("aten::bitwise_right_shift.Scalar_Tensor")
def bitwise_right_shift_scalar_tensor(self: TIntOrUInt8, other: TIntOrUInt8) -> TIntOrUInt8:
    """bitwise_right_shift.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"""
    return bitwise_right_shift(scalar_like(self, other), other)


@aten("aten::clamp_max", "aten::clamp_max.Tensor")
def clamp_max(self: TRealOrUInt8, max: TRealOrUInt8) -> TRealOrUInt8:
    """clamp_max(Tensor self, Scalar max) -> Tensor"""
    return op.Min(self, scalar_like(max, self))


@aten("aten::clamp_min", "aten::clamp_min.Tensor")
def clamp_min(self: TRealOrUInt8, min: TRealOrUInt8) -> TRealOrUInt8:
    """clamp_min(Tensor self, Scalar min) -> Tensor"""
    return op.Max(self, scalar_like(min, self))


@aten("aten::remainder.Scalar_Tensor")
def remainder_scalar_tensor(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor"""
    return remainder(scalar_like(self, other), other)


def _floating(x: Any) -> Any:
    """``x`` as torch computes int-to-float ops: integers and booleans in FLOAT."""
    return x if is_floating(x) or element_type(x) is None else op.Cast(x, to=FLOAT.dtype)


def _const(value: float, like: Any) -> Any:
    return scalar_like(value, like)


@aten("aten::deg2rad")
def deg2rad(self: TFloat) -> TFloat:
    """deg2rad(Tensor self) -> Tensor"""
    x = _floating(self)
    return op.Mul(x, _const(math.pi / 180.0, x))


@aten("aten::rad2deg")
def rad2deg(self: TFloat) -> TFloat:
    """rad2deg(Tensor self) -> Tensor"""
    x = _floating(self)
    return op.Mul(x, _const(180.0 / math.pi, x))


@aten("aten::erfc", "aten::special_erfc")
def erfc(self: TFloat) -> TFloat:
    """erfc(Tensor self) -> Tensor"""
    x = _floating(self)
    return op.Sub(_const(1.0, x), op.Erf(x))


@aten("aten::special_erf")
def special_erf(self: TFloat) -> TFloat:
    """special_erf(Tensor self) -> Tensor"""
    return op.Erf(_floating(self))


@aten("aten::special_expm1")
def special_expm1(self: TFloat) -> TFloat:
    """special_expm1(Tensor self) -> Tensor"""
    return expm1(_floating(self))


@aten("aten::special_erfcx")
def special_erfcx(self: TFloat) -> TFloat:
    """special_erfcx(Tensor self) -> Tensor

    ``exp(x**2) * erfc(x)`` without its overflow and cancellation: directly below 2;
    above, the continued fraction ``1 / (sqrt(pi) (x + 1/2 / (x + 1 / (x + ...))))``; for
    negative x, ``2 exp(x**2) - erfcx(-x)``."""
    x = _floating(self)
    magnitude = op.Abs(x)
    direct = op.Mul(op.Exp(op.Mul(magnitude, magnitude)), op.Sub(_const(1.0, x), op.Erf(magnitude)))
    far = op.Max(magnitude, _const(2.0, x))  # the fraction converges slowly near 0: unused there
    tail = far
    for k in range(_ERFCX_TERMS, 0, -1):
        tail = op.Add(far, op.Div(_const(k / 2.0, x), tail))
    fraction = op.Div(_const(1.0 / math.sqrt(math.pi), x), tail)
    positive = op.Where(op.Less(magnitude, _const(2.0, x)), direct, fraction)
    mirrored = op.Sub(op.Mul(_const(2.0, x), op.Exp(op.Mul(x, x))), positive)
    return op.Where(op.Less(x, _const(0.0, x)), mirrored, positive)


_ERFCX_TERMS = 16
"""Terms of erfcx's continued fraction (used from x = 2)."""


@aten("aten::exp2")
def exp2(self: TFloat) -> TFloat:
    """exp2(Tensor self) -> Tensor"""
    x = _floating(self)
    return op.Pow(_const(2.0, x), x)


@aten("aten::frac")
def frac(self: TFloat) -> TFloat:
    """frac(Tensor self) -> Tensor"""
    return op.Sub(self, _trunc(self))


@aten("aten::heaviside")
def heaviside(self: TRealOrUInt8, values: TRealOrUInt8) -> TRealOrUInt8:
    """heaviside(Tensor self, Tensor values) -> Tensor"""
    zero = _const(0, self)
    step = op.CastLike(op.Greater(self, zero), self)
    return op.Where(op.Equal(self, zero), op.CastLike(values, self), step)


@aten("aten::isfinite")
def isfinite(self: TAnyTensor) -> BOOL:
    """isfinite(Tensor self) -> Tensor"""
    if not is_floating(self):
        return op.Expand(_bool(True), op.Shape(self))
    return op.Not(op.Or(op.IsInf(self), op.IsNaN(self)))


@aten("aten::isneginf")
def isneginf(self: TAnyTensor) -> BOOL:
    """isneginf(Tensor self) -> Tensor"""
    if not is_floating(self):
        return op.Expand(_bool(False), op.Shape(self))
    return op.IsInf(self, detect_positive=0)


@aten("aten::isposinf")
def isposinf(self: TAnyTensor) -> BOOL:
    """isposinf(Tensor self) -> Tensor"""
    if not is_floating(self):
        return op.Expand(_bool(False), op.Shape(self))
    return op.IsInf(self, detect_negative=0)


@aten("aten::lerp.Tensor", "aten::lerp.Scalar")
def lerp(self: TFloat, end: TFloat, weight: TFloat) -> TFloat:
    """lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor

    torch's two-sided form: from ``self`` for ``|weight| < 0.5``, else from ``end``
    (exact at both ends)."""
    weight = scalar_like(weight, self)
    diff = op.Sub(end, self)
    near_start = op.Add(self, op.Mul(weight, diff))
    near_end = op.Sub(end, op.Mul(diff, op.Sub(_const(1.0, self), weight)))
    return op.Where(op.Less(op.Abs(weight), _const(0.5, self)), near_start, near_end)


@aten("aten::logaddexp")
def logaddexp(self: TFloat, other: TFloat) -> TFloat:
    """logaddexp(Tensor self, Tensor other) -> Tensor

    ``max + log1p(exp(-|a - b|))``; equal infinities give themselves (not NaN).
    """
    return _log_add(self, other, op.Exp, 1.0)


@aten("aten::logaddexp2")
def logaddexp2(self: TFloat, other: TFloat) -> TFloat:
    """logaddexp2(Tensor self, Tensor other) -> Tensor"""
    return _log_add(self, other, lambda d: op.Pow(_const(2.0, d), d), 1 / math.log(2.0))


def _log_add(a: Any, b: Any, power: Any, scale: float) -> Any:
    a, b = _floating(a), _floating(b)
    larger = op.Max(a, b)
    gap = op.Neg(op.Abs(op.Sub(a, b)))
    added = op.Log(op.Add(_const(1.0, a), power(gap)))
    if scale != 1.0:
        added = op.Mul(added, _const(scale, a))
    same_infinity = op.And(op.Equal(a, b), op.IsInf(a))
    return op.Where(same_infinity, a, op.Add(larger, added))


@aten("aten::logit")
def logit(self: TFloat, eps: float = -1.0) -> TFloat:
    """logit(Tensor self, float? eps=None) -> Tensor

    ``log(x / (1 - x))``, ``x`` clamped to ``[eps, 1 - eps]`` when ``eps`` is given
    (torch ignores a negative one: the default stands for None)."""
    x = _floating(self)
    if eps is not None and eps >= 0:
        x = op.Clip(x, _const(eps, x), _const(1.0 - eps, x))
    return op.Log(op.Div(x, op.Sub(_const(1.0, x), x)))


@aten("aten::log_sigmoid")
def log_sigmoid(self: TFloat) -> TFloat:
    """log_sigmoid(Tensor self) -> Tensor"""
    return op.Neg(op.Softplus(op.Neg(self)))


@aten("aten::signbit")
def signbit(self: TRealOrUInt8) -> BOOL:
    """signbit(Tensor self) -> Tensor

    Negative, or -0.0 (whose reciprocal is -inf).
    """
    if is_floating(self):
        zero = _const(0.0, self)
        return op.Or(op.Less(self, zero), op.Less(op.Reciprocal(self), zero))
    dtype = element_type(self)
    if dtype is not None and dtype.is_signed():
        return op.Less(self, _const(0, self))
    return op.Expand(_bool(False), op.Shape(self))


@aten("aten::sinc", "aten::special_sinc")
def sinc(self: TFloat) -> TFloat:
    """sinc(Tensor self) -> Tensor"""
    x = _floating(self)
    scaled = op.Mul(x, _const(math.pi, x))
    zero = op.Equal(x, _const(0.0, x))
    safe = op.Where(zero, _const(1.0, x), scaled)
    return op.Where(zero, _const(1.0, x), op.Div(op.Sin(safe), safe))


@aten("aten::softplus")
def softplus(self: TFloat, beta: float = 1.0, threshold: float = 20.0) -> TFloat:
    """softplus(Tensor self, Scalar beta=1, Scalar threshold=20) -> Tensor

    ``log(1 + exp(beta x)) / beta``, linear where ``beta x`` exceeds ``threshold``.
    """
    scaled = op.Mul(self, _const(beta, self)) if beta != 1 else self
    smooth = op.Softplus(scaled)
    if beta != 1:
        smooth = op.Div(smooth, _const(beta, self))
    return op.Where(op.Greater(scaled, _const(threshold, self)), self, smooth)


@aten("aten::special_softmax")
def special_softmax(self: TFloat, dim: int, dtype: int = -1) -> TFloat:
    """special_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor"""
    x = self if dtype in (-1, None) else op.Cast(self, to=dtype)
    return op.Softmax(x, axis=dim)


@aten("aten::special_log_softmax")
def special_log_softmax(self: TFloat, dim: int, *, dtype: int = -1) -> TFloat:
    """special_log_softmax(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor"""
    x = self if dtype in (-1, None) else op.Cast(self, to=dtype)
    return op.LogSoftmax(x, axis=dim)


@aten("aten::xlogy.Tensor", "aten::xlogy.Scalar_Other")
def xlogy(self: TFloat, other: TFloat) -> TFloat:
    """xlogy.Tensor(Tensor self, Tensor other) -> Tensor

    ``self * log(other)``: 0 where ``self`` is 0, NaN where ``other`` is.
    """
    x = _floating(self)
    y = scalar_like(other, x) if not is_floating(other) else op.CastLike(other, x)
    product = op.Where(op.Equal(x, _const(0.0, x)), _const(0.0, x), op.Mul(x, op.Log(y)))
    return op.Where(op.IsNaN(y), y, product)


@aten("aten::xlogy.Scalar_Self")
def xlogy_scalar_self(self: TFloat, other: TFloat) -> TFloat:
    """xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor"""
    y = _floating(other)
    return xlogy(scalar_like(self, y), y)


@aten("aten::round.decimals")
def round_decimals(self: TFloat, *, decimals: int = 0) -> TFloat:
    """round.decimals(Tensor self, *, int decimals) -> Tensor

    Rounded at ``10**-decimals`` (half to even), scaling as torch does.
    """
    if decimals == 0:
        return op.Round(self)
    scale = _const(10.0 ** abs(decimals), self)
    if decimals > 0:
        return op.Div(op.Round(op.Mul(self, scale)), scale)
    return op.Mul(op.Round(op.Div(self, scale)), scale)


@aten("aten::relu6")
def relu6(self: TRealOrUInt8) -> TRealOrUInt8:
    """relu6(Tensor self) -> Tensor"""
    return op.Clip(self, _const(0, self), _const(6, self))


@aten("aten::glu")
def glu(self: TFloat, dim: int = -1) -> TFloat:
    """glu(Tensor self, int dim=-1) -> Tensor"""
    first, second = op.Split(self, axis=dim, num_outputs=2)
    return op.Mul(first, op.Sigmoid(second))


@aten("aten::prelu")
def prelu(self: TFloat, weight: TFloat) -> TFloat:
    """prelu(Tensor self, Tensor weight) -> Tensor

    One slope per channel (dim 1), or one for all.
    """
    count = len(self.shape)
    if count >= 2:
        weight = op.Reshape(weight, [-1] + [1] * (count - 2))
    else:
        weight = op.Reshape(weight, int64_constant([]) if count == 0 else [-1])
    return op.PRelu(self, weight)


@aten("aten::_prelu_kernel")
def prelu_kernel(self: TFloat, weight: TFloat) -> TFloat:
    """_prelu_kernel(Tensor self, Tensor weight) -> Tensor

    ``weight`` already has a shape that broadcasts with ``self``.
    """
    return op.Where(op.Greater(self, _const(0.0, self)), self, op.Mul(weight, self))


@aten("aten::hardtanh_backward")
def hardtanh_backward(grad_output: TFloat, self: TFloat, min_val: float, max_val: float) -> TFloat:
    """hardtanh_backward(Tensor grad_output, Tensor self, Scalar min_val, Scalar max_val) -> Tensor"""
    inside = op.And(op.Greater(self, _const(min_val, self)), op.Less(self, _const(max_val, self)))
    return op.Where(inside, grad_output, _const(0.0, grad_output))


@aten("aten::addcmul")
def addcmul(
    self: TRealOrUInt8, tensor1: TRealOrUInt8, tensor2: TRealOrUInt8, *, value: float = 1.0
) -> TRealOrUInt8:
    """addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor"""
    product = op.Mul(tensor1, tensor2)
    if value != 1:
        product = op.Mul(product, scalar_like(value, product if is_bool(self) else self))
    return op.Add(self, product)


@aten("aten::addcdiv")
def addcdiv(self: TFloat, tensor1: TFloat, tensor2: TFloat, *, value: float = 1.0) -> TFloat:
    """addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor"""
    quotient = op.Div(tensor1, tensor2)
    if value != 1:
        quotient = op.Mul(quotient, scalar_like(value, self))
    return op.Add(self, quotient)


@aten("aten::where.Scalar")
def where_scalars(condition: BOOL, self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor

    Two numbers (torch.onnx makes each a constant of its own Python type): of one type,
    or promoted as torch promotes numbers (to FLOAT with a float, else to INT64)."""
    first, second = element_type(self), element_type(other)
    if first != second:
        floating = any(t is not None and t.is_floating_point() for t in (first, second))
        common = ir.DataType.FLOAT if floating else ir.DataType.INT64
        self, other = _scalar(self, common), _scalar(other, common)
    return op.Where(condition, self, other)


def _scalar(value: Any, dtype: ir.DataType) -> Any:
    """A number (static or symbolic) of element type ``dtype``."""
    if is_static(value):
        return typed_constant(value, dtype)
    if element_type(value) == dtype:
        return value
    return op.Cast(value, to=dtype)


def _tensor(t: Any, dtype: int, default: ir.DataType) -> Any:
    """``torch.tensor(number)``: a 0-d tensor of ``dtype`` (-1: ``default``)."""
    return _scalar(t, default if dtype in (-1, None) else ir.DataType(dtype))


@aten("aten::tensor.bool")
def tensor_bool(
    t: bool, *, dtype: int = -1, device: str = "", requires_grad: bool = False
) -> TAnyTensor:
    """tensor.bool(bool t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor"""
    return _tensor(t, dtype, ir.DataType.BOOL)


@aten("aten::tensor.float")
def tensor_float(
    t: float, *, dtype: int = -1, device: str = "", requires_grad: bool = False
) -> TAnyTensor:
    """tensor.float(float t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor"""
    return _tensor(t, dtype, ir.DataType.FLOAT)


@aten("aten::tensor.int")
def tensor_int(
    t: int, *, dtype: int = -1, device: str = "", requires_grad: bool = False
) -> TAnyTensor:
    """tensor.int(int t, *, ScalarType? dtype=None, Device? device=None, bool requires_grad=False) -> Tensor"""
    return _tensor(t, dtype, ir.DataType.INT64)


@aten("aten::isclose")
def isclose(
    self: TAnyTensor,
    other: TAnyTensor,
    rtol: float = 1e-05,
    atol: float = 1e-08,
    equal_nan: bool = False,
) -> BOOL:
    """isclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> Tensor

    ``|a - b| <= atol + rtol |b|`` where finite, equality elsewhere (infinities), NaN
    equal to NaN when ``equal_nan``."""
    self, other = promote(self, other)
    if is_bool(self):
        return op.Equal(self, other)
    a, b = self, other
    if not is_floating(a):
        a, b = op.Cast(a, to=DOUBLE.dtype), op.Cast(b, to=DOUBLE.dtype)
    bound = op.Add(_const(atol, a), op.Mul(_const(rtol, a), op.Abs(b)))
    close = op.Or(op.Equal(a, b), op.LessOrEqual(op.Abs(op.Sub(a, b)), bound))
    if not is_floating(self):
        return close
    finite = op.Not(op.IsInf(op.Sub(a, b)))
    result = op.Or(op.Equal(a, b), op.And(close, finite))
    if equal_nan:
        result = op.Or(result, op.And(op.IsNaN(a), op.IsNaN(b)))
    return result


@aten("aten::allclose")
def allclose(
    self: TAnyTensor,
    other: TAnyTensor,
    rtol: float = 1e-05,
    atol: float = 1e-08,
    equal_nan: bool = False,
) -> BOOL:
    """allclose(Tensor self, Tensor other, float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> bool"""
    return _all_true(isclose(self, other, rtol, atol, equal_nan))


@aten("aten::equal")
def equal(self: TAnyTensor, other: TAnyTensor) -> BOOL:
    """equal(Tensor self, Tensor other) -> bool

    Whether every element is equal (the shapes are taken to be equal).
    """
    return _all_true(op.Equal(self, other))


def _all_true(flags: Any) -> Any:
    as_int = op.Cast(flags, to=ir.DataType.INT32)
    return op.Cast(op.ReduceMin(as_int, keepdims=0), to=BOOL.dtype)


@aten("aten::is_nonzero")
def is_nonzero(self: TAnyTensor) -> BOOL:
    """is_nonzero(Tensor self) -> bool"""
    return op.Cast(op.Reshape(self, int64_constant([])), to=BOOL.dtype)
