"""onnxscript 0.7's ``onnxscript._internal.irbuilder`` (``IRFunction``: a compiled
function in the converter's own IR). Here that IR is :mod:`onnxscript.program.graph`;
``IRFunction`` is its ``Function``."""

from onnxscript.program.graph import Function

IRFunction = Function

__all__ = ["IRFunction"]
