"""Capture a Python function's source and parse it to an AST located in the original file.

Works for functions in files, in Jupyter/IPython cells and in code given to ``exec`` whose
source was registered with :mod:`linecache` (see :func:`register_source`).
"""

from __future__ import annotations

import ast
import inspect
import linecache
from collections.abc import Callable
from typing import Any

from onnxscript.converter.errors import ScriptError, SourceText


def register_source(source: str, filename: str) -> None:
    """Make ``source`` findable under ``filename``, so that functions defined by
    ``exec(compile(source, filename, "exec"))`` can be scripted."""
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    linecache.cache[filename] = (len(source), None, lines, filename)


def parse_function(fn: Callable[..., Any]) -> tuple[ast.FunctionDef, SourceText]:
    """The ``FunctionDef`` of ``fn`` and its located source text.

    Line numbers in the returned AST are relative to ``SourceText.lines``; columns are the
    file's columns (the source is not dedented).
    """
    code = getattr(fn, "__code__", None)
    filename = code.co_filename if code is not None else "<unknown>"
    try:
        lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError) as exc:
        raise ScriptError(
            f"cannot read the source of {getattr(fn, '__qualname__', fn)!r}: {exc}",
            filename=filename,
            lineno=getattr(code, "co_firstlineno", 0),
            hint="define script functions in a file or notebook cell; for code built as a "
            "string, call onnxscript.register_source(source, filename) before exec",
        ) from None
    start = max(start, 1)
    text = "".join(lines)
    indented = bool(lines) and lines[0][:1] in (" ", "\t")
    try:
        if indented:
            # Parse inside an `if` block so that indented source keeps its columns.
            module = ast.parse("if 1:\n" + text, filename=filename)
            ast.increment_lineno(module, -1)
            stmt: ast.stmt = module.body[0].body[0]  # type: ignore[attr-defined]
        else:
            module = ast.parse(text, filename=filename)
            stmt = module.body[0]
    except SyntaxError as exc:
        raise ScriptError(
            f"cannot parse the source of {fn.__qualname__}: {exc.msg}",
            filename=filename,
            lineno=(exc.lineno or 1) + start - (2 if indented else 1),
            source_line=exc.text or "",
            hint="inspect.getsource must return the whole function; lambdas and functions "
            "defined on one line with other code are not supported",
        ) from None
    source = SourceText(filename, tuple(lines), start - 1)
    if not isinstance(stmt, ast.FunctionDef):
        raise source.error(stmt, "@script() must decorate a plain `def` function")
    return stmt, source
