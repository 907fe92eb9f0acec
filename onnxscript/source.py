"""Capture a Python function's source, parse it to an AST located in the original file, and
locate errors in it.

Works for functions in files, in Jupyter/IPython cells, in code given to ``exec`` whose
source was registered (:func:`register_source`; ``exec(source)`` then works as well as
``exec(compile(source, filename, "exec"))``), and at the prompt of ``python -i`` or
``python`` when readline keeps the lines typed (the history is read back).

The function's lines are found from its code object: they start at ``co_firstlineno``
(the first decorator) and end at the last line any instruction of the function (or of a
function nested in it) comes from. This is much cheaper than ``inspect.getsourcelines``,
which tokenizes the file; the latter remains the fallback.
"""

from __future__ import annotations
import __future__

import ast
import inspect
import itertools
import linecache
import sys
import types
from collections.abc import Callable, Iterator
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


_UNNAMED = itertools.count()


def register_source(source: str, filename: str | None = None) -> None:
    """Make ``source`` (Python code run with ``exec``) readable by ``@script()``.

    Functions defined by ``exec(compile(source, filename, "exec"))`` or by a plain
    ``exec(source)`` can then be scripted; errors name ``filename`` (by default a name of the
    form ``<registered source N>``). The text is kept in :mod:`linecache`, as tracebacks
    read it.
    """
    if filename is None:
        filename = f"<registered source {next(_UNNAMED)}>"
    lines = source.splitlines(keepends=True)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    linecache.cache[filename] = (len(source), None, lines, filename)


_FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag


def _starts_function(lines: list[str], first: int) -> bool:
    """Whether line ``first`` (1-based) of ``lines`` starts a decorator or a ``def``."""
    return 0 < first <= len(lines) and lines[first - 1].lstrip().startswith(
        ("@", "def ", "async def ")
    )


def _defines(lines: list[str], filename: str, code: types.CodeType) -> bool:
    """Whether compiling ``lines`` makes a code object equal to ``code`` (same name, first
    line, bytecode, constants and names): then they are the function's source."""
    if not _starts_function(lines, code.co_firstlineno):
        return False
    text = "".join(lines)
    if f"def {code.co_name}" not in text:
        return False
    flags = code.co_flags & _FUTURE_FLAGS
    try:
        module = compile(text, filename, "exec", flags=flags, dont_inherit=True)
    except (SyntaxError, ValueError):
        return False
    stack = [module]
    while stack:
        current = stack.pop()
        if current == code:
            return True
        stack.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
    return False


_CONTINUATIONS = ("else", "elif", "except", "finally", ")", "]", "}")
"""Unindented lines that continue the statement above them."""


def _history_blocks() -> Iterator[list[str]]:
    """The top-level statements typed at the interactive prompt, newest first, read from
    readline's history (none when readline is not loaded, or stdin is not a terminal and
    so the interpreter did not read through readline)."""
    readline = sys.modules.get("readline")
    if readline is None:
        return
    try:
        count = readline.get_current_history_length()
        items = [readline.get_history_item(i) or "" for i in range(1, count + 1)]
    except Exception:  # a readline replacement without the history functions
        return
    lines = [line + "\n" for item in items for line in item.splitlines()]
    starts = [
        i
        for i, line in enumerate(lines)
        if line.strip()
        and line[:1] not in (" ", "\t")
        and not line.startswith(_CONTINUATIONS)
        and not (i > 0 and lines[i - 1].startswith("@"))  # decorated: starts above
    ]
    ends = [*starts[1:], len(lines)]
    for start, end in zip(reversed(starts), reversed(ends)):
        yield lines[start:end]


def _registered_source(code: types.CodeType) -> tuple[str, list[str]] | None:
    """(name, lines) of a registered source or a statement typed at the interactive prompt
    that defines ``code``, found by compiling them: for code given to ``exec`` under
    another file name than its registered source's, and for ``<stdin>``."""
    for name, entry in list(linecache.cache.items()):
        if len(entry) == 4 and entry[1] is None and _defines(list(entry[2]), name, code):
            return name, list(entry[2])
    if code.co_filename == "<stdin>":
        for block in _history_blocks():
            if _defines(block, "<stdin>", code):
                return "<stdin>", block
    return None


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


def _function_lines(fn: Callable[..., Any]) -> tuple[str, list[str], int, int]:
    """(the file name for messages, the file's lines, first line of ``fn`` (its first
    decorator), a lower bound of its last line). The bound may fall short of a statement
    that spans several lines."""
    code = getattr(fn, "__code__", None)
    if isinstance(code, types.CodeType):
        # A file edited since it was cached (importlib.reload, autoreload) is read again;
        # sources registered without a file (notebooks, register_source) are kept.
        linecache.checkcache(code.co_filename)
        all_lines = linecache.getlines(code.co_filename, getattr(fn, "__globals__", None))
        first = code.co_firstlineno
        if _starts_function(all_lines, first):
            return code.co_filename, all_lines, first, _last_code_line(code)
        found = _registered_source(code)
        if found is not None:
            return found[0], found[1], first, _last_code_line(code)
    lines, start = inspect.getsourcelines(fn)
    start = max(start, 1)
    filename = code.co_filename if code is not None else "<unknown>"
    return filename, [""] * (start - 1) + lines, start, start + len(lines) - 1


def _unreadable_hint(filename: str) -> str:
    """What to do when a function's source cannot be found."""
    hint = (
        "define script functions in a file or notebook cell; for code run with exec, call "
        "onnxscript.register_source(source) before exec(source)"
    )
    if filename == "<stdin>":
        hint = (
            "functions typed at the interactive prompt are read back from readline's "
            "history, which is only kept when stdin is a terminal and readline is "
            "available; otherwise " + hint.replace("define", "define the", 1)
        )
    return hint


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
        filename, all_lines, first, last = _function_lines(fn)
    except (OSError, TypeError) as exc:
        raise ScriptError(
            f"cannot read the source of {getattr(fn, '__qualname__', fn)!r}: {exc}",
            filename=filename,
            lineno=getattr(code, "co_firstlineno", 0),
            hint=_unreadable_hint(filename),
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
