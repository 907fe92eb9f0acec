"""0.7.2's module path for the matcher classes (:mod:`onnxscript.rewriter.graph_matching`)."""

from __future__ import annotations

from onnxscript.rewriter.graph_matching import PatternMatcher, SimplePatternMatcher

__all__ = ["PatternMatcher", "SimplePatternMatcher"]
