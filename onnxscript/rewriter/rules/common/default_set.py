"""The default rule set: the rules ``optimize()`` and ``rewrite()`` apply, in the order
they are tried (the first rule that matches a node rewrites it).

The elementwise, cast and shape-chain rules come first, in the order onnxscript 0.7.2's
default set has them; the Add and Mul rules with their commuted forms (``0 + x``, ``1 *
x``), as there. The structural rules (MatMul between Reshapes, Slices, ScatterND,
Pad/BatchNorm into Conv and Gemm, optional biases) follow, in 0.7.2's order among
themselves; 0.7.2 interleaves a few of them with the first group (where is noted
below)."""

from __future__ import annotations

import functools

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import RewriteRule
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
from onnxscript.rewriter.rules.common.conv_pad import (
    fuse_pad_into_conv_integer_rule,
    fuse_pad_into_conv_rule,
    normalize_pad_format_conv_integer_rule,
    normalize_pad_format_conv_rule,
)
from onnxscript.rewriter.rules.common.dropout import dropout_inference_rule, dropout_zero_rule
from onnxscript.rewriter.rules.common.flatten_to_reshape import flatten_to_reshape_rule
from onnxscript.rewriter.rules.common.materialize_reshape_shape import (
    materialize_reshape_shape_rule,
)
from onnxscript.rewriter.rules.common.matmul_reshape import (
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

DEFAULT_RULES: tuple[RewriteRule, ...] = (
    # elementwise, cast and shape-chain rules
    *mul_by_1_rule.commute(),
    *add_0_rule.commute(),
    sub_0_rule,
    div_by_1_rule,
    dropout_zero_rule,
    dropout_inference_rule,
    cast_constant_of_shape_rule,
    cast_constant_of_shape_without_value_rule,
    materialize_reshape_shape_rule,
    min_min_rule,
    max_max_rule,
    min_max_rule,
    max_min_rule,
    successive_clip_relu_rule,
    successive_relu_clip_rule,
    successive_relu_rule,
    successive_clip_rule,
    cast_cast_rule,
    no_op_cast_rule,
    no_op_expand_rule,
    flatten_to_reshape_rule,
    reshape_reshape_rule,
    no_op_transpose_rule,
    transpose_transpose_rule,
    unsqueeze_unsqueeze_rule,
    squeeze_reshape_1d_rule,
    # structural rules (0.7.2 lists the next two after the dropout rules, the two
    # collapse_slice rules after the ConstantOfShape ones, slice_split after
    # reshape_reshape; the rest, as here, last)
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
"""The default rules, in the order they are tried."""


def default_rules() -> list[RewriteRule]:
    """The default rule set, in the order it is applied (a new list each call)."""
    return list(DEFAULT_RULES)


@functools.cache
def default_rule_set() -> RewriteRuleSet:
    """The default rules as one set, built once (rules hold no state between models)."""
    return RewriteRuleSet(default_rules())


__all__ = ["DEFAULT_RULES", "default_rule_set", "default_rules"]
