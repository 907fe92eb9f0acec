"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.prims``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten import prims
from onnxscript.function_libs.torch_lib.unsupported import unsupported

prims_abs = prims.prims_abs  # prims::abs
prims_acos = prims.prims_acos  # prims::acos
prims_acosh = prims.prims_acosh  # prims::acosh
prims_add = prims.prims_add  # prims::add
prims_amax = prims.prims_amax  # prims::amax (a placeholder in 0.7)
prims_amin = prims.prims_amin  # prims::amin (a placeholder in 0.7)
prims_as_strided = unsupported("prims::as_strided")
prims_as_strided_scatter = unsupported("prims::as_strided_scatter")
prims_asin = prims.prims_asin  # prims::asin
prims_asinh = prims.prims_asinh  # prims::asinh
prims_atan = prims.prims_atan  # prims::atan
prims_atan2 = unsupported("prims::atan2")
prims_atanh = prims.prims_atanh  # prims::atanh
prims_bessel_i0 = unsupported("prims::bessel_i0")
prims_bessel_i0e = unsupported("prims::bessel_i0e")
prims_bessel_i1 = unsupported("prims::bessel_i1")
prims_bessel_i1e = unsupported("prims::bessel_i1e")
prims_bessel_j0 = unsupported("prims::bessel_j0")
prims_bessel_j1 = unsupported("prims::bessel_j1")
prims_bitwise_and = unsupported("prims::bitwise_and")
prims_bitwise_not = unsupported("prims::bitwise_not")
prims_bitwise_or = unsupported("prims::bitwise_or")
prims_bitwise_xor = unsupported("prims::bitwise_xor")
prims_broadcast_in_dim = prims.prims_broadcast_in_dim  # prims::broadcast_in_dim
prims_cat = unsupported("prims::cat")
prims_cbrt = unsupported("prims::cbrt")
prims_ceil = prims.prims_ceil  # prims::ceil
prims_clone = unsupported("prims::clone")
prims_collapse_view = unsupported("prims::collapse_view")
prims_conj = unsupported("prims::conj")
prims_conj_physical = unsupported("prims::conj_physical")
prims_convert_element_type = prims.convert_element_type  # prims::convert_element_type
prims_copy_strided = unsupported("prims::copy_strided")
prims_copy_to = unsupported("prims::copy_to")
prims_cos = prims.prims_cos  # prims::cos
prims_cosh = prims.prims_cosh  # prims::cosh
prims_device_put = prims.prims_device_put  # prims::device_put
prims_digamma = unsupported("prims::digamma")
prims_div = prims.prims_div  # prims::div
prims_empty = unsupported("prims::empty")
prims_empty_strided = unsupported("prims::empty_strided")
prims_eq = prims.prims_eq  # prims::eq
prims_erf = prims.prims_erf  # prims::erf
prims_erf_inv = unsupported("prims::erf_inv")
prims_erfc = unsupported("prims::erfc")
prims_erfcx = unsupported("prims::erfcx")
prims_exp = prims.prims_exp  # prims::exp
prims_exp2 = unsupported("prims::exp2")
prims_expm1 = unsupported("prims::expm1")
prims_fft_c2c = unsupported("prims::fft_c2c")
prims_fft_c2r = unsupported("prims::fft_c2r")
prims_fft_r2c = unsupported("prims::fft_r2c")
prims_fill = unsupported("prims::fill")
prims_floor = prims.prims_floor  # prims::floor
prims_fmax = unsupported("prims::fmax")
prims_fmin = unsupported("prims::fmin")
prims_fmod = unsupported("prims::fmod")
prims_full = unsupported("prims::full")
prims_full_like = unsupported("prims::full_like")
prims_gcd = unsupported("prims::gcd")
prims_ge = prims.prims_ge  # prims::ge
prims_gt = prims.prims_gt  # prims::gt
prims_hypot = unsupported("prims::hypot")
prims_igamma = unsupported("prims::igamma")
prims_igammac = unsupported("prims::igammac")
prims_imag = unsupported("prims::imag")
prims_iota = unsupported("prims::iota")
prims_isfinite = unsupported("prims::isfinite")
prims_item = unsupported("prims::item")
prims_le = prims.prims_le  # prims::le
prims_lgamma = unsupported("prims::lgamma")
prims_log = prims.prims_log  # prims::log
prims_log10 = unsupported("prims::log10")
prims_log1p = unsupported("prims::log1p")
prims_log2 = unsupported("prims::log2")
prims_lt = prims.prims_lt  # prims::lt
prims_maximum = unsupported("prims::maximum")
prims_maximum_value = unsupported("prims::maximum_value")
prims_minimum = unsupported("prims::minimum")
prims_minium_value = unsupported("prims::minium_value")
prims_mul = prims.prims_mul  # prims::mul
prims_ndtri = unsupported("prims::ndtri")
prims_ne = prims.prims_ne  # prims::ne
prims_neg = prims.prims_neg  # prims::neg
prims_nextafter = unsupported("prims::nextafter")
prims_normal = unsupported("prims::normal")
prims_pow = prims.prims_pow  # prims::pow
prims_prod = prims.prims_prod  # prims::prod (a placeholder in 0.7)
prims_real = unsupported("prims::real")
prims_reciprocal = unsupported("prims::reciprocal")
prims_remainder = prims.prims_remainder  # prims::remainder (a placeholder in 0.7)
prims_reshape = prims.prims_reshape  # prims::reshape
prims_resize = prims.prims_resize  # prims::resize
prims_rev = unsupported("prims::rev")
prims_round = prims.prims_round  # prims::round
prims_rsqrt = unsupported("prims::rsqrt")
prims_scalar_tensor = unsupported("prims::scalar_tensor")
prims_shift_left = unsupported("prims::shift_left")
prims_shift_right_arithmetic = unsupported("prims::shift_right_arithmetic")
prims_sign = unsupported("prims::sign")
prims_signbit = unsupported("prims::signbit")
prims_sin = prims.prims_sin  # prims::sin
prims_sinh = prims.prims_sinh  # prims::sinh
prims_slice = unsupported("prims::slice")
prims_slice_in_dim = unsupported("prims::slice_in_dim")
prims_spherical_bessel_j0 = unsupported("prims::spherical_bessel_j0")
prims_split_dim = unsupported("prims::split_dim")
prims_sqrt = prims.prims_sqrt  # prims::sqrt
prims_squeeze = prims.prims_squeeze  # prims::squeeze
prims_sub = prims.prims_sub  # prims::sub
prims_sum = prims.prims_sum  # prims::sum
prims_svd = unsupported("prims::svd")
prims_tan = prims.prims_tan  # prims::tan
prims_tanh = prims.prims_tanh  # prims::tanh
prims_transpose = prims.prims_transpose  # prims::transpose
prims_trunc = unsupported("prims::trunc")
prims_uniform = unsupported("prims::uniform")
prims_var = prims.prims_var  # prims::var
prims_view_of = unsupported("prims::view_of")
prims_where = prims.prims_where  # prims::where
prims_zeta = unsupported("prims::zeta")

__all__ = [
    "op",
    "prims_abs",
    "prims_acos",
    "prims_acosh",
    "prims_add",
    "prims_amax",
    "prims_amin",
    "prims_as_strided",
    "prims_as_strided_scatter",
    "prims_asin",
    "prims_asinh",
    "prims_atan",
    "prims_atan2",
    "prims_atanh",
    "prims_bessel_i0",
    "prims_bessel_i0e",
    "prims_bessel_i1",
    "prims_bessel_i1e",
    "prims_bessel_j0",
    "prims_bessel_j1",
    "prims_bitwise_and",
    "prims_bitwise_not",
    "prims_bitwise_or",
    "prims_bitwise_xor",
    "prims_broadcast_in_dim",
    "prims_cat",
    "prims_cbrt",
    "prims_ceil",
    "prims_clone",
    "prims_collapse_view",
    "prims_conj",
    "prims_conj_physical",
    "prims_convert_element_type",
    "prims_copy_strided",
    "prims_copy_to",
    "prims_cos",
    "prims_cosh",
    "prims_device_put",
    "prims_digamma",
    "prims_div",
    "prims_empty",
    "prims_empty_strided",
    "prims_eq",
    "prims_erf",
    "prims_erf_inv",
    "prims_erfc",
    "prims_erfcx",
    "prims_exp",
    "prims_exp2",
    "prims_expm1",
    "prims_fft_c2c",
    "prims_fft_c2r",
    "prims_fft_r2c",
    "prims_fill",
    "prims_floor",
    "prims_fmax",
    "prims_fmin",
    "prims_fmod",
    "prims_full",
    "prims_full_like",
    "prims_gcd",
    "prims_ge",
    "prims_gt",
    "prims_hypot",
    "prims_igamma",
    "prims_igammac",
    "prims_imag",
    "prims_iota",
    "prims_isfinite",
    "prims_item",
    "prims_le",
    "prims_lgamma",
    "prims_log",
    "prims_log1p",
    "prims_log2",
    "prims_log10",
    "prims_lt",
    "prims_maximum",
    "prims_maximum_value",
    "prims_minimum",
    "prims_minium_value",
    "prims_mul",
    "prims_ndtri",
    "prims_ne",
    "prims_neg",
    "prims_nextafter",
    "prims_normal",
    "prims_pow",
    "prims_prod",
    "prims_real",
    "prims_reciprocal",
    "prims_remainder",
    "prims_reshape",
    "prims_resize",
    "prims_rev",
    "prims_round",
    "prims_rsqrt",
    "prims_scalar_tensor",
    "prims_shift_left",
    "prims_shift_right_arithmetic",
    "prims_sign",
    "prims_signbit",
    "prims_sin",
    "prims_sinh",
    "prims_slice",
    "prims_slice_in_dim",
    "prims_spherical_bessel_j0",
    "prims_split_dim",
    "prims_sqrt",
    "prims_squeeze",
    "prims_sub",
    "prims_sum",
    "prims_svd",
    "prims_tan",
    "prims_tanh",
    "prims_transpose",
    "prims_trunc",
    "prims_uniform",
    "prims_var",
    "prims_view_of",
    "prims_where",
    "prims_zeta",
]
