"""The matcher classes 0.7's API names. One algorithm serves every pattern here
(:mod:`onnxscript.rewriter.matcher`), so these only select it."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.matcher import match
from onnxscript.rewriter.patterns import GraphPattern


class PatternMatcher:
    """Matches a :class:`GraphPattern` at a node (structure and checkers; no condition)."""

    def __init__(self, pattern: GraphPattern) -> None:
        self.pattern = pattern

    def match(
        self,
        model: ir.Model,
        graph_or_function: ir.Graph | ir.Function,
        node: ir.Node,
        *,
        verbose: int = 0,
        remove_nodes: bool = True,
        tracer: object = None,
    ) -> MatchResult:
        result, _ = match(self.pattern, model, graph_or_function, node, remove_nodes=remove_nodes)
        return result


class SimplePatternMatcher(PatternMatcher):
    """The same matcher (0.7 used it for patterns with one output)."""


__all__ = ["PatternMatcher", "SimplePatternMatcher"]
