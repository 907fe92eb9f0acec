"""0.7.2's module path for the context a replacement function builds with (its ``op``)."""

from __future__ import annotations

from onnxscript.rewriter.replacement import RewriterContext

__all__ = ["RewriterContext"]
