"""Errors of eager evaluation, located at the user's line that made the failing call."""

from __future__ import annotations

import linecache
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from onnxscript.errors import EagerEvaluationError
from onnxscript.evaluator.tensor import describe

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
"""The package's directory (this module is ``onnxscript/evaluator/errors.py``)."""


@dataclass(frozen=True)
class UserLocation:
    """A line of user code: file, line number, enclosing function and the line's text."""

    filename: str
    lineno: int
    function: str
    text: str

    def __str__(self) -> str:
        where = f"{self.filename}:{self.lineno} in {self.function}"
        return f"{where}: {self.text}" if self.text else where


def user_location(skip: int = 1) -> UserLocation | None:
    """The innermost frame on the stack that is not onnxscript's own code."""
    frame = sys._getframe(skip)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not os.path.abspath(filename).startswith(_PACKAGE_DIR) and not filename.startswith(
            "<frozen"
        ):
            linecache.checkcache(filename)  # the line as the file now reads
            text = linecache.getline(filename, frame.f_lineno).strip()
            return UserLocation(filename, frame.f_lineno, frame.f_code.co_name, text)
        frame = frame.f_back  # type: ignore[assignment]
    return None


def op_failure(
    label: str, op_type: str, inputs: Sequence[Any], exc: BaseException
) -> EagerEvaluationError:
    """An :class:`EagerEvaluationError` for ``exc`` raised while running an op."""
    lines = [f"  input {i}: {describe(v)}" for i, v in enumerate(inputs) if v is not None]
    message = str(exc).strip() or type(exc).__name__
    detail = "\n".join([*lines, f"  {type(exc).__name__}: {message}"])
    return EagerEvaluationError(label, op_type, user_location(2), detail)
