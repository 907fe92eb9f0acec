"""Arithmetic on symbolic sizes: the Python operators (``_operator::mul``), ``math``
functions (``math::ceil``) and ``aten::sym_*`` overloads torch.export writes when sizes are
dynamic (``batch * seq``, ``(n + 1) // 2``, guards like ``s0 >= 2``).

Operands are rank-0 ``INT64`` (``SymInt``), ``FLOAT`` (``SymFloat``) or ``BOOL``
(``SymBool``) values, or Python numbers that torch made constants of; each function
promotes them as Python does (bool < int < float) and returns the type torch gives the
result, since torch types the value from its own metadata.
"""

from __future__ import annotations

from typing import Any, TypeVar

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten.elementwise import floor_divide_int
from onnxscript.function_libs.torch_lib.helpers.constants import typed_constant
from onnxscript.function_libs.torch_lib.helpers.facts import element_type, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import constant_number, scalar_like
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TAnyTensor
from onnxscript.onnx_types import BOOL, DOUBLE, FLOAT

# Each operand has its own type variable: a Python number next to a SymInt keeps its own
# type (``s0 * 0.5`` is a float) instead of taking its partner's.
TLeft = TypeVar("TLeft", BOOL, INT64, FLOAT, DOUBLE)
TRight = TypeVar("TRight", BOOL, INT64, FLOAT, DOUBLE)

_BOOL, _INT, _FLOAT = 0, 1, 2
_TYPES = {_BOOL: ir.DataType.BOOL, _INT: ir.DataType.INT64, _FLOAT: ir.DataType.FLOAT}


def _kind(value: Any) -> int:
    dtype = element_type(value)
    if dtype == ir.DataType.BOOL:
        return _BOOL
    if dtype is not None and dtype.is_floating_point():
        return _FLOAT
    return _INT


def _as(value: Any, kind: int) -> Any:
    target = _TYPES[kind]
    return value if element_type(value) == target else op.Cast(value, to=target)


def _promoted(a: Any, b: Any, least: int = _INT) -> tuple[Any, Any, int]:
    """Both operands in Python's common type (at least ``least``: bools count as ints in
    arithmetic)."""
    kind = max(_kind(a), _kind(b), least)
    return _as(a, kind), _as(b, kind), kind


@aten("_operator::add")
def sym_add(self: TLeft, other: TRight) -> TLeft:
    a, b, _ = _promoted(self, other)
    return op.Add(a, b)


@aten("_operator::sub")
def sym_sub(self: TLeft, other: TRight) -> TLeft:
    a, b, _ = _promoted(self, other)
    return op.Sub(a, b)


@aten("_operator::mul")
def sym_mul(self: TLeft, other: TRight) -> TLeft:
    a, b, _ = _promoted(self, other)
    return op.Mul(a, b)


@aten("_operator::truediv")
def sym_truediv(self: TLeft, other: TRight) -> FLOAT:
    a, b, _ = _promoted(self, other, least=_FLOAT)
    return op.Div(a, b)


@aten("_operator::floordiv")
def sym_floordiv(self: TLeft, other: TRight) -> TLeft:
    a, b, kind = _promoted(self, other)
    if kind == _INT:
        if _nonnegative(a) and _positive(b):
            return op.Div(a, b)  # truncation is flooring here: no sign fix needed
        return floor_divide_int(a, b)
    return op.Floor(op.Div(a, b))


_SIZE_OPS = {"Shape", "Size"}
_CLOSED_OPS = {"Add", "Mul", "Div", "Max", "Min", "Cast", "Squeeze", "Unsqueeze", "Reshape"}
"""Ops whose result is non-negative when every input is (Div: of non-negative integers)."""


def _nonnegative(value: Any, depth: int = 8) -> bool:
    """Whether ``value`` is known non-negative while tracing: a number >= 0, a size read
    at run time (Shape, Size, a Gather of a Shape), or sums and products of such."""
    number = constant_number(value)
    if number is not None:
        return isinstance(number, (int, float)) and number >= 0
    producer = value.producer() if isinstance(value, ir.Value) else None
    if producer is None or producer.domain != "" or depth == 0:
        return False
    if producer.op_type in _SIZE_OPS:
        return True
    if producer.op_type == "Gather":
        return _nonnegative(producer.inputs[0], depth - 1)
    if producer.op_type == "Max":
        return any(_nonnegative(v, depth - 1) for v in producer.inputs)
    if producer.op_type not in _CLOSED_OPS:
        return False
    data = (
        producer.inputs[:1]
        if producer.op_type in ("Squeeze", "Unsqueeze", "Reshape")
        else producer.inputs
    )
    return all(v is not None and _nonnegative(v, depth - 1) for v in data)


def _positive(value: Any) -> bool:
    number = constant_number(value)
    return isinstance(number, (int, float)) and number > 0


@aten("_operator::mod")
def sym_mod(self: TLeft, other: TRight) -> TLeft:
    """Python's modulo: the result has the sign of the divisor."""
    a, b, kind = _promoted(self, other)
    if kind == _INT:
        return op.Mod(a, b)
    return op.Sub(a, op.Mul(op.Floor(op.Div(a, b)), b))


@aten("_operator::pow")
def sym_pow(self: TLeft, other: TRight) -> TLeft:
    a, b, _ = _promoted(self, other)
    return op.Pow(a, b)


@aten("_operator::neg")
def sym_neg(self: TLeft) -> TLeft:
    return op.Neg(_as(self, max(_kind(self), _INT)))


@aten("_operator::abs")
def sym_abs(self: TLeft) -> TLeft:
    return op.Abs(_as(self, max(_kind(self), _INT)))


@aten("_operator::and_")
def sym_and(self: TLeft, other: TRight) -> TLeft:
    a, b, kind = _promoted(self, other, least=_BOOL)
    return op.And(a, b) if kind == _BOOL else op.BitwiseAnd(_as(a, _INT), _as(b, _INT))


@aten("_operator::or_")
def sym_or(self: TLeft, other: TRight) -> TLeft:
    a, b, kind = _promoted(self, other, least=_BOOL)
    return op.Or(a, b) if kind == _BOOL else op.BitwiseOr(_as(a, _INT), _as(b, _INT))


@aten("_operator::__lshift__")
def sym_lshift(self: TLeft, other: TRight) -> INT64:
    """``a << b`` as ``a * 2**b`` (ONNX BitShift takes unsigned integers only)."""
    a, b = _as(self, _INT), _as(other, _INT)
    return op.Mul(a, op.Pow(typed_constant(2, ir.DataType.INT64), b))


@aten("_operator::__rshift__")
def sym_rshift(self: TLeft, other: TRight) -> INT64:
    """``a >> b`` as ``a // 2**b`` (rounding toward minus infinity, as Python shifts)."""
    a, b = _as(self, _INT), _as(other, _INT)
    return floor_divide_int(a, op.Pow(typed_constant(2, ir.DataType.INT64), b))


def _compare(compare: Any, a: Any, b: Any) -> Any:
    x, y, _ = _promoted(a, b)
    return compare(x, y)


@aten("_operator::eq")
def sym_eq(self: TLeft, other: TRight) -> BOOL:
    return _compare(op.Equal, self, other)


@aten("_operator::ne")
def sym_ne(self: TLeft, other: TRight) -> BOOL:
    return op.Not(_compare(op.Equal, self, other))


@aten("_operator::ge")
def sym_ge(self: TLeft, other: TRight) -> BOOL:
    return _compare(op.GreaterOrEqual, self, other)


@aten("_operator::gt")
def sym_gt(self: TLeft, other: TRight) -> BOOL:
    return _compare(op.Greater, self, other)


@aten("_operator::le")
def sym_le(self: TLeft, other: TRight) -> BOOL:
    return _compare(op.LessOrEqual, self, other)


@aten("_operator::lt")
def sym_lt(self: TLeft, other: TRight) -> BOOL:
    return _compare(op.Less, self, other)


@aten("_operator::getitem")
def sym_getitem(self: TAnyTensor, i: int) -> TAnyTensor:
    """Item ``i`` of a sequence value (``SequenceAt``) or of a 1-D tensor (a shape)."""
    if isinstance(getattr(self, "type", None), ir.SequenceType):
        return op.SequenceAt(self, i)
    return op.Gather(self, i, axis=0)


def _rounded(x: Any, rounding: Any) -> Any:
    """``math.ceil``/``floor``/``trunc``: an int, as Python returns."""
    if _kind(x) != _FLOAT:
        return _as(x, _INT)
    return op.Cast(rounding(x), to=INT64.dtype)


@aten("math::ceil")
def sym_ceil(self: TLeft) -> INT64:
    return _rounded(self, op.Ceil)


@aten("math::floor")
def sym_floor(self: TLeft) -> INT64:
    return _rounded(self, op.Floor)


@aten("math::trunc")
def sym_trunc(self: TLeft) -> INT64:
    return _rounded(self, _trunc)


def _trunc(x: Any) -> Any:
    return op.Where(op.Less(x, scalar_like(0, x)), op.Ceil(x), op.Floor(x))


@aten("aten::sym_size.int")
def sym_size(self: TAnyTensor, dim: int) -> INT64:
    """sym_size.int(Tensor self, int dim) -> SymInt

    The dim as a Squeeze of a one-dim Shape slice: size lists then use the slice itself
    (``sizes.size_pieces``) instead of reshaping the scalar back."""
    axis = dim % rank(self) if getattr(self, "shape", None) is not None else dim
    shape = op.Shape(self, start=axis) if axis == -1 else op.Shape(self, start=axis, end=axis + 1)
    return op.Squeeze(shape)


@aten("aten::sym_numel")
def sym_numel(self: TAnyTensor) -> INT64:
    """sym_numel(Tensor self) -> SymInt"""
    return op.Size(self)


@aten("aten::sym_storage_offset")
def sym_storage_offset(self: TAnyTensor) -> INT64:
    """sym_storage_offset(Tensor self) -> SymInt"""
    return op.Constant(value_int=0)  # exported tensors are fresh, contiguous values


@aten("aten::sym_stride.int")
def sym_stride(self: TAnyTensor, dim: int) -> INT64:
    """sym_stride.int(Tensor self, int dim) -> SymInt

    The contiguous stride of ``dim``: the product of the sizes after it.
    """
    after = op.Shape(self, start=dim % rank(self) + 1)
    return op.ReduceProd(after, keepdims=0)
