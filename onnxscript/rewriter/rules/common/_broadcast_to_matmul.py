"""0.7.2's import path ``onnxscript.rewriter.rules.common._broadcast_to_matmul``: MatMul between Reshapes that broadcasting makes unnecessary."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.matmul_reshape import (
    check_if_not_need_reshape,
    one_reshape_matmul_reshape_rule,
    two_reshapes_matmul_reshape_rule,
)

rules = RewriteRuleSet([two_reshapes_matmul_reshape_rule, one_reshape_matmul_reshape_rule])

__all__ = [
    "check_if_not_need_reshape",
    "one_reshape_matmul_reshape_rule",
    "rules",
    "two_reshapes_matmul_reshape_rule",
]
