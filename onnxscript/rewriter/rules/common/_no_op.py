"""0.7.2's import path ``onnxscript.rewriter.rules.common._no_op``: ops that change nothing removed."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.dropout import (
    dropout_inference,
    dropout_inference_rule,
    dropout_zero,
    dropout_zero_rule,
)
from onnxscript.rewriter.rules.common.no_op_arithmetic import (
    add_0,
    add_0_rule,
    div_by_1,
    div_by_1_rule,
    identity,
    mul_by_1,
    mul_by_1_rule,
    sub_0,
    sub_0_rule,
)

rules = RewriteRuleSet(
    [
        *mul_by_1_rule.commute(),
        *add_0_rule.commute(),
        sub_0_rule,
        div_by_1_rule,
        dropout_zero_rule,
        dropout_inference_rule,
    ]
)

__all__ = [
    "add_0",
    "add_0_rule",
    "div_by_1",
    "div_by_1_rule",
    "dropout_inference",
    "dropout_inference_rule",
    "dropout_zero",
    "dropout_zero_rule",
    "identity",
    "mul_by_1",
    "mul_by_1_rule",
    "rules",
    "sub_0",
    "sub_0_rule",
]
