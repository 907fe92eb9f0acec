"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.special``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten import elementwise
from onnxscript.function_libs.torch_lib.unsupported import unsupported

aten_special_airy_ai = unsupported("aten::special_airy_ai")
aten_special_bessel_j0 = unsupported("aten::special_bessel_j0")
aten_special_bessel_j1 = unsupported("aten::special_bessel_j1")
aten_special_bessel_y0 = unsupported("aten::special_bessel_y0")
aten_special_bessel_y1 = unsupported("aten::special_bessel_y1")
aten_special_chebyshev_polynomial_t = unsupported("aten::special_chebyshev_polynomial_t")
aten_special_chebyshev_polynomial_u = unsupported("aten::special_chebyshev_polynomial_u")
aten_special_chebyshev_polynomial_v = unsupported("aten::special_chebyshev_polynomial_v")
aten_special_chebyshev_polynomial_w = unsupported("aten::special_chebyshev_polynomial_w")
aten_special_digamma = unsupported("aten::special_digamma")
aten_special_entr = unsupported("aten::special_entr")
# also aten::special_erf: elementwise.special_erf
aten_special_erf = elementwise.erf  # aten::erf
aten_special_erfc = elementwise.erfc  # aten::erfc, special_erfc
aten_special_erfcx = elementwise.special_erfcx  # aten::special_erfcx
aten_special_erfinv = unsupported("aten::special_erfinv")
aten_special_exp2 = unsupported("aten::special_exp2")
aten_special_expit = unsupported("aten::special_expit")
# also aten::expm1: elementwise.expm1
aten_special_expm1 = elementwise.special_expm1  # aten::special_expm1
aten_special_gammainc = unsupported("aten::special_gammainc")
aten_special_gammaincc = unsupported("aten::special_gammaincc")
aten_special_gammaln = unsupported("aten::special_gammaln")
aten_special_hermite_polynomial_h = unsupported("aten::special_hermite_polynomial_h")
aten_special_hermite_polynomial_he = unsupported("aten::special_hermite_polynomial_he")
aten_special_i0 = unsupported("aten::special_i0")
aten_special_i0e = unsupported("aten::special_i0e")
aten_special_i1 = unsupported("aten::special_i1")
aten_special_i1e = unsupported("aten::special_i1e")
aten_special_laguerre_polynomial_l = unsupported("aten::special_laguerre_polynomial_l")
aten_special_legendre_polynomial_p = unsupported("aten::special_legendre_polynomial_p")
aten_special_log1p = unsupported("aten::special_log1p")
aten_special_log_ndtr = unsupported("aten::special_log_ndtr")
# also aten::log_softmax.int: nn.log_softmax_int
aten_special_log_softmax = elementwise.special_log_softmax  # aten::special_log_softmax
aten_special_logit = unsupported("aten::special_logit")
aten_special_logsumexp = unsupported("aten::special_logsumexp")
aten_special_modified_bessel_i0 = unsupported("aten::special_modified_bessel_i0")
aten_special_modified_bessel_i1 = unsupported("aten::special_modified_bessel_i1")
aten_special_modified_bessel_k0 = unsupported("aten::special_modified_bessel_k0")
aten_special_modified_bessel_k1 = unsupported("aten::special_modified_bessel_k1")
aten_special_multigammaln = unsupported("aten::special_multigammaln")
aten_special_ndtr = unsupported("aten::special_ndtr")
aten_special_ndtri = unsupported("aten::special_ndtri")
aten_special_polygamma = unsupported("aten::special_polygamma")
aten_special_psi = unsupported("aten::special_psi")
aten_special_round = unsupported("aten::special_round")
aten_special_scaled_modified_bessel_k0 = unsupported("aten::special_scaled_modified_bessel_k0")
aten_special_scaled_modified_bessel_k1 = unsupported("aten::special_scaled_modified_bessel_k1")
aten_special_shifted_chebyshev_polynomial_t = unsupported(
    "aten::special_shifted_chebyshev_polynomial_t"
)
aten_special_shifted_chebyshev_polynomial_u = unsupported(
    "aten::special_shifted_chebyshev_polynomial_u"
)
aten_special_shifted_chebyshev_polynomial_v = unsupported(
    "aten::special_shifted_chebyshev_polynomial_v"
)
aten_special_shifted_chebyshev_polynomial_w = unsupported(
    "aten::special_shifted_chebyshev_polynomial_w"
)
aten_special_sinc = elementwise.sinc  # aten::special_sinc, sinc
aten_special_spherical_bessel_j0 = unsupported("aten::special_spherical_bessel_j0")
aten_special_xlog1py = unsupported("aten::special_xlog1py")
# also aten::xlogy.Scalar_Self: elementwise.xlogy_scalar_self
aten_special_xlogy = elementwise.xlogy  # aten::xlogy.Tensor, xlogy.Scalar_Other
aten_special_zeta = unsupported("aten::special_zeta")

__all__ = [
    "aten_special_airy_ai",
    "aten_special_bessel_j0",
    "aten_special_bessel_j1",
    "aten_special_bessel_y0",
    "aten_special_bessel_y1",
    "aten_special_chebyshev_polynomial_t",
    "aten_special_chebyshev_polynomial_u",
    "aten_special_chebyshev_polynomial_v",
    "aten_special_chebyshev_polynomial_w",
    "aten_special_digamma",
    "aten_special_entr",
    "aten_special_erf",
    "aten_special_erfc",
    "aten_special_erfcx",
    "aten_special_erfinv",
    "aten_special_exp2",
    "aten_special_expit",
    "aten_special_expm1",
    "aten_special_gammainc",
    "aten_special_gammaincc",
    "aten_special_gammaln",
    "aten_special_hermite_polynomial_h",
    "aten_special_hermite_polynomial_he",
    "aten_special_i0",
    "aten_special_i0e",
    "aten_special_i1",
    "aten_special_i1e",
    "aten_special_laguerre_polynomial_l",
    "aten_special_legendre_polynomial_p",
    "aten_special_log1p",
    "aten_special_log_ndtr",
    "aten_special_log_softmax",
    "aten_special_logit",
    "aten_special_logsumexp",
    "aten_special_modified_bessel_i0",
    "aten_special_modified_bessel_i1",
    "aten_special_modified_bessel_k0",
    "aten_special_modified_bessel_k1",
    "aten_special_multigammaln",
    "aten_special_ndtr",
    "aten_special_ndtri",
    "aten_special_polygamma",
    "aten_special_psi",
    "aten_special_round",
    "aten_special_scaled_modified_bessel_k0",
    "aten_special_scaled_modified_bessel_k1",
    "aten_special_shifted_chebyshev_polynomial_t",
    "aten_special_shifted_chebyshev_polynomial_u",
    "aten_special_shifted_chebyshev_polynomial_v",
    "aten_special_shifted_chebyshev_polynomial_w",
    "aten_special_sinc",
    "aten_special_spherical_bessel_j0",
    "aten_special_xlog1py",
    "aten_special_xlogy",
    "aten_special_zeta",
    "op",
]
