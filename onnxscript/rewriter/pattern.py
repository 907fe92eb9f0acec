"""``onnxscript.rewriter.pattern``: the names a rule author imports (as in 0.7)."""

from __future__ import annotations

from onnxscript.rewriter.class_rules import PatternBase, RewriteRuleClassBase
from onnxscript.rewriter.graph_matching import PatternMatcher, SimplePatternMatcher
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_builder import (
    OpPatternBuilder,
    OpsetPatternBuilder,
    msft_op,
    onnxop,
    torch_module_op,
)
from onnxscript.rewriter.pattern_graph import (
    ANY_VALUE,
    AnyValue,
    AttrConstantPattern,
    AttrPattern,
    AttrVar,
    Constant,
    GraphPattern,
    NodeOutputPattern,
    NodePattern,
    OrValue,
    PrefixPattern,
    StringConstantPattern,
    StringPattern,
    ValuePattern,
    Var,
)
from onnxscript.rewriter.pattern_rules import Pattern, ReplacementPatternFunction, RewriteRule
from onnxscript.rewriter.replacement import ReplacementSubgraph, RewriterContext
from onnxscript.rewriter.tracer import MatchInfo, MatchingTracer, MatchStatus

__all__ = [
    "ANY_VALUE",
    "AnyValue",
    "AttrConstantPattern",
    "AttrPattern",
    "AttrVar",
    "Constant",
    "GraphPattern",
    "MatchContext",
    "MatchInfo",
    "MatchResult",
    "MatchStatus",
    "MatchingTracer",
    "NodeOutputPattern",
    "NodePattern",
    "OpPatternBuilder",
    "OpsetPatternBuilder",
    "OrValue",
    "Pattern",
    "PatternBase",
    "PatternMatcher",
    "PrefixPattern",
    "ReplacementPatternFunction",
    "ReplacementSubgraph",
    "RewriteRule",
    "RewriteRuleClassBase",
    "RewriteRuleSet",
    "RewriterContext",
    "SimplePatternMatcher",
    "StringConstantPattern",
    "StringPattern",
    "ValuePattern",
    "Var",
    "msft_op",
    "onnxop",
    "torch_module_op",
]
