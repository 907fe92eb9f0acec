"""Python operators in scripts, lowered with the rules shared with eager mode
(``onnxscript.operator_rules``): the converter supplies operands and a node emitter."""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import onnx

from onnxscript import operator_rules as rules
from onnxscript.converter import dtypes
from onnxscript.converter.symbols import AttrRef, Const, Sym
from onnxscript.ir.graph import Value

if TYPE_CHECKING:
    from onnxscript.converter.expressions import ExpressionTranslator

BINARY_SYMBOLS: dict[type[ast.operator], str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|",
    ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}  # fmt: skip

UNARY_SYMBOLS: dict[type[ast.unaryop], str] = {
    ast.UAdd: "+", ast.USub: "-", ast.Not: "not", ast.Invert: "~",
}  # fmt: skip

COMPARE_SYMBOLS: dict[type[ast.cmpop], str] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in",
}  # fmt: skip


def _emitter(t: ExpressionTranslator) -> Any:
    def emit(op_type: str, *inputs: Value, **attrs: Any) -> Value:
        return t.builder.emit1(op_type, *inputs, hint=op_type.lower(), **attrs)

    return emit


def _py_float(sym: Sym) -> bool:
    return isinstance(sym, Const) and isinstance(sym.value, float)


def operands(t: ExpressionTranslator, node: ast.AST, left: Sym, right: Sym) -> tuple[Value, Value]:
    """Both operands as tensors; Python numbers take the other operand's element type, and
    so do loop indices (which are Python ints in Python) next to a non-index tensor. An
    index next to a Python float becomes a FLOAT, as an int next to a float would."""
    if isinstance(left, Value) and isinstance(right, Value):
        left_idx, right_idx = left in t.int_like, right in t.int_like
        if left_idx and not right_idx:
            return t.retype_int_like(left, like=right), right
        if right_idx and not left_idx:
            return left, t.retype_int_like(right, like=left)
    if t.is_int_like(left) and _py_float(right):
        assert isinstance(left, Value)
        left = t.retype_int_like(left, dtype=dtypes.FLOAT)
    if t.is_int_like(right) and _py_float(left):
        assert isinstance(right, Value)
        right = t.retype_int_like(right, dtype=dtypes.FLOAT)
    if isinstance(left, Value):
        return left, t.to_tensor(right, node, like=left)
    if isinstance(right, Value):
        return t.to_tensor(left, node, like=right), right
    if isinstance(right, AttrRef) and not isinstance(left, AttrRef):
        rv = t.to_tensor(right, node)
        return t.to_tensor(left, node, like=rv), rv
    lv = t.to_tensor(left, node)
    return lv, t.to_tensor(right, node, like=lv)


def _dtype(*values: Value) -> int | None:
    for v in values:
        dt = dtypes.known_dtype(v)
        if dt is not None:
            return dt
    return None


def _same_type(t: ExpressionTranslator, node: ast.AST, symbol: str, a: Value, b: Value) -> None:
    """ONNX operators need both operands of one element type; numpy would promote."""
    t.require_same_dtype(
        node,
        dtypes.known_dtype(a),
        dtypes.known_dtype(b),
        f"`{symbol}` combines a {{0}} tensor with a {{1}} tensor",
        "ONNX does not promote types: cast one operand, e.g. op.Cast(i, to=FLOAT)",
    )


def binary(
    t: ExpressionTranslator, node: ast.AST, op: ast.operator, left: Sym, right: Sym
) -> Value:
    symbol = BINARY_SYMBOLS[type(op)]
    a, b = operands(t, node, left, right)
    if symbol != "**":
        _same_type(t, node, symbol, a, b)
    try:
        result: Value = rules.binary(symbol, a, b, _dtype(a, b), _emitter(t))
    except rules.OperatorTypeError as exc:
        raise t.error(node, exc.message, exc.hint) from None
    if symbol in rules.INT_RESULT_SYMBOLS and t.is_python_int(left) and t.is_python_int(right):
        t.int_like.add(result)
    return result


def unary(t: ExpressionTranslator, node: ast.UnaryOp, operand: Sym) -> Sym:
    symbol = UNARY_SYMBOLS[type(node.op)]
    if symbol == "+":
        return operand
    value = t.to_tensor(operand, node)
    try:
        result: Value = rules.unary(symbol, value, _dtype(value), _emitter(t))
    except rules.OperatorTypeError as exc:
        raise t.error(node, exc.message, exc.hint) from None
    return result


def compare(t: ExpressionTranslator, node: ast.AST, op: ast.cmpop, left: Sym, right: Sym) -> Value:
    symbol = COMPARE_SYMBOLS[type(op)]
    if symbol in ("is", "is not", "in", "not in"):
        raise t.error(
            node,
            f"`{symbol}` cannot be used with tensors",
            "use ==, !=, <, <=, >, >= (they compare element-wise)",
        )
    a, b = operands(t, node, left, right)
    _same_type(t, node, symbol, a, b)
    result: Value = rules.compare(symbol, a, b, _emitter(t))
    return result


def boolean(
    t: ExpressionTranslator,
    node: ast.AST,
    values: Sequence[Sym],
    *,
    is_and: bool | None = None,
) -> Sym:
    """``a and b and ...`` / ``a or b or ...`` element-wise on BOOL tensors. Python
    constants that decide the result fold it (``x or True`` is ``True``)."""
    if is_and is None:
        assert isinstance(node, ast.BoolOp)
        is_and = isinstance(node.op, ast.And)
    tensors: list[Value] = []
    for v in values:
        if isinstance(v, Const) and not isinstance(v.value, (np.ndarray, onnx.TensorProto)):
            truth = t.truth(v.value, node)
            if truth != is_and:
                return Const(truth)
            continue
        value = t.to_tensor(v, node, dtype=dtypes.BOOL if isinstance(v, AttrRef) else None)
        tensors.append(value)
    if not tensors:
        return Const(is_and)
    try:
        result: Value = rules.boolean(
            is_and, tensors, [dtypes.known_dtype(v) for v in tensors], _emitter(t)
        )
    except rules.OperatorTypeError as exc:
        raise t.error(node, exc.message, exc.hint) from None
    return result
