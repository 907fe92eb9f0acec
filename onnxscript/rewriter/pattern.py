"""``onnxscript.rewriter.pattern``: the names a rule author imports (as in 0.7)."""

from __future__ import annotations

from onnxscript.rewriter.context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.matchers import PatternMatcher, SimplePatternMatcher
from onnxscript.rewriter.pattern_builder import (
    OpPatternBuilder,
    OpsetPatternBuilder,
    msft_op,
    onnxop,
)
from onnxscript.rewriter.patterns import (
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
from onnxscript.rewriter.replacement import ReplacementSubgraph, RewriterContext
from onnxscript.rewriter.rule import Pattern, ReplacementPatternFunction, RewriteRule
from onnxscript.rewriter.rule_class import PatternBase, RewriteRuleClassBase
from onnxscript.rewriter.rule_set import RewriteRuleSet
from onnxscript.rewriter.tracer import MatchInfo, MatchingTracer, MatchStatus

torch_module_op = OpsetPatternBuilder(PrefixPattern("pkg.torch"))

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
