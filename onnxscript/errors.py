"""Every error onnxscript raises about what its user wrote, under one base class.

``except onnxscript.OnnxScriptError`` catches all of them. Each class also keeps the
builtin base that callers relied on before (``ValueError`` for a script that cannot be
compiled, ``TypeError`` for wrong arguments, ...), so existing ``except`` clauses still
match.
"""

from __future__ import annotations


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

    ``message`` says what is wrong, ``hint`` what to write instead (may be empty).
    """

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(f"{message}; {hint}" if hint else message)
        self.message = message
        self.hint = hint


class InputTypeError(OnnxScriptError, TypeError):
    """An eager input whose type the op or function does not accept."""


class EagerEvaluationError(OnnxScriptError, RuntimeError):
    """An op failed while running eagerly. Names the op, the user's line and the inputs.

    ``op_type``, ``location`` (where the user's code made the call, or ``None``) and the
    backend's own exception (as ``__cause__``) are available to callers.
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
]
