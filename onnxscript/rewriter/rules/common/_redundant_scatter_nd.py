"""0.7.2's import path ``onnxscript.rewriter.rules.common._redundant_scatter_nd``: ScatterND that writes every element removed."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.scatter_nd import (
    ScatterAllDynamic,
    ScatterAllStatic,
    no_op_dynamic_scatter_nd_rule,
    no_op_static_scatter_nd_rule,
)

rules = RewriteRuleSet([no_op_dynamic_scatter_nd_rule, no_op_static_scatter_nd_rule])

__all__ = [
    "ScatterAllDynamic",
    "ScatterAllStatic",
    "no_op_dynamic_scatter_nd_rule",
    "no_op_static_scatter_nd_rule",
    "rules",
]
