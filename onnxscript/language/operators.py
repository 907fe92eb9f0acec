"""Python operators in scripts: which ONNX ops they stand for and which element types
their operands take.

``a + b``, ``x // 2``, ``i < n``, ``not c``, ``a and b`` mean the same compiled, run
eagerly or traced: each front end hands its operands to these functions through a
:class:`~onnxscript.language.target.Target`, and the ops come back through its ``emit``.

Operand rules: a run-time tensor keeps its element type; a Python number takes the element
type of the tensor it is combined with; an attribute parameter is cast to that type, or
keeps its own when it meets only literals; a loop index (a Python int at heart) takes the
type of a tensor it meets, and becomes FLOAT next to a Python float. ONNX does not promote
types, so two tensors of different known element types are an error (except for ``**``).
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Sequence
from typing import Any

from onnxscript import dtypes
from onnxscript.errors import OperatorTypeError
from onnxscript.language.target import ATTR, INDEX, LITERAL, TENSOR, Target

Emit = Callable[..., Any]

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

AST_BINARY: dict[type[ast.operator], str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|",
    ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}  # fmt: skip
"""The symbol of each binary operator of Python's AST."""

AST_UNARY: dict[type[ast.unaryop], str] = {
    ast.UAdd: "+", ast.USub: "-", ast.Not: "not", ast.Invert: "~",
}  # fmt: skip

AST_COMPARE: dict[type[ast.cmpop], str] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}  # fmt: skip

_NOT_FOR_TENSORS = frozenset(("is", "is not", "in", "not in"))


def _contains(a: Any, b: Any) -> bool:
    return a in b


def _not_contains(a: Any, b: Any) -> bool:
    return a not in b


PY_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "@": operator.matmul,
    "&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift,
    ">>": operator.rshift,
}  # fmt: skip
"""What each binary operator does to values known now (they are folded by Python)."""

PY_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge, "is": operator.is_, "is not": operator.is_not,
    "in": _contains, "not in": _not_contains,
}  # fmt: skip
"""What each comparison does to values known now."""


# -- which op each operator is ---------------------------------------------------------------


def binary_op(symbol: str, a: Any, b: Any, dtype: int | None, emit: Emit) -> Any:
    """``a <symbol> b`` on two tensors of element type ``dtype`` (if known).

    ``/`` is ONNX ``Div`` (it truncates on integer tensors), ``//`` floors as in Python,
    ``%`` is ``Mod`` with ``fmod=1`` on floats (C fmod, the sign of the dividend) and
    ``fmod=0`` otherwise (the sign of the divisor, as in Python).
    """
    simple = SIMPLE_BINARY.get(symbol)
    if simple is not None:
        return emit(simple, a, b)
    if symbol == "//":
        if dtypes.is_float(dtype):
            return emit("Floor", emit("Div", a, b))
        if dtypes.is_int(dtype):
            # Python floors, ONNX Div truncates; a - (a mod b) is an exact multiple of b.
            return emit("Div", emit("Sub", a, emit("Mod", a, b, fmod=0)), b)
        raise OperatorTypeError(
            "`//` needs to know whether the operands are integers or floats",
            "annotate the inputs with their tensor types (a parameter `x: INT64`), or "
            "write op.Floor(op.Div(..., ...)) for floats",
        )
    if symbol == "%":
        return emit("Mod", a, b, fmod=1 if dtypes.is_float(dtype) else 0)
    if symbol in ("&", "|", "^"):
        require_logical(symbol, dtype)
        name = {"&": "And", "|": "Or", "^": "Xor"}[symbol]
        return emit("Bitwise" + name if dtypes.is_int(dtype) else name, a, b)
    if symbol in ("<<", ">>"):
        require_unsigned(symbol, dtype)
        return emit("BitShift", a, b, direction="LEFT" if symbol == "<<" else "RIGHT")
    raise OperatorTypeError(f"unsupported operator {symbol}")


def unary_op(symbol: str, a: Any, dtype: int | None, emit: Emit) -> Any:
    """``-a``, ``+a``, ``~a`` (``Not`` on booleans, ``BitwiseNot`` on integers), ``not a``."""
    if symbol == "+":
        return a
    if symbol == "-":
        return emit("Neg", a)
    if symbol == "not":
        require_bool(dtype, "not")
        return emit("Not", a)
    if symbol == "~":
        require_logical(symbol, dtype)
        return emit("BitwiseNot" if dtypes.is_int(dtype) else "Not", a)
    raise OperatorTypeError(f"unsupported unary operator {symbol}")


def compare_op(symbol: str, a: Any, b: Any, emit: Emit) -> Any:
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


def require_bool(dtype: int | None, what: str) -> None:
    """Refuse a non-BOOL operand of ``not``/``and``/``or``."""
    if dtype is not None and dtype != dtypes.BOOL:
        raise OperatorTypeError(
            f"`{what}` needs BOOL tensors, but this operand is {dtypes.dtype_name(dtype)}",
            "compare first, e.g. `... > 0`, or cast with op.Cast(..., to=BOOL)",
            operand=0 if what == "not" else None,
        )


def require_logical(symbol: str, dtype: int | None) -> None:
    """Refuse a float (or string) operand of ``~``, ``&``, ``|``, ``^``: they are logical
    on BOOL tensors and bitwise on integers."""
    if dtype is not None and dtype != dtypes.BOOL and not dtypes.is_int(dtype):
        raise OperatorTypeError(
            f"`{symbol}` needs BOOL or integer tensors (logical on BOOL, bitwise on "
            f"integers), but this operand is {dtypes.dtype_name(dtype)}",
            "compare first to get BOOL, e.g. `(... > 0)`, or cast with op.Cast(..., to=INT64)",
        )


def require_unsigned(symbol: str, dtype: int | None) -> None:
    """Refuse a non-unsigned operand of ``<<``/``>>`` (ONNX BitShift takes UINT8 ... UINT64)."""
    if dtype is not None and dtype not in dtypes.UNSIGNED_TYPES:
        raise OperatorTypeError(
            f"`{symbol}` (ONNX BitShift) needs unsigned integer tensors, but this operand is "
            f"{dtypes.dtype_name(dtype)}",
            "cast with op.Cast(..., to=UINT64) first, or multiply/divide by a power of two",
        )


def require_same_dtype(symbol: str, first: int | None, second: int | None) -> None:
    """Refuse two tensors of different known element types: ONNX never converts."""
    if first is not None and second is not None and first != second:
        raise OperatorTypeError(
            f"`{symbol}` combines {dtypes.dtype_name_with_article(first)} tensor with "
            f"{dtypes.dtype_name_with_article(second)} tensor",
            "ONNX does not promote types: cast one operand to the other's type, e.g. "
            f"op.Cast(..., to={dtypes.dtype_name(first)})",
            operand=1,
        )


# -- operands ---------------------------------------------------------------------------------


def _is_float_literal(t: Target, kind: int, operand: Any) -> bool:
    return kind == LITERAL and isinstance(t.literal(operand), float)


def _is_python_int(t: Target, kind: int, operand: Any) -> bool:
    if kind == INDEX:
        return True
    if kind != LITERAL:
        return False
    value = t.literal(operand)
    return isinstance(value, int) and not isinstance(value, bool)


def _operands(t: Target, a: Any, ka: int, b: Any, kb: int) -> tuple[Any, Any]:
    if ka == TENSOR and kb == TENSOR:
        return t.tensor(a), t.tensor(b)
    if ka == INDEX and kb == TENSOR:
        right = t.tensor(b)
        return t.retype_index(a, like=right), right
    if kb == INDEX and ka == TENSOR:
        left = t.tensor(a)
        return left, t.retype_index(b, like=left)
    if ka == INDEX and _is_float_literal(t, kb, b):
        a, ka = t.retype_index(a, dtype=dtypes.FLOAT), TENSOR
    elif kb == INDEX and _is_float_literal(t, ka, a):
        b, kb = t.retype_index(b, dtype=dtypes.FLOAT), TENSOR
    if ka in (TENSOR, INDEX):
        left = t.tensor(a)
        return left, t.tensor(b, like=left)
    if kb in (TENSOR, INDEX) or (kb == ATTR and ka != ATTR):
        right = t.tensor(b)
        return t.tensor(a, like=right), right
    left = t.tensor(a)
    return left, t.tensor(b, like=left)


def operands(t: Target, a: Any, b: Any) -> tuple[Any, Any]:
    """Both operands of a binary operator or comparison as tensors (module docstring)."""
    return _operands(t, a, t.kind(a), b, t.kind(b))


def binary(t: Target, symbol: str, a: Any, b: Any) -> Any:
    """``a <symbol> b`` for the arithmetic and bitwise operators."""
    ka, kb = t.kind(a), t.kind(b)
    left, right = _operands(t, a, ka, b, kb)
    left_type, right_type = t.dtype(left), t.dtype(right)
    if symbol != "**":
        require_same_dtype(symbol, left_type, right_type)
    dtype = left_type if left_type is not None else right_type
    result = binary_op(symbol, left, right, dtype, t.emit)
    if symbol in INT_RESULT_SYMBOLS and _is_python_int(t, ka, a) and _is_python_int(t, kb, b):
        return t.mark_index(result)
    return result


def unary(t: Target, symbol: str, a: Any) -> Any:
    """``-a``, ``+a``, ``~a``, ``not a`` on a tensor operand."""
    if symbol == "+":
        return a
    value = t.tensor(a)
    return unary_op(symbol, value, t.dtype(value), t.emit)


_PRESENCE = {"is": False, "==": False, "is not": True, "!=": True}
"""Comparisons with ``None``: whether they ask that the value be present."""


def _is_none(t: Target, operand: Any) -> bool:
    known, value = t.static(operand)
    return known and value is None


def presence(t: Target, symbol: str, a: Any, b: Any) -> Any:
    """``x is None``, ``x is not None``, ``x == None``, ``x != None`` for a tensor ``x`` (an
    optional input): ``OptionalHasElement(x)``, negated for ``is``/``==``. ``None`` when the
    comparison is not one with ``None``."""
    if symbol not in _PRESENCE or _is_none(t, a) == _is_none(t, b):
        return None
    value = b if _is_none(t, a) else a
    has = t.emit("OptionalHasElement", value)
    return has if _PRESENCE[symbol] else t.emit("Not", has)


def compare(t: Target, symbol: str, a: Any, b: Any) -> Any:
    """``a <symbol> b`` element-wise (``== != < <= > >=``; ``is``/``in`` are refused, except
    in comparisons with ``None``, which test an optional input's presence)."""
    tested = presence(t, symbol, a, b)
    if tested is not None:
        return tested
    if symbol in _NOT_FOR_TENSORS:
        raise OperatorTypeError(
            f"`{symbol}` cannot be used with tensors",
            "use ==, !=, <, <=, >, >= (they compare element-wise)",
        )
    left, right = operands(t, a, b)
    require_same_dtype(symbol, t.dtype(left), t.dtype(right))
    return compare_op(symbol, left, right, t.emit)


def boolean(t: Target, is_and: bool, values: Sequence[Any], truth: Callable[[Any], bool]) -> Any:
    """``a and b and ...`` / ``a or b or ...``.

    Literals alone follow Python (the result is one of them). Otherwise every operand is
    evaluated; a literal whose truth decides the result gives that truth; the tensors are
    combined element-wise with ``And``/``Or`` and must be BOOL (attribute parameters are
    cast to BOOL). ``truth`` is Python's truth test of a literal.
    """
    literals = [t.kind(v) == LITERAL for v in values]
    if all(literals):
        result = t.literal(values[0])
        for v in values[1:]:
            value = t.literal(v)
            result = (result and value) if is_and else (result or value)
        return t.python(result)
    tensors = []
    for value, is_literal in zip(values, literals):
        if is_literal:
            if truth(t.literal(value)) != is_and:
                return t.python(not is_and)
            continue
        is_attr = t.kind(value) == ATTR
        tensors.append(t.tensor(value, dtype=dtypes.BOOL if is_attr else None))
    for tensor in tensors:
        require_bool(t.dtype(tensor), "and" if is_and else "or")
    result = tensors[0]
    for other in tensors[1:]:
        result = t.emit("And" if is_and else "Or", result, other)
    return result


def compare_chain(
    t: Target,
    symbols: Sequence[str],
    values: Sequence[Any],
    fold: Callable[..., Any] | None = None,
) -> Any:
    """``a < b < c``: each comparison on its pair, combined with ``and`` as compiled.
    A pair of values known now (``t.static``) is compared by Python (``PY_COMPARE``),
    as ``fold(compare, left, right)`` when ``fold`` is given (it may turn the exception of a
    failing comparison into the front end's error)."""
    results = []
    for symbol, left, right in zip(symbols, values, values[1:]):
        left_known, left_value = t.static(left)
        right_known, right_value = t.static(right)
        if left_known and right_known:
            compute = PY_COMPARE[symbol]
            folded = (
                fold(compute, left_value, right_value)
                if fold is not None
                else compute(left_value, right_value)
            )
            results.append(t.python(folded))
        else:
            results.append(compare(t, symbol, left, right))
    if len(results) == 1:
        return results[0]
    return boolean(t, True, results, bool)
