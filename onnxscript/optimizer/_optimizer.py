"""0.7.2's module path for ``optimize_ir`` (:mod:`onnxscript.optimizer.optimize`)."""

from __future__ import annotations

from onnxscript.optimizer.optimize import optimize_ir

__all__ = ["optimize_ir"]
