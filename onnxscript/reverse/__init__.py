"""Reverse translation: ONNX models, functions and graphs back to readable script source.

:func:`proto2python` writes the source; :func:`exec_script` runs source given as a string
(registering it so that ``@script`` can read it). The translation itself depends only on
onnx protos and produces text.
"""

from onnxscript.reverse.graph_model import TranslationError
from onnxscript.reverse.loading import exec_script
from onnxscript.reverse.translate import proto2python

__all__ = ["TranslationError", "exec_script", "proto2python"]
