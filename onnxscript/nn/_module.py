"""onnxscript 0.7's module path of ``onnxscript.nn.Module`` (:mod:`onnxscript.nn.module`)."""

from onnxscript.nn.module import Module

__all__ = ["Module"]
