"""onnxscript 0.7's module path of ``onnxscript.nn.ModuleList`` (:mod:`onnxscript.nn.containers`)."""

from onnxscript.nn.containers import ModuleList

__all__ = ["ModuleList"]
