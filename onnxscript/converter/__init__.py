"""The converter: Python function source -> AST -> IR (see ``function.compile_function``)."""

from onnxscript.converter.errors import ScriptError
from onnxscript.converter.function import compile_function
from onnxscript.converter.source import register_source

__all__ = ["ScriptError", "compile_function", "register_source"]
