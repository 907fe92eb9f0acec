"""0.7.2's import path ``onnxscript.rewriter.rules.common._collapse_slices``: Slices that take everything."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.slices import (
    collapse_slice2_rule,
    collapse_slice_rule,
)

rules = RewriteRuleSet([collapse_slice_rule, collapse_slice2_rule])

__all__ = [
    "collapse_slice2_rule",
    "collapse_slice_rule",
    "rules",
]
