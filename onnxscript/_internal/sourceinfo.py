"""onnxscript 0.7's ``onnxscript._internal.sourceinfo`` (where in a script's source a
construct is). Here source text and locations are :mod:`onnxscript.source`
(``SourceText``) and the program IR's ``SourceLocation``."""

from onnxscript.program.graph import SourceLocation
from onnxscript.source import SourceText

__all__ = ["SourceLocation", "SourceText"]
