"""0.7.2's module path for the match diagnostics (imported by downstream tools)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import (
    MatchFailureError,
    MatchFailureInfo,
    MatchResult,
    PartialMatchResult,
)
from onnxscript.rewriter.tracer import MatchInfo, MatchingTracer, MatchStatus

__all__ = [
    "TYPE_CHECKING",
    "MatchContext",
    "MatchFailureError",
    "MatchFailureInfo",
    "MatchInfo",
    "MatchResult",
    "MatchStatus",
    "MatchingTracer",
    "PartialMatchResult",
]
