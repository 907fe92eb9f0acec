"""What a builder error shows: the op, the user's line, and what is known of each input."""

from __future__ import annotations

import linecache
import os
import sys
from collections.abc import Sequence

import onnx_ir as ir

from onnxscript.errors import OnnxScriptError

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_IR_DIR = os.path.dirname(os.path.abspath(ir.__file__))


class BuilderError(OnnxScriptError, ValueError):
    """An op call the builder cannot record: its inputs contradict the op, or an argument
    has no meaning for it. The message names the op, the calling line and the inputs."""


class BuilderArgumentError(BuilderError, TypeError):
    """Arguments that do not fit the op's signature (a ``TypeError``, like a Python call
    with a wrong argument)."""


def user_location() -> str:
    """``file:line`` and the text of the innermost calling frame outside onnxscript and
    onnx_ir (the line of the user's code that made the call), or ``""``."""
    frame = sys._getframe(1)
    while frame is not None:
        path = os.path.abspath(frame.f_code.co_filename)
        if not (path.startswith(_PACKAGE_DIR) or path.startswith(_IR_DIR)):
            linecache.checkcache(frame.f_code.co_filename)  # the line as the file now reads
            text = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
            where = f"{frame.f_code.co_filename}:{frame.f_lineno}"
            return f"{where}: {text}" if text else where
        frame = frame.f_back  # type: ignore[assignment]
    return ""


def describe_value(value: ir.Value | None) -> str:
    """``x: FLOAT [N,64]``, with ``(constant)`` for values whose content is known."""
    if value is None:
        return "(omitted)"
    dtype = value.dtype.name if value.dtype is not None else "unknown type"
    shape = "unknown shape" if value.shape is None else f"[{','.join(map(str, value.shape))}]"
    const = " (constant)" if value.const_value is not None else ""
    return f"{value.name or '(unnamed)'}: {dtype} {shape}{const}"


def op_error(
    op_type: str,
    domain: str,
    message: str,
    inputs: Sequence[ir.Value | None],
    kind: type[BuilderError] = BuilderError,
) -> BuilderError:
    """The error for a failed ``op_type`` call: message, user's line, input facts."""
    name = f"{domain}::{op_type}" if domain else op_type
    lines = [f"{name}: {message}"]
    where = user_location()
    if where:
        lines.append(f"  called at {where}")
    for index, value in enumerate(inputs):
        lines.append(f"  input {index}: {describe_value(value)}")
    return kind("\n".join(lines))


__all__ = ["BuilderArgumentError", "BuilderError", "describe_value", "op_error", "user_location"]
