"""Capture a Python function's source, parse it to an AST located in the original file, and
locate errors in it.

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
from typing import Any, NamedTuple

from onnxscript.errors import ScriptError


class SourceText(NamedTuple):
    """The source of one function, with the offset of its first line in the file.

    AST line numbers are relative to ``lines``; ``line_offset`` turns them into file lines.
    """

    filename: str
    lines: tuple[str, ...]
    line_offset: int
    synthetic_first_line: bool = False
    function: str = ""

    def text(self) -> str:
        """The function's source as written."""
        return "".join(self.lines[1:] if self.synthetic_first_line else self.lines)

    def error(self, node: ast.AST | None, message: str, hint: str = "") -> ScriptError:
        """A :class:`ScriptError` located at ``node`` (or at the function when ``None``)."""
        lineno = getattr(node, "lineno", 1) if node is not None else 1
        col = getattr(node, "col_offset", 0) if node is not None else 0
        end_col = None
        if node is not None and getattr(node, "end_lineno", None) == lineno:
            end_col = getattr(node, "end_col_offset", None)
        line = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
        col = _char_column(line, col)
        if end_col is not None:
            end_col = _char_column(line, end_col)
        return ScriptError(
            message,
            filename=self.filename,
            lineno=lineno + self.line_offset,
            col=col,
            end_col=end_col,
            source_line=line,
            hint=hint,
        )

    def column(self, node: ast.AST) -> int:
        """The 1-based character column where ``node`` starts."""
        lineno = getattr(node, "lineno", 1)
        offset: int = getattr(node, "col_offset", 0)
        line = self.lines[lineno - 1] if 0 < lineno <= len(self.lines) else ""
        return (offset if line.isascii() else _char_column(line, offset)) + 1

    def segment(self, node: ast.AST) -> str:
        """The source text of ``node`` as written."""
        text = ast.get_source_segment("".join(self.lines), node)
        return text if text is not None else ast.unparse(node)


def _char_column(line: str, byte_offset: int) -> int:
    """AST columns count UTF-8 bytes; carets need characters."""
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))


def register_source(source: str, filename: str) -> None:
    """Make ``source`` findable under ``filename``, so that functions defined by
    ``exec(compile(source, filename, "exec"))`` can be scripted."""
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    linecache.cache[filename] = (len(source), None, lines, filename)


def _last_code_line(code: types.CodeType) -> int:
    """The last line that any instruction of ``code`` (or of code nested in it) starts on."""
    last = code.co_firstlineno
    stack = [code]
    while stack:
        current = stack.pop()
        lines = [line for _, _, line in current.co_lines() if line is not None]
        if lines:
            last = max(last, max(lines))
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return last


def _function_lines(fn: Callable[..., Any]) -> tuple[list[str], int, int]:
    """(the file's lines, first line of ``fn`` (its first decorator), a lower bound of its
    last line). The bound may fall short of a statement that spans several lines."""
    code = getattr(fn, "__code__", None)
    if isinstance(code, types.CodeType):
        # A file edited since it was cached (importlib.reload, autoreload) is read again;
        # sources registered without a file (notebooks, register_source) are kept.
        linecache.checkcache(code.co_filename)
        all_lines = linecache.getlines(code.co_filename, getattr(fn, "__globals__", None))
        first = code.co_firstlineno
        if (
            all_lines
            and first <= len(all_lines)
            and all_lines[first - 1].lstrip().startswith(("@", "def ", "async def "))
        ):
            return all_lines, first, _last_code_line(code)
    lines, start = inspect.getsourcelines(fn)
    start = max(start, 1)
    return [""] * (start - 1) + lines, start, start + len(lines) - 1


INDENTED_PREFIX = "if 1:\n"
"""The line put before indented source (a method, a function defined in a function) so
that it parses with its columns unchanged; line numbers then count this extra line."""


def parse_lines(lines: list[str], filename: str) -> tuple[ast.stmt, bool]:
    """The first statement of source ``lines`` and whether they are indented (then they
    were parsed after :data:`INDENTED_PREFIX`, and AST line numbers are one too high; a
    SyntaxError's line number is corrected)."""
    indented = bool(lines) and lines[0][:1] in (" ", "\t")
    text = (INDENTED_PREFIX if indented else "") + "".join(lines)
    try:
        module = ast.parse(text, filename=filename)
    except SyntaxError as exc:
        if indented and exc.lineno:
            exc.lineno -= 1
        raise
    stmt: ast.stmt = module.body[0]
    if indented:
        stmt = stmt.body[0]  # type: ignore[attr-defined]
    return stmt, indented


def split_docstring(fdef: ast.FunctionDef) -> tuple[str, list[ast.stmt]]:
    """The function's doc string (cleaned by ``inspect.cleandoc``; "" without one) and the
    statements after it."""
    body = list(fdef.body)
    first = body[0] if body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return inspect.cleandoc(first.value.value), body[1:]
    return "", body


def parse_function(fn: Callable[..., Any]) -> tuple[ast.FunctionDef, SourceText]:
    """The ``FunctionDef`` of ``fn`` and its located source text.

    Line numbers in the returned AST are relative to ``SourceText.lines``; columns are the
    file's columns (the source is not dedented).
    """
    code = getattr(fn, "__code__", None)
    filename = code.co_filename if code is not None else "<unknown>"
    try:
        all_lines, first, last = _function_lines(fn)
    except (OSError, TypeError) as exc:
        raise ScriptError(
            f"cannot read the source of {getattr(fn, '__qualname__', fn)!r}: {exc}",
            filename=filename,
            lineno=getattr(code, "co_firstlineno", 0),
            hint="define script functions in a file or notebook cell; for code built as a "
            "string, call onnxscript.register_source(source, filename) before exec",
        ) from None
    last = min(max(last, first), len(all_lines))
    error: SyntaxError | None = None
    # The last line from the bytecode may cut a statement that spans several lines: extend
    # until the text parses.
    for end in range(last, min(last + 200, len(all_lines)) + 1):
        lines = all_lines[first - 1 : end]
        try:
            stmt, indented = parse_lines(lines, filename)
            break
        except SyntaxError as exc:
            error = error or exc
    else:
        assert error is not None
        raise ScriptError(
            f"cannot parse the source of {fn.__qualname__}: {error.msg}",
            filename=filename,
            lineno=(error.lineno or 1) + first - 1,
            source_line=error.text or "",
            hint="the whole function must be readable from its file; lambdas and "
            "functions defined on one line with other code are not supported",
        )
    line_offset = first - 1
    if indented:
        # The extra first line is kept in the line table so that AST line numbers need no
        # shifting.
        lines = [INDENTED_PREFIX, *lines]
        line_offset -= 1
    source = SourceText(
        filename,
        tuple(lines),
        line_offset,
        synthetic_first_line=indented,
        function=getattr(fn, "__qualname__", ""),
    )
    if not isinstance(stmt, ast.FunctionDef):
        raise source.error(stmt, "@script() must decorate a plain `def` function")
    return stmt, source
