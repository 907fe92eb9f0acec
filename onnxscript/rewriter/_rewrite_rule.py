"""0.7's module path for the rule classes (imported by downstream tools)."""

from __future__ import annotations

from onnxscript.rewriter.replacement import ReplacementSubgraph, RewriterContext
from onnxscript.rewriter.rule import Pattern, RewriteRule
from onnxscript.rewriter.rule_class import RewriteRuleClassBase
from onnxscript.rewriter.rule_set import RewriteRuleSet
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
