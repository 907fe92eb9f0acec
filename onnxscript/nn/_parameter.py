"""onnxscript 0.7's module path of ``onnxscript.nn.Parameter`` (:mod:`onnxscript.nn.parameter`)."""

from onnxscript.nn.parameter import Parameter

__all__ = ["Parameter"]
