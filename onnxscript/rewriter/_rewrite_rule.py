"""0.7's module path for the rule classes (imported by downstream tools)."""

from __future__ import annotations

from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import Pattern, RewriteRule
from onnxscript.rewriter.replacement import ReplacementSubgraph, RewriterContext
from onnxscript.rewriter.substitution import RULE_NAME_TAG

__all__ = [
    "RULE_NAME_TAG",
    "Pattern",
    "ReplacementSubgraph",
    "RewriteRule",
    "RewriteRuleClassBase",
    "RewriteRuleSet",
    "RewriterContext",
]
