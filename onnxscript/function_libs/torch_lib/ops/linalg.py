"""onnxscript 0.7's module path ``onnxscript.function_libs.torch_lib.ops.linalg``: its
names bound to this library's functions (``torch_lib/aten/``, ``torch_lib/helpers/``).

A function 0.7 registered is the one registered here for its first ATen overload (the
comment lists 0.7's overloads, "complex" marking complex variants); a name 0.7 only
declared (raising ``NotImplementedError``) is the function for that operator when the
library has one, else an ``unsupported`` placeholder naming it. Written by
``python tools/torchlib_faces.py``; do not edit.
"""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten import linalg
from onnxscript.function_libs.torch_lib.unsupported import unsupported

aten_linalg_cholesky = unsupported("aten::linalg_cholesky")
aten_linalg_cholesky_ex = unsupported("aten::linalg_cholesky_ex")
aten_linalg_cond = unsupported("aten::linalg_cond")
aten_linalg_cross = linalg.linalg_cross  # aten::linalg_cross (a placeholder in 0.7)
# also aten::_linalg_det: linalg.linalg_det_lu
aten_linalg_det = linalg.det  # aten::linalg_det, det
aten_linalg_diagonal = unsupported("aten::linalg_diagonal")
aten_linalg_eig = unsupported("aten::linalg_eig")
aten_linalg_eigh = unsupported("aten::linalg_eigh")
aten_linalg_eigvals = unsupported("aten::linalg_eigvals")
aten_linalg_eigvalsh = unsupported("aten::linalg_eigvalsh")
aten_linalg_householder_product = unsupported("aten::linalg_householder_product")
aten_linalg_inv = unsupported("aten::linalg_inv")
aten_linalg_inv_ex = unsupported("aten::linalg_inv_ex")
aten_linalg_ldl_factor = unsupported("aten::linalg_ldl_factor")
aten_linalg_ldl_factor_ex = unsupported("aten::linalg_ldl_factor_ex")
aten_linalg_ldl_solve = unsupported("aten::linalg_ldl_solve")
aten_linalg_lstsq = unsupported("aten::linalg_lstsq")
aten_linalg_lu = unsupported("aten::linalg_lu")
aten_linalg_lu_factor = unsupported("aten::linalg_lu_factor")
aten_linalg_lu_factor_ex = unsupported("aten::linalg_lu_factor_ex")
aten_linalg_lu_solve = unsupported("aten::linalg_lu_solve")
aten_linalg_matmul = unsupported("aten::linalg_matmul")
aten_linalg_matrix_exp = unsupported("aten::linalg_matrix_exp")
aten_linalg_matrix_norm = unsupported("aten::linalg_matrix_norm")
aten_linalg_matrix_power = unsupported("aten::linalg_matrix_power")
aten_linalg_matrix_rank = unsupported("aten::linalg_matrix_rank")
aten_linalg_multi_dot = unsupported("aten::linalg_multi_dot")
aten_linalg_norm = unsupported("aten::linalg_norm")
aten_linalg_pinv = unsupported("aten::linalg_pinv")
aten_linalg_qr = unsupported("aten::linalg_qr")
aten_linalg_slogdet = unsupported("aten::linalg_slogdet")
aten_linalg_solve = unsupported("aten::linalg_solve")
aten_linalg_solve_ex = unsupported("aten::linalg_solve_ex")
aten_linalg_solve_triangular = unsupported("aten::linalg_solve_triangular")
aten_linalg_svd = unsupported("aten::linalg_svd")
aten_linalg_svdvals = unsupported("aten::linalg_svdvals")
aten_linalg_tensorinv = unsupported("aten::linalg_tensorinv")
aten_linalg_tensorsolve = unsupported("aten::linalg_tensorsolve")
aten_linalg_vander = unsupported("aten::linalg_vander")
aten_linalg_vecdot = unsupported("aten::linalg_vecdot")
aten_linalg_vector_norm = linalg.linalg_vector_norm  # aten::linalg_vector_norm

__all__ = [
    "aten_linalg_cholesky",
    "aten_linalg_cholesky_ex",
    "aten_linalg_cond",
    "aten_linalg_cross",
    "aten_linalg_det",
    "aten_linalg_diagonal",
    "aten_linalg_eig",
    "aten_linalg_eigh",
    "aten_linalg_eigvals",
    "aten_linalg_eigvalsh",
    "aten_linalg_householder_product",
    "aten_linalg_inv",
    "aten_linalg_inv_ex",
    "aten_linalg_ldl_factor",
    "aten_linalg_ldl_factor_ex",
    "aten_linalg_ldl_solve",
    "aten_linalg_lstsq",
    "aten_linalg_lu",
    "aten_linalg_lu_factor",
    "aten_linalg_lu_factor_ex",
    "aten_linalg_lu_solve",
    "aten_linalg_matmul",
    "aten_linalg_matrix_exp",
    "aten_linalg_matrix_norm",
    "aten_linalg_matrix_power",
    "aten_linalg_matrix_rank",
    "aten_linalg_multi_dot",
    "aten_linalg_norm",
    "aten_linalg_pinv",
    "aten_linalg_qr",
    "aten_linalg_slogdet",
    "aten_linalg_solve",
    "aten_linalg_solve_ex",
    "aten_linalg_solve_triangular",
    "aten_linalg_svd",
    "aten_linalg_svdvals",
    "aten_linalg_tensorinv",
    "aten_linalg_tensorsolve",
    "aten_linalg_vander",
    "aten_linalg_vecdot",
    "aten_linalg_vector_norm",
    "op",
]
