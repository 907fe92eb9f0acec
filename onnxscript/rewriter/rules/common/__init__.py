"""Generic simplification rules, one module each; :func:`default_rules` (of
:mod:`.default_set`) is the set ``optimize()`` and ``rewrite()`` apply."""

from __future__ import annotations

from onnxscript.rewriter.rules.common.batchnorm_fusion import (
    fuse_batchnorm_into_conv_rule,
    fuse_batchnorm_into_conv_transpose_rule,
    fuse_batchnorm_into_gemm_rule,
)
from onnxscript.rewriter.rules.common.cast import cast_cast_rule, no_op_cast_rule
from onnxscript.rewriter.rules.common.cast_constant_of_shape import (
    cast_constant_of_shape_rule,
    cast_constant_of_shape_without_value_rule,
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
from onnxscript.rewriter.rules.common.default_set import (
    DEFAULT_RULES,
    default_rule_set,
    default_rules,
)
from onnxscript.rewriter.rules.common.dropout import dropout_inference_rule, dropout_zero_rule
from onnxscript.rewriter.rules.common.expand_before_binary_op import (
    expand_before_binary_op_rules,
)
from onnxscript.rewriter.rules.common.flatten_to_reshape import flatten_to_reshape_rule
from onnxscript.rewriter.rules.common.gemm import (
    matmul_add_to_gemm_rule,
    transpose_a_matmul_add_to_gemm_rule,
    transpose_ab_matmul_add_to_gemm_rule,
    transpose_b_matmul_add_to_gemm_rule,
)
from onnxscript.rewriter.rules.common.hard_swish import fuse_hardswish_rules
from onnxscript.rewriter.rules.common.materialize_reshape_shape import (
    materialize_reshape_shape_rule,
)
from onnxscript.rewriter.rules.common.matmul_reshape import (
    gemm_to_matmul_add_rule,
    one_reshape_matmul_reshape_rule,
    two_reshapes_matmul_reshape_rule,
)
from onnxscript.rewriter.rules.common.min_max import (
    max_max_rule,
    max_min_rule,
    min_max_rule,
    min_min_rule,
)
from onnxscript.rewriter.rules.common.no_op_arithmetic import (
    add_0_rule,
    div_by_1_rule,
    mul_by_1_rule,
    sub_0_rule,
)
from onnxscript.rewriter.rules.common.no_op_expand import no_op_expand_rule
from onnxscript.rewriter.rules.common.optional_bias import (
    remove_optional_bias_from_conv_rule,
    remove_optional_bias_from_conv_transpose_rule,
    remove_optional_bias_from_gemm_rule,
    remove_optional_bias_from_qlinear_conv_rule,
)
from onnxscript.rewriter.rules.common.relu_clip import (
    successive_clip_relu_rule,
    successive_clip_rule,
    successive_relu_clip_rule,
    successive_relu_rule,
)
from onnxscript.rewriter.rules.common.reshape_reshape import reshape_reshape_rule
from onnxscript.rewriter.rules.common.scatter_nd import (
    no_op_dynamic_scatter_nd_rule,
    no_op_static_scatter_nd_rule,
)
from onnxscript.rewriter.rules.common.slice_split import slice_split_rule
from onnxscript.rewriter.rules.common.slices import collapse_slice2_rule, collapse_slice_rule
from onnxscript.rewriter.rules.common.squeeze_reshape import squeeze_reshape_1d_rule
from onnxscript.rewriter.rules.common.transpose import (
    no_op_transpose_rule,
    transpose_transpose_rule,
)
from onnxscript.rewriter.rules.common.unsqueeze_unsqueeze import unsqueeze_unsqueeze_rule

__all__ = [
    "DEFAULT_RULES",
    "add_0_rule",
    "affine_conv_fusion_rule",
    "cast_cast_rule",
    "cast_constant_of_shape_rule",
    "cast_constant_of_shape_without_value_rule",
    "collapse_slice2_rule",
    "collapse_slice_rule",
    "conv_affine_fusion_rule",
    "default_rule_set",
    "default_rules",
    "div_by_1_rule",
    "dropout_inference_rule",
    "dropout_zero_rule",
    "expand_before_binary_op_rules",
    "flatten_to_reshape_rule",
    "fuse_batchnorm_into_conv_rule",
    "fuse_batchnorm_into_conv_transpose_rule",
    "fuse_batchnorm_into_gemm_rule",
    "fuse_hardswish_rules",
    "fuse_pad_into_conv_integer_rule",
    "fuse_pad_into_conv_rule",
    "gemm_to_matmul_add_rule",
    "materialize_reshape_shape_rule",
    "matmul_add_to_gemm_rule",
    "max_max_rule",
    "max_min_rule",
    "min_max_rule",
    "min_min_rule",
    "mul_by_1_rule",
    "no_op_cast_rule",
    "no_op_dynamic_scatter_nd_rule",
    "no_op_expand_rule",
    "no_op_static_scatter_nd_rule",
    "no_op_transpose_rule",
    "normalize_pad_format_conv_integer_rule",
    "normalize_pad_format_conv_rule",
    "one_reshape_matmul_reshape_rule",
    "remove_optional_bias_from_conv_rule",
    "remove_optional_bias_from_conv_transpose_rule",
    "remove_optional_bias_from_gemm_rule",
    "remove_optional_bias_from_qlinear_conv_rule",
    "reshape_reshape_rule",
    "slice_split_rule",
    "squeeze_reshape_1d_rule",
    "sub_0_rule",
    "successive_clip_relu_rule",
    "successive_clip_rule",
    "successive_relu_clip_rule",
    "successive_relu_rule",
    "transpose_a_matmul_add_to_gemm_rule",
    "transpose_ab_matmul_add_to_gemm_rule",
    "transpose_b_matmul_add_to_gemm_rule",
    "transpose_transpose_rule",
    "two_reshapes_matmul_reshape_rule",
    "unsqueeze_unsqueeze_rule",
]
