"""0.7.2's import path ``onnxscript.rewriter.rules.common._remove_optional_bias``: zero biases removed."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.optional_bias import (
    RemoveOptionalBiasFromConv,
    RemoveOptionalBiasFromConvTranspose,
    RemoveOptionalBiasFromGemm,
    RemoveOptionalBiasFromQLinearConv,
    remove_optional_bias_from_conv_rule,
    remove_optional_bias_from_conv_transpose_rule,
    remove_optional_bias_from_gemm_rule,
    remove_optional_bias_from_qlinear_conv_rule,
)

rules = RewriteRuleSet(
    [
        remove_optional_bias_from_conv_rule,
        remove_optional_bias_from_conv_transpose_rule,
        remove_optional_bias_from_qlinear_conv_rule,
        remove_optional_bias_from_gemm_rule,
    ]
)

__all__ = [
    "RemoveOptionalBiasFromConv",
    "RemoveOptionalBiasFromConvTranspose",
    "RemoveOptionalBiasFromGemm",
    "RemoveOptionalBiasFromQLinearConv",
    "remove_optional_bias_from_conv_rule",
    "remove_optional_bias_from_conv_transpose_rule",
    "remove_optional_bias_from_gemm_rule",
    "remove_optional_bias_from_qlinear_conv_rule",
    "rules",
]
