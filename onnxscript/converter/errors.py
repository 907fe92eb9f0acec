"""The one exception type for errors in user scripts, located in the user's source."""

from __future__ import annotations

import ast
from dataclasses import dataclass


class ScriptError(ValueError):
    """A script uses Python the converter does not accept, or uses an op wrongly.

    Carries the file name, absolute 1-based line, 0-based column, the source line and a hint
    of what to write instead. ``str()`` gives a compiler-style message with a caret.
    """

    def __init__(
        self,
        message: str,
        *,
        filename: str = "<unknown>",
        lineno: int = 0,
        col: int = 0,
        source_line: str = "",
        hint: str = "",
        end_col: int | None = None,
    ) -> None:
        self.message = message
        self.filename = filename
        self.lineno = lineno
        self.col = col
        self.end_col = end_col
        self.source_line = source_line
        self.hint = hint
        super().__init__(self._format())

    def _format(self) -> str:
        text = f"{self.filename}:{self.lineno}:{self.col + 1}: {self.message}"
        if self.source_line:
            line = self.source_line.rstrip("\n")
            stripped = line.lstrip()
            shift = len(line) - len(stripped)
            width = 1
            if self.end_col is not None and self.end_col > self.col:
                width = self.end_col - self.col
            width = max(1, min(width, len(line) - self.col))
            caret = " " * max(self.col - shift, 0) + "^" * width
            text += f"\n    {stripped}\n    {caret}"
        if self.hint:
            text += f"\nhint: {self.hint}"
        return text


@dataclass(slots=True)
class SourceText:
    """The source of one function, with the offset of its first line in the file.

    AST line numbers are relative to ``lines``; ``line_offset`` turns them into file lines.
    """

    filename: str
    lines: tuple[str, ...]
    line_offset: int
    synthetic_first_line: bool = False

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

    def segment(self, node: ast.AST) -> str:
        """The source text of ``node`` as written."""
        text = ast.get_source_segment("".join(self.lines), node)
        return text if text is not None else ast.unparse(node)


def _char_column(line: str, byte_offset: int) -> int:
    """AST columns count UTF-8 bytes; carets need characters."""
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore"))
