"""onnxscript 0.7's ``onnxscript._internal.values``: what users hold, which is
:mod:`onnxscript.values` here (``Op``, ``Opset``, ``OnnxFunction``,
``TracedOnnxFunction``)."""

from onnxscript.values import GraphFunction, OnnxFunction, Op, Opset, TracedOnnxFunction

__all__ = ["GraphFunction", "OnnxFunction", "Op", "Opset", "TracedOnnxFunction"]
