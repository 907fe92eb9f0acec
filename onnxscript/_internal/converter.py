"""onnxscript 0.7's ``onnxscript._internal.converter`` (its ``Converter`` class compiled a
script's AST). Here the compiler is :mod:`onnxscript.converter` (``compile_function``),
and its error :class:`onnxscript.errors.TranslationError`."""

from onnxscript.converter.function import compile_function
from onnxscript.errors import TranslationError

__all__ = ["TranslationError", "compile_function"]
