"""Fusions of transformer subgraphs into onnxruntime's contrib ops (``com.microsoft``):
``optimize_for_ort(model) -> (model, counts)`` runs them all; each module has its own
``fuse_*`` function."""

from __future__ import annotations

from onnxscript.rewriter.ort_fusions.pipeline import optimize_for_ort

__all__ = ["optimize_for_ort"]
