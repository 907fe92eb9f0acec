"""The structural members of the default rule set, in 0.7.2's order (its
``onnxscript.rewriter._DEFAULT_REWRITE_RULES`` printed in 0.7.2's venv: these rules sit
at positions 8, 9, 12, 13, 28 and 33-45 of its 46, in this order)."""

from __future__ import annotations

import onnxscript.rewriter.rules.common as common
from onnxscript.rewriter.rules.common.defaults_structural import structural_default_rules

ORDER_072 = [
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


def test_order_and_membership() -> None:
    assert [getattr(common, name) for name in ORDER_072] == list(structural_default_rules)


def test_named_rules_outside_the_defaults() -> None:
    others = ["gemm_to_matmul_add_rule", "matmul_add_to_gemm_rule", "affine_conv_fusion_rule"]
    assert not {id(getattr(common, n)) for n in others} & {id(r) for r in structural_default_rules}
