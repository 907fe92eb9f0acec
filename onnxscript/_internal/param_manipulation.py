"""onnxscript 0.7's ``onnxscript._internal.param_manipulation`` (separating an op call's
inputs from its attributes). Here calls bind to an op's signature in
:mod:`onnxscript.language.binding` (``bind``, ``Signature``)."""

from onnxscript.language.binding import BoundArguments, Signature, bind

__all__ = ["BoundArguments", "Signature", "bind"]
