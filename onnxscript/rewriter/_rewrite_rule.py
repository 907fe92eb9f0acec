"""0.7.2's module path for the rule classes (imported by downstream tools)."""

from __future__ import annotations

from onnxscript.rewriter.class_rules import PatternBase, RewriteRuleClassBase
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import (
    Pattern,
    ReplacementPatternFunction,
    RewriteRule,
    always_true,
)
from onnxscript.rewriter.replacement import ReplacementSubgraph, RewriterContext
from onnxscript.rewriter.substitution import RULE_NAME_TAG

__all__ = [
    "RULE_NAME_TAG",
    "Pattern",
    "PatternBase",
    "ReplacementPatternFunction",
    "ReplacementSubgraph",
    "RewriteRule",
    "RewriteRuleClassBase",
    "RewriteRuleSet",
    "RewriterContext",
    "always_true",
]
