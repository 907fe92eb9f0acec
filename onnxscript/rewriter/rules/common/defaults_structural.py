"""This package's members of the default rule set (matmul/reshape, slices, scatter,
conv/pad/batchnorm/gemm), in the order onnxscript 0.7.2's default set lists them
(observed by printing ``onnxscript.rewriter._DEFAULT_REWRITE_RULES`` in 0.7.2)."""

from __future__ import annotations

from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.rules.common.batchnorm_fusion import (
    fuse_batchnorm_into_conv_rule,
    fuse_batchnorm_into_conv_transpose_rule,
    fuse_batchnorm_into_gemm_rule,
)
from onnxscript.rewriter.rules.common.conv_pad import (
    fuse_pad_into_conv_integer_rule,
    fuse_pad_into_conv_rule,
    normalize_pad_format_conv_integer_rule,
    normalize_pad_format_conv_rule,
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

# In 0.7.2 the reshape-matmul and collapse-slice rules come between group A's rules
# (positions 8-9 and 12-13 of 46), slice_split_rule at 28, the rest at 33-45.
structural_default_rules: tuple[RewriteRule, ...] = (
    two_reshapes_matmul_reshape_rule,
    one_reshape_matmul_reshape_rule,
    collapse_slice_rule,
    collapse_slice2_rule,
    slice_split_rule,
    no_op_dynamic_scatter_nd_rule,
    no_op_static_scatter_nd_rule,
    normalize_pad_format_conv_rule,
    normalize_pad_format_conv_integer_rule,
    fuse_pad_into_conv_rule,
    fuse_pad_into_conv_integer_rule,
    fuse_batchnorm_into_conv_rule,
    fuse_batchnorm_into_conv_transpose_rule,
    fuse_batchnorm_into_gemm_rule,
    remove_optional_bias_from_conv_rule,
    remove_optional_bias_from_conv_transpose_rule,
    remove_optional_bias_from_qlinear_conv_rule,
    remove_optional_bias_from_gemm_rule,
)

__all__ = ["structural_default_rules"]
