"""Capture a Python function's source and parse it to an AST located in the original file.

Works for functions in files, in Jupyter/IPython cells and in code given to ``exec`` whose
source was registered with :mod:`linecache` (see :func:`register_source`).

The function's lines are found from its code object: they start at ``co_firstlineno``
(the first decorator) and end at the last line any instruction of the function (or of a
function nested in it) comes from. This is much cheaper than ``inspect.getsourcelines``,
which tokenizes the file; the latter remains the fallback.
"""

from __future__ import annotations

import ast
import inspect
import linecache
import types
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


def _last_line(code: types.CodeType) -> int:
    last = code.co_firstlineno
    stack = [code]
    while stack:
        current = stack.pop()
        ends = [p[1] for p in current.co_positions() if p[1] is not None]
        if ends:
            last = max(last, max(ends))
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return last


def _function_lines(fn: Callable[..., Any]) -> tuple[list[str], int]:
    """(lines, first line number) of ``fn``'s source, decorators included."""
    code = getattr(fn, "__code__", None)
    if isinstance(code, types.CodeType):
        all_lines = linecache.getlines(code.co_filename, getattr(fn, "__globals__", None))
        first = code.co_firstlineno
        if all_lines and first <= len(all_lines):
            lines = all_lines[first - 1 : _last_line(code)]
            if lines and lines[0].lstrip().startswith(("@", "def ", "async def ")):
                return lines, first
    lines, start = inspect.getsourcelines(fn)
    return lines, start


def parse_function(fn: Callable[..., Any]) -> tuple[ast.FunctionDef, SourceText]:
    """The ``FunctionDef`` of ``fn`` and its located source text.

    Line numbers in the returned AST are relative to ``SourceText.lines``; columns are the
    file's columns (the source is not dedented).
    """
    code = getattr(fn, "__code__", None)
    filename = code.co_filename if code is not None else "<unknown>"
    try:
        lines, start = _function_lines(fn)
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
    if indented:
        # Parse inside an `if` block so that indented source keeps its columns; the extra
        # first line is kept in the line table so that AST line numbers need no shifting.
        lines = ["if 1:\n", *lines]
        start -= 1
    try:
        if indented:
            module = ast.parse("".join(lines), filename=filename)
            stmt: ast.stmt = module.body[0].body[0]  # type: ignore[attr-defined]
        else:
            module = ast.parse(text, filename=filename)
            stmt = module.body[0]
    except SyntaxError as exc:
        raise ScriptError(
            f"cannot parse the source of {fn.__qualname__}: {exc.msg}",
            filename=filename,
            lineno=(exc.lineno or 1) + start - 1,
            source_line=exc.text or "",
            hint="inspect.getsource must return the whole function; lambdas and functions "
            "defined on one line with other code are not supported",
        ) from None
    source = SourceText(filename, tuple(lines), start - 1, synthetic_first_line=indented)
    if not isinstance(stmt, ast.FunctionDef):
        raise source.error(stmt, "@script() must decorate a plain `def` function")
    return stmt, source
