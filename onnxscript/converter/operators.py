"""Python operators on tensors: ``+ - * / // % ** @``, bitwise, unary, comparisons, and/or.

Which op a Python operator becomes can depend on the element type (``//`` is ``Floor(Div)``
on floats but a floor-corrected ``Div`` on integers; ``&`` is ``And`` on booleans and
``BitwiseAnd`` on integers), so the static element type is consulted.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING

from onnxscript.converter import dtypes
from onnxscript.converter.symbols import AttrRef, Const, Sym
from onnxscript.ir.graph import Value

if TYPE_CHECKING:
    from onnxscript.converter.expressions import ExpressionTranslator

_SIMPLE = {
    ast.Add: "Add",
    ast.Sub: "Sub",
    ast.Mult: "Mul",
    ast.Div: "Div",
    ast.Pow: "Pow",
    ast.MatMult: "MatMul",
}

_COMPARE = {
    ast.Eq: "Equal",
    ast.Lt: "Less",
    ast.LtE: "LessOrEqual",
    ast.Gt: "Greater",
    ast.GtE: "GreaterOrEqual",
}

_SYMBOLS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|",
    ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}  # fmt: skip


def operands(
    t: ExpressionTranslator, node: ast.AST, left: Sym, right: Sym, *, pow_exponent: bool = False
) -> tuple[Value, Value]:
    """Both operands as tensors; Python numbers take the other operand's element type."""
    if isinstance(left, Value):
        lv = left
        rv = t.to_tensor(right, node, like=None if pow_exponent and isinstance(right, Value) else lv)
        return lv, rv
    if isinstance(right, Value):
        rv = right
        return t.to_tensor(left, node, like=rv), rv
    if isinstance(left, AttrRef):
        lv = t.to_tensor(left, node)
        return lv, t.to_tensor(right, node, like=lv)
    if isinstance(right, AttrRef):
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


def binary(
    t: ExpressionTranslator, node: ast.AST, op: ast.operator, left: Sym, right: Sym
) -> Value:
    kind = type(op)
    a, b = operands(t, node, left, right, pow_exponent=kind is ast.Pow)
    b_ = t.builder
    simple = _SIMPLE.get(kind)
    if simple is not None:
        return b_.emit1(simple, a, b, hint=simple.lower())
    dt = _dtype(a, b)
    if kind is ast.FloorDiv:
        if dt in dtypes.FLOAT_TYPES:
            return b_.emit1("Floor", b_.emit1("Div", a, b, hint="div"), hint="floordiv")
        if dt in dtypes.INT_TYPES:
            # Python floors; ONNX Div truncates. (a - a mod b) is a multiple of b.
            rem = b_.emit1("Mod", a, b, hint="mod", fmod=0)
            return b_.emit1("Div", b_.emit1("Sub", a, rem, hint="sub"), b, hint="floordiv")
        raise t.error(
            node,
            "`//` needs to know whether the operands are integers or floats",
            "annotate the inputs with their tensor types (e.g. x: INT64), or write "
            "op.Floor(op.Div(a, b)) for floats",
        )
    if kind is ast.Mod:
        fmod = 1 if dt in dtypes.FLOAT_TYPES else 0
        return b_.emit1("Mod", a, b, hint="mod", fmod=fmod)
    if kind in (ast.BitAnd, ast.BitOr, ast.BitXor):
        name = {ast.BitAnd: "And", ast.BitOr: "Or", ast.BitXor: "Xor"}[kind]
        if dt in dtypes.INT_TYPES:
            return b_.emit1("Bitwise" + name, a, b, hint=name.lower())
        return b_.emit1(name, a, b, hint=name.lower())
    if kind in (ast.LShift, ast.RShift):
        direction = "LEFT" if kind is ast.LShift else "RIGHT"
        return b_.emit1("BitShift", a, b, hint="shift", direction=direction)
    raise t.error(node, f"unsupported operator {_SYMBOLS.get(kind, kind.__name__)}")


def unary(t: ExpressionTranslator, node: ast.UnaryOp, operand: Sym) -> Sym:
    if isinstance(node.op, ast.UAdd):
        return operand
    value = t.to_tensor(operand, node)
    if isinstance(node.op, ast.USub):
        return t.builder.emit1("Neg", value, hint="neg")
    if isinstance(node.op, ast.Not):
        _require_bool(t, node, value, "not")
        return t.builder.emit1("Not", value, hint="not")
    if isinstance(node.op, ast.Invert):
        if dtypes.known_dtype(value) in dtypes.INT_TYPES:
            return t.builder.emit1("BitwiseNot", value, hint="invert")
        return t.builder.emit1("Not", value, hint="not")
    raise t.error(node, f"unsupported unary operator {type(node.op).__name__}")


def _require_bool(t: ExpressionTranslator, node: ast.AST, value: Value, what: str) -> None:
    dt = dtypes.known_dtype(value)
    if dt is not None and dt != dtypes.BOOL:
        raise t.error(
            node,
            f"`{what}` needs BOOL tensors, but this operand is {dtypes.dtype_name(dt)}",
            "compare first, e.g. `x > 0`, or cast with op.Cast(x, to=BOOL)",
        )


def compare(
    t: ExpressionTranslator, node: ast.AST, op: ast.cmpop, left: Sym, right: Sym
) -> Value:
    kind = type(op)
    if kind in (ast.Is, ast.IsNot, ast.In, ast.NotIn):
        word = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}[kind]
        raise t.error(
            node,
            f"`{word}` cannot be used with tensors",
            "use ==, !=, <, <=, >, >= (they compare element-wise)",
        )
    a, b = operands(t, node, left, right)
    if kind is ast.NotEq:
        eq = t.builder.emit1("Equal", a, b, hint="eq")
        return t.builder.emit1("Not", eq, hint="ne")
    name = _COMPARE[kind]
    return t.builder.emit1(name, a, b, hint=name.lower())


def boolean(
    t: ExpressionTranslator,
    node: ast.AST,
    values: Sequence[Sym],
    *,
    is_and: bool | None = None,
) -> Sym:
    """``a and b and ...`` / ``a or b or ...`` element-wise on BOOL tensors."""
    if is_and is None:
        assert isinstance(node, ast.BoolOp)
        is_and = isinstance(node.op, ast.And)
    tensors: list[Value] = []
    for v in values:
        if isinstance(v, Const):
            truth = bool(v.value)
            if truth != is_and:  # False in `and`, True in `or`: decides the result
                return Const(truth)
            continue
        value = t.to_tensor(v, node, dtype=dtypes.BOOL if isinstance(v, AttrRef) else None)
        _require_bool(t, node, value, "and" if is_and else "or")
        tensors.append(value)
    if not tensors:
        return Const(is_and)
    result = tensors[0]
    name = "And" if is_and else "Or"
    for other in tensors[1:]:
        result = t.builder.emit1(name, result, other, hint=name.lower())
    return result
