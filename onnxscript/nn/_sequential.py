"""onnxscript 0.7's module path of ``onnxscript.nn.Sequential`` (:mod:`onnxscript.nn.containers`)."""

from onnxscript.nn.containers import Sequential

__all__ = ["Sequential"]
