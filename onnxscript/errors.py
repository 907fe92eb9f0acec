"""Every error onnxscript raises about what its user wrote, under one base class.

``except onnxscript.OnnxScriptError`` catches all of them. Each class also keeps the
builtin base that callers relied on before (``ValueError`` for a script that cannot be
compiled, ``TypeError`` for wrong arguments, ...), so existing ``except`` clauses still
match.
"""

from __future__ import annotations

import os
import types
from typing import TypeVar


class OnnxScriptError(Exception):
    """Base class of the errors onnxscript raises about user code, arguments or models."""


class ScriptError(OnnxScriptError, ValueError):
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


class BindingError(OnnxScriptError, TypeError):
    """Call arguments that do not fit a signature. The message says what was expected."""


class AttributeValueError(OnnxScriptError, TypeError):
    """A value cannot be used for an attribute of the expected kind."""


class OperatorTypeError(OnnxScriptError, TypeError):
    """A Python operator cannot be mapped to an op for its operands' element types.

    ``message`` says what is wrong, ``hint`` what to write instead (may be empty). A ``...``
    in the hint stands for the operand numbered ``operand`` (0 the first), when given: a
    front end that knows that operand's source text puts it in place of the ``...``.
    """

    def __init__(self, message: str, hint: str = "", *, operand: int | None = None) -> None:
        super().__init__(f"{message}; {hint}" if hint else message)
        self.message = message
        self.hint = hint
        self.operand = operand


class InputTypeError(OnnxScriptError, TypeError):
    """An eager input whose type the op or function does not accept."""


class EagerEvaluationError(OnnxScriptError, RuntimeError):
    """An op failed while running eagerly. Names the op, the user's line and the inputs.

    ``op_type``, ``location`` (where the user's code made the call, or ``None``) and
    ``detail`` (the inputs and the backend's own message) are available to callers. The
    backend's exception object is its ``__cause__`` only with ``ONNXSCRIPT_TRACEBACK=1``
    (see :func:`for_user`).
    """

    def __init__(self, label: str, op_type: str, location: object, detail: str) -> None:
        self.op_type = op_type
        self.location = location
        self.detail = detail
        where = f" called at {location}" if location is not None else ""
        super().__init__(f"{label} failed{where}\n{detail}")


class LoweringError(OnnxScriptError, ValueError):
    """The program cannot be expressed as a valid proto (for example an unbound attribute)."""


class TranslationError(OnnxScriptError, ValueError):
    """A proto cannot be translated to script (for example it reads a value nobody defines,
    or uses a construct that scripts cannot express, such as a list-of-graphs attribute)."""


class ModelCheckWarning(UserWarning):
    """``to_model_proto()`` made a model that onnx.checker (full) rejects: a graph input or
    output without a type or shape (an unannotated parameter, ``FLOAT[...]``), which the
    message names with the option that completes it, or the checker's own complaint."""


E = TypeVar("E", bound=BaseException)

TRACEBACK_VARIABLE = "ONNXSCRIPT_TRACEBACK"
"""Set to a non-empty value to see the package's own frames and chained exceptions in
tracebacks (for debugging onnxscript itself); the command line honours it too."""

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _stdlib_dirs() -> tuple[str, ...]:
    import sysconfig

    paths = sysconfig.get_paths()
    return tuple(os.path.abspath(paths[key]) + os.sep for key in ("stdlib", "platstdlib"))


def _kind_of_file(filename: str, stdlib: tuple[str, ...]) -> str:
    """Whose code ``filename`` is: "package", "stdlib" or "other" (the user's code,
    installed libraries)."""
    if filename.startswith("<frozen"):
        return "stdlib"
    if filename.startswith("<"):
        return "other"  # <stdin>, <string>, notebook cells, registered sources
    path = os.path.abspath(filename)
    if path.startswith(_PACKAGE_DIR):
        return "package"
    return "stdlib" if path.startswith(stdlib) else "other"


def for_user(exc: E) -> E:
    """``exc`` with a traceback that shows the user's frames only, to be raised again at
    once by the package's outermost frame (``raise for_user(exc)``), which then is the one
    frame of the package that is shown.

    The package's own frames (and the standard library's frames that the package called)
    are dropped, and chained exceptions (``__cause__``, ``__context__``) are detached: the
    message of an :class:`OnnxScriptError` already says what went wrong and where. With
    the environment variable ``ONNXSCRIPT_TRACEBACK`` set, ``exc`` is returned unchanged.
    """
    if os.environ.get(TRACEBACK_VARIABLE):
        return exc
    tb = exc.__traceback__
    stdlib = _stdlib_dirs()
    kept: list[types.TracebackType] = []
    called_by_package = False
    # The first entry is the frame about to raise ``exc`` again: raising adds it back.
    entry = tb.tb_next if tb is not None else None
    while entry is not None:
        kind = _kind_of_file(entry.tb_frame.f_code.co_filename, stdlib)
        if kind == "package":
            called_by_package = True
        elif kind == "other" or not called_by_package:
            kept.append(entry)
            called_by_package = False
        entry = entry.tb_next
    trimmed: types.TracebackType | None = None
    for entry in reversed(kept):
        trimmed = types.TracebackType(trimmed, entry.tb_frame, entry.tb_lasti, entry.tb_lineno)
    exc.__cause__ = None
    exc.__suppress_context__ = True
    return exc.with_traceback(trimmed)


__all__ = [
    "AttributeValueError",
    "BindingError",
    "EagerEvaluationError",
    "InputTypeError",
    "LoweringError",
    "ModelCheckWarning",
    "OnnxScriptError",
    "OperatorTypeError",
    "ScriptError",
    "TranslationError",
    "for_user",
]
