"""onnxscript 0.7's ``onnxscript._internal.ast_utils`` (reading a function's source and
AST). Here that is :mod:`onnxscript.source`: ``parse_function`` gives a function's AST and
source text, ``split_docstring`` its docstring and body."""

from onnxscript.source import parse_function, split_docstring

__all__ = ["parse_function", "split_docstring"]
