"""0.7's module path for the match diagnostics (imported by downstream tools)."""

from __future__ import annotations

from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchFailureError, MatchFailureInfo, MatchResult
from onnxscript.rewriter.tracer import MatchInfo, MatchingTracer, MatchStatus

__all__ = [
    "MatchContext",
    "MatchFailureError",
    "MatchFailureInfo",
    "MatchInfo",
    "MatchResult",
    "MatchStatus",
    "MatchingTracer",
]
