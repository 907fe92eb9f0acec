"""The elementwise, cast and shape-chain rules of the default set, in the order
onnxscript 0.7.2's ``_DEFAULT_REWRITE_RULES`` has them (its other members, the MatMul,
Slice, ScatterND and Conv rules, sit between these there); the Add and Mul rules come
with their commuted forms (``0 + x``, ``1 * x``), as there."""

from __future__ import annotations

from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.rules.common.cast import cast_cast_rule, no_op_cast_rule
from onnxscript.rewriter.rules.common.cast_constant_of_shape import (
    cast_constant_of_shape_rule,
    cast_constant_of_shape_without_value_rule,
)
from onnxscript.rewriter.rules.common.dropout import dropout_inference_rule, dropout_zero_rule
from onnxscript.rewriter.rules.common.flatten_to_reshape import flatten_to_reshape_rule
from onnxscript.rewriter.rules.common.materialize_reshape_shape import (
    materialize_reshape_shape_rule,
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
from onnxscript.rewriter.rules.common.relu_clip import (
    successive_clip_relu_rule,
    successive_clip_rule,
    successive_relu_clip_rule,
    successive_relu_rule,
)
from onnxscript.rewriter.rules.common.reshape_reshape import reshape_reshape_rule
from onnxscript.rewriter.rules.common.squeeze_reshape import squeeze_reshape_1d_rule
from onnxscript.rewriter.rules.common.transpose import (
    no_op_transpose_rule,
    transpose_transpose_rule,
)
from onnxscript.rewriter.rules.common.unsqueeze_unsqueeze import unsqueeze_unsqueeze_rule

elementwise_default_rules: tuple[RewriteRule, ...] = (
    *mul_by_1_rule.commute(),
    *add_0_rule.commute(),
    sub_0_rule,
    div_by_1_rule,
    dropout_zero_rule,
    dropout_inference_rule,
    # 0.7.2: two_reshapes_matmul_reshape_rule, one_reshape_matmul_reshape_rule
    cast_constant_of_shape_rule,
    cast_constant_of_shape_without_value_rule,
    # 0.7.2: collapse_slice_rule, collapse_slice2_rule
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
    # 0.7.2: slice_split_rule
    no_op_transpose_rule,
    transpose_transpose_rule,
    unsqueeze_unsqueeze_rule,
    squeeze_reshape_1d_rule,
    # 0.7.2: the ScatterND, Pad-Conv, BatchNorm and optional-bias rules follow
)
"""Group A of the default rule set, in 0.7.2's order."""

__all__ = ["elementwise_default_rules"]
