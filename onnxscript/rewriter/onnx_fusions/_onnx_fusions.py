"""0.7.2's import path ``onnxscript.rewriter.onnx_fusions._onnx_fusions``: ``fuse``."""

from __future__ import annotations

from onnxscript.rewriter.onnx_fusions import fuse

__all__ = ["fuse"]
