"""The default rule set as one ordered list: its order (the elementwise, cast and
shape-chain rules in 0.7.2's order, then the structural ones, which 0.7.2's
``onnxscript.rewriter._DEFAULT_REWRITE_RULES``, printed in its venv, has at positions 8,
9, 12, 13, 28 and 33-45 of its 46, in this order), and the faces that read it."""

from __future__ import annotations

import importlib

import onnxscript.rewriter.rules.common as common
from onnxscript.rewriter.rules.common import _basic_rules, default_set

ORDER = [
    "mul_by_1_rule",
    "mul_by_1_rule",
    "add_0_rule",
    "add_0_rule",
    "sub_0_rule",
    "div_by_1_rule",
    "dropout_zero_rule",
    "dropout_inference_rule",
    "cast_constant_of_shape_rule",
    "cast_constant_of_shape_without_value_rule",
    "materialize_reshape_shape_rule",
    "min_min_rule",
    "max_max_rule",
    "min_max_rule",
    "max_min_rule",
    "successive_clip_relu_rule",
    "successive_relu_clip_rule",
    "successive_relu_rule",
    "successive_clip_rule",
    "cast_cast_rule",
    "no_op_cast_rule",
    "no_op_expand_rule",
    "flatten_to_reshape_rule",
    "reshape_reshape_rule",
    "no_op_transpose_rule",
    "transpose_transpose_rule",
    "unsqueeze_unsqueeze_rule",
    "squeeze_reshape_1d_rule",
    "two_reshapes_matmul_reshape_rule",
    "one_reshape_matmul_reshape_rule",
    "collapse_slice_rule",
    "collapse_slice2_rule",
    "slice_split_rule",
    "no_op_dynamic_scatter_nd_rule",
    "no_op_static_scatter_nd_rule",
    "normalize_pad_format_conv_rule",
    "normalize_pad_format_conv_integer_rule",
    "fuse_pad_into_conv_rule",
    "fuse_pad_into_conv_integer_rule",
    "fuse_batchnorm_into_conv_rule",
    "fuse_batchnorm_into_conv_transpose_rule",
    "fuse_batchnorm_into_gemm_rule",
    "remove_optional_bias_from_conv_rule",
    "remove_optional_bias_from_conv_transpose_rule",
    "remove_optional_bias_from_qlinear_conv_rule",
    "remove_optional_bias_from_gemm_rule",
]
"""The rules by their names in ``rules.common`` (the Mul and Add rules twice: the rule
and its commuted form)."""


def test_one_list_in_order() -> None:
    rules = default_set.DEFAULT_RULES
    assert len(rules) == len(ORDER) == 46
    for rule, name in zip(rules, ORDER):
        named = getattr(common, name)
        assert rule is named or rule.name == named.name, name
    assert rules[0] is not rules[1] and rules[2] is not rules[3]  # the commuted forms


def test_the_faces_read_the_one_list() -> None:
    assert common.default_rules() == list(default_set.DEFAULT_RULES)
    assert common.default_rules() is not common.default_rules()  # a new list each call
    assert list(common.default_rule_set().rules) == list(default_set.DEFAULT_RULES)
    assert common.default_rule_set() is common.default_rule_set()
    assert common.DEFAULT_RULES is default_set.DEFAULT_RULES
    rewrite_module = importlib.import_module("onnxscript.rewriter.rewrite")
    assert rewrite_module.default_rules is default_set.default_rules
    basic = list(_basic_rules.basic_optimization_rules().rules)
    assert all(rule in default_set.DEFAULT_RULES for rule in basic)  # 0.7.2's basic rules


def test_named_rules_outside_the_defaults() -> None:
    others = ["gemm_to_matmul_add_rule", "matmul_add_to_gemm_rule", "affine_conv_fusion_rule"]
    assert not {id(getattr(common, n)) for n in others} & {id(r) for r in default_set.DEFAULT_RULES}
