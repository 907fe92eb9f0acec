"""0.7.2's module path for the builder a replacement function gets as its ``op``
(:class:`onnxscript.rewriter.replacement.RewriterContext`, under 0.7.2's names for it)."""

from __future__ import annotations

from onnxscript.rewriter.replacement import RewriterContext

TapeBuilder = RewriterContext
TapeRewriterContext = RewriterContext
BuilderBase = RewriterContext
OptimizerContext = RewriterContext
UsedOpsets = set[tuple[str, int | None]]

__all__ = [
    "BuilderBase",
    "OptimizerContext",
    "RewriterContext",
    "TapeBuilder",
    "TapeRewriterContext",
    "UsedOpsets",
]
