"""Which ONNX ops Python operators stand for, shared by the converter and eager mode.

Each rule builds its result through an ``emit(op_type, *inputs, **attributes)`` callback:
the converter passes one that adds graph nodes, eager evaluation one that runs the op. So
both paths choose exactly the same ops for ``//``, ``%``, ``&``, ``~``, ``!=``, ...
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import onnx

T = TypeVar("T")
Emit = Callable[..., Any]

FLOAT_TYPES = frozenset(
    code
    for name, code in onnx.TensorProto.DataType.items()
    if name.startswith(("FLOAT", "BFLOAT")) or name == "DOUBLE"
)
"""Element types of floating-point tensors."""
INT_TYPES = frozenset(code for name, code in onnx.TensorProto.DataType.items() if "INT" in name)
"""Element types of integer tensors (signed and unsigned)."""
_BOOL = onnx.TensorProto.BOOL
_STRING = onnx.TensorProto.STRING


class OperatorTypeError(TypeError):
    """An operator cannot be mapped for the operands' element type."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


SIMPLE_BINARY = {"+": "Add", "-": "Sub", "*": "Mul", "/": "Div", "**": "Pow", "@": "MatMul"}
COMPARISONS = {
    "==": "Equal",
    "<": "Less",
    "<=": "LessOrEqual",
    ">": "Greater",
    ">=": "GreaterOrEqual",
}
BINARY_SYMBOLS = (*SIMPLE_BINARY, "//", "%", "&", "|", "^", "<<", ">>")
INT_RESULT_SYMBOLS = frozenset(("+", "-", "*", "//", "%"))
"""Operators that give a Python int for two Python ints (loop indices stay int-like)."""


def is_float(dtype: int | None) -> bool:
    return dtype in FLOAT_TYPES


def is_int(dtype: int | None) -> bool:
    return dtype in INT_TYPES


def binary(symbol: str, a: Any, b: Any, dtype: int | None, emit: Emit) -> Any:
    """``a <symbol> b``; ``dtype`` is the operands' element type if known.

    ``/`` is ONNX ``Div`` (it truncates on integer tensors), ``//`` floors as in Python,
    ``%`` is ``Mod`` with ``fmod=1`` on floats (C fmod, the sign of the dividend) and
    ``fmod=0`` otherwise (the sign of the divisor, as in Python).
    """
    simple = SIMPLE_BINARY.get(symbol)
    if simple is not None:
        return emit(simple, a, b)
    if symbol == "//":
        if is_float(dtype):
            return emit("Floor", emit("Div", a, b))
        if is_int(dtype):
            # Python floors, ONNX Div truncates; a - (a mod b) is an exact multiple of b.
            return emit("Div", emit("Sub", a, emit("Mod", a, b, fmod=0)), b)
        raise OperatorTypeError(
            "`//` needs to know whether the operands are integers or floats",
            "annotate the inputs with their tensor types (e.g. x: INT64), or write "
            "op.Floor(op.Div(a, b)) for floats",
        )
    if symbol == "%":
        return emit("Mod", a, b, fmod=1 if is_float(dtype) else 0)
    if symbol in ("&", "|", "^"):
        name = {"&": "And", "|": "Or", "^": "Xor"}[symbol]
        if is_int(dtype):
            return emit("Bitwise" + name, a, b)
        return emit(name, a, b)
    if symbol in ("<<", ">>"):
        return emit("BitShift", a, b, direction="LEFT" if symbol == "<<" else "RIGHT")
    raise OperatorTypeError(f"unsupported operator {symbol}")


def unary(symbol: str, a: Any, dtype: int | None, emit: Emit) -> Any:
    """``-a``, ``+a``, ``~a`` (``Not`` on booleans, ``BitwiseNot`` on integers), ``not a``."""
    if symbol == "+":
        return a
    if symbol == "-":
        return emit("Neg", a)
    if symbol == "not":
        require_bool(dtype, "not")
        return emit("Not", a)
    if symbol == "~":
        if is_int(dtype):
            return emit("BitwiseNot", a)
        return emit("Not", a)
    raise OperatorTypeError(f"unsupported unary operator {symbol}")


def compare(symbol: str, a: Any, b: Any, emit: Emit) -> Any:
    """``a <symbol> b`` element-wise; ``!=`` is ``Not(Equal)``."""
    if symbol == "!=":
        return emit("Not", emit("Equal", a, b))
    name = COMPARISONS.get(symbol)
    if name is None:
        raise OperatorTypeError(
            f"`{symbol}` cannot be used with tensors",
            "use ==, !=, <, <=, >, >= (they compare element-wise)",
        )
    return emit(name, a, b)


def literal_misfit(value: Any, dtype: int) -> tuple[str, str] | None:
    """Why a Python literal (a number, string, or nested list of them) cannot take the
    element type ``dtype`` faithfully, as (message, hint); None when it can.

    A non-integral float next to an integer or boolean tensor would be truncated, and
    strings and numbers do not mix.
    """
    values = _flatten(value)
    if dtype in INT_TYPES or dtype == _BOOL:
        for v in values:
            if isinstance(v, float) and not (math.isfinite(v) and v.is_integer()):
                name = onnx.TensorProto.DataType.Name(dtype)
                return (
                    f"the float {v!r} is combined with a {name} tensor and would be truncated",
                    "ONNX ops need operands of one type: cast the tensor first, e.g. "
                    "op.Cast(x, to=FLOAT)",
                )
    if dtype == _STRING and any(not isinstance(v, str) for v in values):
        return "a number is combined with a STRING tensor", ""
    if dtype != _STRING and any(isinstance(v, str) for v in values):
        return f"a string is combined with a {onnx.TensorProto.DataType.Name(dtype)} tensor", ""
    return None


def _flatten(value: Any) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        return [value]
    out: list[Any] = []
    for v in value:
        out.extend(_flatten(v))
    return out


def require_bool(dtype: int | None, what: str) -> None:
    if dtype is not None and dtype != _BOOL:
        name = onnx.TensorProto.DataType.Name(dtype)
        raise OperatorTypeError(
            f"`{what}` needs BOOL tensors, but this operand is {name}",
            "compare first, e.g. `x > 0`, or cast with op.Cast(x, to=BOOL)",
        )


def boolean(is_and: bool, values: Sequence[Any], dtypes: Sequence[int | None], emit: Emit) -> Any:
    """``a and b and ...`` / ``a or b or ...``: element-wise ``And``/``Or`` of BOOL tensors
    (both sides are always evaluated)."""
    for dtype in dtypes:
        require_bool(dtype, "and" if is_and else "or")
    result = values[0]
    for other in values[1:]:
        result = emit("And" if is_and else "Or", result, other)
    return result
