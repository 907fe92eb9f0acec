"""0.7.2's import path ``onnxscript.rewriter.rules.common._min_max_to_clip``: chains of Min and Max made one Min, Max or Clip."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.min_max import (
    FuseMaxMinToClip,
    FuseMinMaxToClip,
    FuseSuccessiveMax,
    FuseSuccessiveMin,
    max_max_rule,
    max_min_rule,
    min_max_rule,
    min_min_rule,
)

rules = RewriteRuleSet([min_min_rule, max_max_rule, min_max_rule, max_min_rule])

__all__ = [
    "FuseMaxMinToClip",
    "FuseMinMaxToClip",
    "FuseSuccessiveMax",
    "FuseSuccessiveMin",
    "max_max_rule",
    "max_min_rule",
    "min_max_rule",
    "min_min_rule",
    "rules",
]
