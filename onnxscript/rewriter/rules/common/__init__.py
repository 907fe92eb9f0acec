"""Generic simplification rules, one module each; :func:`default_rules` is the set
``optimize()`` and ``rewrite()`` apply."""

from __future__ import annotations

from onnxscript.rewriter.rule import RewriteRule
from onnxscript.rewriter.rules.common.batchnorm_fusion import (
    fuse_batchnorm_into_conv_rule,
    fuse_batchnorm_into_conv_transpose_rule,
    fuse_batchnorm_into_gemm_rule,
)
from onnxscript.rewriter.rules.common.conv_affine import (
    affine_conv_fusion_rule,
    conv_affine_fusion_rule,
)
from onnxscript.rewriter.rules.common.conv_pad import (
    fuse_pad_into_conv_integer_rule,
    fuse_pad_into_conv_rule,
    normalize_pad_format_conv_integer_rule,
    normalize_pad_format_conv_rule,
)
from onnxscript.rewriter.rules.common.gemm import (
    gemm_to_matmul_add_rule,
    matmul_add_to_gemm_rule,
    transpose_a_matmul_add_to_gemm_rule,
    transpose_ab_matmul_add_to_gemm_rule,
    transpose_b_matmul_add_to_gemm_rule,
)
from onnxscript.rewriter.rules.common.matmul_reshape import (
    one_reshape_matmul_reshape_rule,
    two_reshapes_matmul_reshape_rule,
)
from onnxscript.rewriter.rules.common.optional_bias import (
    remove_optional_bias_from_conv_rule,
    remove_optional_bias_from_conv_transpose_rule,
    remove_optional_bias_from_gemm_rule,
    remove_optional_bias_from_qlinear_conv_rule,
)
from onnxscript.rewriter.rules.common.scatter_nd import (
    no_op_dynamic_scatter_nd_rule,
    no_op_static_scatter_nd_rule,
)
from onnxscript.rewriter.rules.common.slice_split import slice_split_rule
from onnxscript.rewriter.rules.common.slices import collapse_slice2_rule, collapse_slice_rule


def default_rules() -> list[RewriteRule]:
    """The default rule set, in the order it is applied."""
    return []


__all__ = [
    "affine_conv_fusion_rule",
    "collapse_slice2_rule",
    "collapse_slice_rule",
    "conv_affine_fusion_rule",
    "default_rules",
    "fuse_batchnorm_into_conv_rule",
    "fuse_batchnorm_into_conv_transpose_rule",
    "fuse_batchnorm_into_gemm_rule",
    "fuse_pad_into_conv_integer_rule",
    "fuse_pad_into_conv_rule",
    "gemm_to_matmul_add_rule",
    "matmul_add_to_gemm_rule",
    "no_op_dynamic_scatter_nd_rule",
    "no_op_static_scatter_nd_rule",
    "normalize_pad_format_conv_integer_rule",
    "normalize_pad_format_conv_rule",
    "one_reshape_matmul_reshape_rule",
    "remove_optional_bias_from_conv_rule",
    "remove_optional_bias_from_conv_transpose_rule",
    "remove_optional_bias_from_gemm_rule",
    "remove_optional_bias_from_qlinear_conv_rule",
    "slice_split_rule",
    "transpose_a_matmul_add_to_gemm_rule",
    "transpose_ab_matmul_add_to_gemm_rule",
    "transpose_b_matmul_add_to_gemm_rule",
    "two_reshapes_matmul_reshape_rule",
]
