"""torch's primitive ops (``prims::``), which decompositions of some ATen ops leave
behind (``aten::any`` becomes convert_element_type, sum and ne), and graphs traced through
``torch._refs``. prims take operands of one shape and type (no broadcasting, no type
promotion). The view prims (broadcast_in_dim, reshape, squeeze, transpose, resize) alias
their input, which torch.export's functionalization refuses: torch.onnx reaches them only
in graphs made otherwise."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.complex_layout import (
    is_complex_dtype,
    real_to_complex,
)
from onnxscript.function_libs.torch_lib.helpers.constants import int64_constant
from onnxscript.function_libs.torch_lib.helpers.facts import is_bool, is_integer, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import scalar_like, shape_input
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import BOOL, TAnyTensor, TRealOrUInt8


@aten("prims::convert_element_type")
def convert_element_type(a: TAnyTensor, dtype: int) -> TAnyTensor:
    """prims::convert_element_type(Tensor a, ScalarType dtype) -> Tensor"""
    if is_complex_dtype(dtype):
        return real_to_complex(a, dtype)
    return op.Cast(a, to=dtype)


def _reduce(onnx_op: str, inp: TAnyTensor, dims: Sequence[int], output_dtype: int) -> TAnyTensor:
    reducer = getattr(op, onnx_op)
    if rank(inp) == 0:
        result = op.Identity(inp)
    elif dims:
        result = reducer(inp, list(dims), keepdims=0)
    else:
        result = op.Identity(inp)  # prims reduce exactly the dims given: none here
    return result if output_dtype == -1 else op.Cast(result, to=output_dtype)


@aten("prims::sum")
def prims_sum(inp: TRealOrUInt8, dims: Sequence[int], *, output_dtype: int = -1) -> TRealOrUInt8:
    """prims::sum(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor"""
    return _reduce("ReduceSum", inp, dims, output_dtype)


@aten("prims::prod")
def prims_prod(inp: TRealOrUInt8, dims: Sequence[int], *, output_dtype: int = -1) -> TRealOrUInt8:
    """prims::prod(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor"""
    return _reduce("ReduceProd", inp, dims, output_dtype)


@aten("prims::amax")
def prims_amax(inp: TRealOrUInt8, dims: Sequence[int], *, output_dtype: int = -1) -> TRealOrUInt8:
    """prims::amax(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor"""
    return _reduce("ReduceMax", inp, dims, output_dtype)


@aten("prims::amin")
def prims_amin(inp: TRealOrUInt8, dims: Sequence[int], *, output_dtype: int = -1) -> TRealOrUInt8:
    """prims::amin(Tensor inp, int[]? dims, *, ScalarType? output_dtype=None) -> Tensor"""
    return _reduce("ReduceMin", inp, dims, output_dtype)


@aten("prims::var")
def prims_var(
    inp: TRealOrUInt8, dims: Sequence[int], correction: float = 1.0, *, output_dtype: int = -1
) -> TRealOrUInt8:
    """prims::var(Tensor inp, int[]? dims, float? correction=1, *, ScalarType? output_dtype=None) -> Tensor"""
    axes = list(dims) if dims else list(range(rank(inp)))
    centered = op.Sub(inp, op.ReduceMean(inp, axes, keepdims=1))
    total = op.ReduceSum(op.Mul(centered, centered), axes, keepdims=0)
    count = scalar_like(op.ReduceProd(op.Gather(op.Shape(inp), axes), keepdims=0), inp)
    result = op.Div(total, op.Sub(count, scalar_like(correction, inp)))
    return result if output_dtype == -1 else op.Cast(result, to=output_dtype)


@aten("prims::ne")
def prims_ne(self: TAnyTensor, other: TAnyTensor) -> BOOL:
    """prims::ne(Tensor self, Tensor other) -> Tensor"""
    return op.Not(op.Equal(self, other))


@aten("prims::eq")
def prims_eq(self: TAnyTensor, other: TAnyTensor) -> BOOL:
    """prims::eq(Tensor self, Tensor other) -> Tensor"""
    return op.Equal(self, other)


def _unary(onnx_op: str, name: str) -> Any:
    """``prims::<name>``: one ONNX op on the tensor (its docstring starts with torch's
    schema for it, as a ``def`` of the library's does)."""

    def prim(self: TRealOrUInt8) -> TRealOrUInt8:
        return getattr(op, onnx_op)(self)

    prim.__name__ = prim.__qualname__ = f"prims_{name}"
    prim.__doc__ = f"prims::{name}(Tensor self) -> Tensor\n\nONNX {onnx_op}."
    return aten(f"prims::{name}")(prim)


prims_abs = _unary("Abs", "abs")
prims_acos = _unary("Acos", "acos")
prims_acosh = _unary("Acosh", "acosh")
prims_asin = _unary("Asin", "asin")
prims_asinh = _unary("Asinh", "asinh")
prims_atan = _unary("Atan", "atan")
prims_atanh = _unary("Atanh", "atanh")
prims_ceil = _unary("Ceil", "ceil")
prims_cos = _unary("Cos", "cos")
prims_cosh = _unary("Cosh", "cosh")
prims_erf = _unary("Erf", "erf")
prims_exp = _unary("Exp", "exp")
prims_floor = _unary("Floor", "floor")
prims_log = _unary("Log", "log")
prims_neg = _unary("Neg", "neg")
prims_round = _unary("Round", "round")  # half to even, as torch
prims_sin = _unary("Sin", "sin")
prims_sinh = _unary("Sinh", "sinh")
prims_sqrt = _unary("Sqrt", "sqrt")
prims_tan = _unary("Tan", "tan")
prims_tanh = _unary("Tanh", "tanh")


@aten("prims::add")
def prims_add(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """prims::add(Tensor self, Tensor other) -> Tensor"""
    return op.Or(self, other) if is_bool(self) else op.Add(self, other)


@aten("prims::sub")
def prims_sub(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """prims::sub(Tensor self, Tensor other) -> Tensor"""
    return op.Sub(self, other)


@aten("prims::mul")
def prims_mul(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """prims::mul(Tensor self, Tensor other) -> Tensor"""
    return op.And(self, other) if is_bool(self) else op.Mul(self, other)


@aten("prims::div")
def prims_div(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """prims::div(Tensor self, Tensor other) -> Tensor

    True division of floats; integers truncate (C's ``/``), as ONNX Div does.
    """
    return op.Div(self, other)


@aten("prims::remainder")
def prims_remainder(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """prims::remainder(Tensor self, Tensor other) -> Tensor

    Python's ``%``: the result takes the divisor's sign.
    """
    if is_integer(self):
        return op.Mod(self, other)
    return op.Sub(self, op.Mul(op.Floor(op.Div(self, other)), other))


@aten("prims::pow")
def prims_pow(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """prims::pow(Tensor self, Tensor other) -> Tensor"""
    return op.Pow(self, other)


@aten("prims::lt")
def prims_lt(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """prims::lt(Tensor self, Tensor other) -> Tensor"""
    return op.Less(self, other)


@aten("prims::le")
def prims_le(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """prims::le(Tensor self, Tensor other) -> Tensor"""
    return op.LessOrEqual(self, other)


@aten("prims::gt")
def prims_gt(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """prims::gt(Tensor self, Tensor other) -> Tensor"""
    return op.Greater(self, other)


@aten("prims::ge")
def prims_ge(self: TRealOrUInt8, other: TRealOrUInt8) -> BOOL:
    """prims::ge(Tensor self, Tensor other) -> Tensor"""
    return op.GreaterOrEqual(self, other)


@aten("prims::where")
def prims_where(pred: BOOL, a: TAnyTensor, b: TAnyTensor) -> TAnyTensor:
    """prims::where(Tensor pred, Tensor a, Tensor b) -> Tensor"""
    return op.Where(pred, a, b)


@aten("prims::broadcast_in_dim")
def prims_broadcast_in_dim(
    a: TAnyTensor, shape: Sequence[int], broadcast_dimensions: Sequence[int]
) -> TAnyTensor:
    """prims::broadcast_in_dim(Tensor(a) a, SymInt[] shape, int[] broadcast_dimensions) -> Tensor(a)

    Dim ``i`` of ``a`` becomes dim ``broadcast_dimensions[i]`` of the result; the
    other dims of ``shape`` are new (``a`` unsqueezed there, then expanded)."""
    kept = set(broadcast_dimensions)
    new_axes = [axis for axis in range(len(shape)) if axis not in kept]
    unsqueezed = op.Unsqueeze(a, new_axes) if new_axes else a
    return op.Expand(unsqueezed, shape_input(list(shape)))


@aten("prims::reshape")
def prims_reshape(a: TAnyTensor, shape: Sequence[int]) -> TAnyTensor:
    """prims::reshape(Tensor a, SymInt[] shape) -> Tensor

    Every size given (no -1); a 0 is a size of 0.
    """
    return op.Reshape(a, shape_input(list(shape)), allowzero=1)


@aten("prims::resize")
def prims_resize(a: TAnyTensor, shape: Sequence[int]) -> TAnyTensor:
    """prims::resize(Tensor(a!) a, SymInt[] shape) -> Tensor(a!)

    ``a``'s elements in order, cut or padded to the new element count (torch leaves the
    new elements uninitialized; they are zeros here)."""
    target = shape_input(list(shape))
    count = op.ReduceProd(target if not isinstance(target, list) else int64_constant(target))
    flat = op.Slice(op.Reshape(a, [-1]), [0], op.Reshape(count, [1]))
    missing = op.Max(op.Sub(count, op.Size(a)), int64_constant(0))
    zero = scalar_like(0, a)
    padded = op.Concat(flat, op.Expand(zero, op.Reshape(missing, [1])), axis=0)
    return op.Reshape(padded, target, allowzero=1)


@aten("prims::squeeze")
def prims_squeeze(a: TAnyTensor, dimensions: Sequence[int]) -> TAnyTensor:
    """prims::squeeze(Tensor(a) a, int[] dimensions) -> Tensor(a)"""
    if not dimensions:
        return op.Identity(a)
    return op.Squeeze(a, list(dimensions))


@aten("prims::transpose")
def prims_transpose(a: TAnyTensor, permutation: Sequence[int]) -> TAnyTensor:
    """prims::transpose(Tensor(a) a, int[] permutation) -> Tensor(a)"""
    return op.Transpose(a, perm=list(permutation))


@aten("prims::device_put")
def prims_device_put(a: TAnyTensor, device: str, non_blocking: bool = False) -> TAnyTensor:
    """prims::device_put(Tensor a, Device device, bool non_blocking=False) -> Tensor

    A copy on another device: the same values.
    """
    return op.Identity(a)
