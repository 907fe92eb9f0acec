"""``from onnxscript.tensor import Tensor``: the module path of onnxscript 0.7 for the eager
tensor (the same class as ``onnxscript.Tensor``)."""

from __future__ import annotations

from onnxscript.evaluator.tensor import Tensor

__all__ = ["Tensor"]
