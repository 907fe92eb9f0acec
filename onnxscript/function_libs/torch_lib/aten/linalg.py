"""Linear algebra: matrix products (mm, bmm, matmul, addmm and the other ``add*`` forms,
linear, bilinear, einsum), cross products, determinants, vector norms."""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten.complex import abs_ as complex_abs
from onnxscript.function_libs.torch_lib.helpers.complex_layout import (
    PART_TYPE,
    imag_part,
    pack,
    parts_constant,
    real_part,
)
from onnxscript.function_libs.torch_lib.helpers.constants import int64_constant
from onnxscript.function_libs.torch_lib.helpers.facts import rank
from onnxscript.function_libs.torch_lib.helpers.sizes import (
    add,
    concat_shape,
    constant_number,
    dim_size,
    dims_piece,
    is_static,
    scalar_like,
    typed_like,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import (
    INT64,
    TFloat,
    TIntOrUInt8,
    TRealOrUInt8,
)
from onnxscript.onnx_types import FLOAT, INT32

NO_DIM = -(2**62)
"""An omitted optional ``int`` attribute (torch.onnx drops a None, the default applies)."""


def absent_dim(value: Any) -> bool:
    """An optional ``int`` attribute not given (eager callers may still pass None)."""
    return value is None or value == NO_DIM


@aten("aten::mm", "aten::bmm", "aten::matmul")
def matmul(self: TRealOrUInt8, other: TRealOrUInt8) -> TRealOrUInt8:
    """mm(Tensor self, Tensor mat2) -> Tensor"""
    return op.MatMul(self, other)


@aten("aten::addmm")
def addmm(
    self: TRealOrUInt8,
    mat1: TRealOrUInt8,
    mat2: TRealOrUInt8,
    beta: float = 1.0,
    alpha: float = 1.0,
) -> TRealOrUInt8:
    """addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"""
    return op.Gemm(mat1, mat2, self, alpha=float(alpha), beta=float(beta))


@aten("aten::linear")
def linear(
    input: TRealOrUInt8, weight: TRealOrUInt8, bias: TRealOrUInt8 | None = None
) -> TRealOrUInt8:
    """linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor"""
    if rank(input) == 2 and bias is not None:
        return op.Gemm(input, weight, bias, transB=1)
    result = op.MatMul(input, op.Transpose(weight, perm=[1, 0]))
    return result if bias is None else op.Add(result, bias)


@aten("aten::t")
def t(self: TRealOrUInt8) -> TRealOrUInt8:
    """t(Tensor(a) self) -> Tensor(a)"""
    if rank(self) < 2:
        return op.Identity(self)
    return op.Transpose(self, perm=[1, 0])


def _scaled(value: Any, factor: Any) -> Any:
    """``value * factor`` (a Scalar, static or symbolic), no Mul for a static 1."""
    if is_static(factor) and factor == 1:
        return value
    return op.Mul(value, scalar_like(factor, value))


def _beta_self_plus(self: Any, product: Any, beta: Any, alpha: Any) -> Any:
    """``beta * self + alpha * product``; a static beta of 0 ignores ``self`` (NaNs in it
    too), as torch does."""
    scaled = _scaled(typed_like(product, self), alpha)  # the recorder leaves it untyped
    if is_static(beta) and beta == 0:
        return op.Expand(scaled, op.Shape(self))  # self's shape still broadcasts
    return op.Add(_scaled(self, beta), scaled)


@aten("aten::baddbmm")
def baddbmm(
    self: TRealOrUInt8,
    batch1: TRealOrUInt8,
    batch2: TRealOrUInt8,
    *,
    beta: float = 1.0,
    alpha: float = 1.0,
) -> TRealOrUInt8:
    """baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor

    ``beta * self + alpha * (batch1 @ batch2)``.
    """
    return _beta_self_plus(self, op.MatMul(batch1, batch2), beta, alpha)


@aten("aten::addbmm")
def addbmm(
    self: TRealOrUInt8,
    batch1: TRealOrUInt8,
    batch2: TRealOrUInt8,
    *,
    beta: float = 1.0,
    alpha: float = 1.0,
) -> TRealOrUInt8:
    """addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor

    ``beta * self + alpha * sum over the batch of (batch1 @ batch2)``.
    """
    product = op.ReduceSum(op.MatMul(batch1, batch2), [0], keepdims=0)
    return _beta_self_plus(self, product, beta, alpha)


@aten("aten::addmv")
def addmv(
    self: TRealOrUInt8,
    mat: TRealOrUInt8,
    vec: TRealOrUInt8,
    *,
    beta: float = 1.0,
    alpha: float = 1.0,
) -> TRealOrUInt8:
    """addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor

    ``beta * self + alpha * (mat @ vec)``.
    """
    return _beta_self_plus(self, op.MatMul(mat, vec), beta, alpha)


@aten("aten::addr")
def addr(
    self: TRealOrUInt8,
    vec1: TRealOrUInt8,
    vec2: TRealOrUInt8,
    *,
    beta: float = 1.0,
    alpha: float = 1.0,
) -> TRealOrUInt8:
    """addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor

    ``beta * self + alpha * outer(vec1, vec2)``.
    """
    outer = op.Mul(op.Unsqueeze(vec1, [1]), op.Unsqueeze(vec2, [0]))
    return _beta_self_plus(self, outer, beta, alpha)


@aten("aten::dot", "aten::mv")
def dot(self: TRealOrUInt8, tensor: TRealOrUInt8) -> TRealOrUInt8:
    """dot(Tensor self, Tensor tensor) -> Tensor

    Vector . vector, matrix @ vector (MatMul's numpy rule for 1-D operands).
    """
    return op.MatMul(self, tensor)


@aten("aten::dot", "aten::mv", complex=True)
def dot_complex(self: TFloat, tensor: TFloat) -> TFloat:
    """dot(Tensor self, Tensor tensor) -> Tensor

    Complex operands in torch.onnx's layout of parts: the products of the parts.
    """
    ar, ai = real_part(self), imag_part(self)
    br, bi = real_part(tensor), imag_part(tensor)
    real = op.Sub(op.MatMul(ar, br), op.MatMul(ai, bi))
    return pack(real, op.Add(op.MatMul(ar, bi), op.MatMul(ai, br)))


def _complex_mul(x: Any, y: Any) -> Any:
    """The elementwise product of complex tensors in the layout (broadcast)."""
    xr, xi, yr, yi = real_part(x), imag_part(x), real_part(y), imag_part(y)
    return pack(op.Sub(op.Mul(xr, yr), op.Mul(xi, yi)), op.Add(op.Mul(xr, yi), op.Mul(xi, yr)))


def _complex_matmul(x: Any, y: Any) -> Any:
    xr, xi, yr, yi = real_part(x), imag_part(x), real_part(y), imag_part(y)
    real = op.Sub(op.MatMul(xr, yr), op.MatMul(xi, yi))
    return pack(real, op.Add(op.MatMul(xr, yi), op.MatMul(xi, yr)))


def _complex_scaled(z: Any, factor: Any) -> Any:
    """``z * factor`` for a complex tensor and a real or complex number (a constant of
    its (re, im) pair for the latter)."""
    number = constant_number(factor)
    if number == 1:
        return z
    if isinstance(number, complex):
        return _complex_mul(z, op.CastLike(parts_constant(number), z))
    return op.Mul(z, op.CastLike(factor, z))


def _complex_beta_self_plus(self: Any, product: Any, beta: Any, alpha: Any) -> Any:
    """``beta * self + alpha * product`` of complex tensors (``self`` ignored for a
    static beta of 0)."""
    scaled = _complex_scaled(product, alpha)
    if constant_number(beta) == 0:
        return op.Expand(scaled, op.Shape(self))
    return op.Add(_complex_scaled(self, beta), scaled)


@aten("aten::baddbmm", "aten::addmv", complex=True)
def baddbmm_complex(
    self: TFloat, batch1: TFloat, batch2: TFloat, *, beta: float = 1.0, alpha: float = 1.0
) -> TFloat:
    """baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor

    Complex ``beta * self + alpha * (batch1 @ batch2)`` (also ``mat @ vec``).
    """
    return _complex_beta_self_plus(self, _complex_matmul(batch1, batch2), beta, alpha)


@aten("aten::addbmm", complex=True)
def addbmm_complex(
    self: TFloat, batch1: TFloat, batch2: TFloat, *, beta: float = 1.0, alpha: float = 1.0
) -> TFloat:
    """addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"""
    product = op.ReduceSum(_complex_matmul(batch1, batch2), [0], keepdims=0)
    return _complex_beta_self_plus(self, product, beta, alpha)


@aten("aten::addr", complex=True)
def addr_complex(
    self: TFloat, vec1: TFloat, vec2: TFloat, *, beta: float = 1.0, alpha: float = 1.0
) -> TFloat:
    """addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor"""
    outer = _complex_mul(op.Unsqueeze(vec1, [1]), op.Unsqueeze(vec2, [0]))
    return _complex_beta_self_plus(self, outer, beta, alpha)


@aten("aten::bilinear")
def bilinear(
    input1: TRealOrUInt8,
    input2: TRealOrUInt8,
    weight: TRealOrUInt8,
    bias: TRealOrUInt8 | None = None,
) -> TRealOrUInt8:
    """bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor

    ``y[..., o] = x1[..., i] * w[o, i, j] * x2[..., j] + b[o]``: one Einsum.
    """
    result = op.Einsum(input1, weight, input2, equation="...i,oij,...j->...o")
    return result if bias is None else op.Add(result, bias)


@aten("aten::einsum")
def einsum(
    equation: str, tensors: Sequence[TRealOrUInt8], *, path: Sequence[int] = ()
) -> TRealOrUInt8:
    """einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor

    ONNX Einsum (torch's contraction ``path`` is an optimization hint, dropped).
    """
    return op.Einsum(*tensors, equation=equation.replace(" ", ""))


@aten("aten::einsum", complex=True)
def einsum_complex(equation: str, tensors: Sequence[TFloat], *, path: Sequence[int] = ()) -> TFloat:
    """einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor

    Complex operands: the sum over the choices of a part (real or imaginary) per
    operand of the Einsum of those parts, times ``i`` to the count of imaginary ones
    (``2 ** len(tensors)`` Einsums)."""
    formula = equation.replace(" ", "")
    parts = [(real_part(t), imag_part(t)) for t in tensors]
    sums: list[Any] = [None, None]  # the real and imaginary parts
    for choice in itertools.product((0, 1), repeat=len(parts)):
        term = op.Einsum(*(p[c] for p, c in zip(parts, choice)), equation=formula)
        power = sum(choice) % 4
        target = power % 2
        if sums[target] is None:
            sums[target] = op.Neg(term) if power >= 2 else term
        else:
            combine = op.Sub if power >= 2 else op.Add
            sums[target] = combine(sums[target], term)
    return pack(*sums)  # each set: einsum takes at least one operand


@aten("aten::linalg_cross")
def linalg_cross(self: TRealOrUInt8, other: TRealOrUInt8, *, dim: int = -1) -> TRealOrUInt8:
    """linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor

    ``a x b`` along ``dim`` (of size 3): ``a[1,2,0] * b[2,0,1] - a[2,0,1] * b[1,2,0]``,
    the operands broadcast."""
    return _cross(self, other, dim)


@aten("aten::linalg_cross", complex=True)
def linalg_cross_complex(self: TFloat, other: TFloat, *, dim: int = -1) -> TFloat:
    """linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor

    Complex operands: the same products of the parts' layout, multiplied as complex.
    """
    return _cross(self, other, dim, complex_operands=True)


@aten("aten::cross", complex=True)
def cross_complex(self: TFloat, other: TFloat, dim: int = NO_DIM) -> TFloat:
    """cross(Tensor self, Tensor other, int? dim=None) -> Tensor"""
    if absent_dim(dim):
        dim = _first_of_size_3(self, rank(self) - 1)
    return _cross(self, other, dim, complex_operands=True)


def _cross(self: Any, other: Any, dim: int, complex_operands: bool = False) -> Any:
    """``a x b`` along ``dim``; for complex operands, ``dim`` counts the dims before the
    layout's parts axis."""
    parts = int(complex_operands)
    count = max(rank(self), rank(other))
    axis = dim % (count - parts)
    multiply = _complex_mul if complex_operands else op.Mul
    # Gather's axis counts from the front of each operand: align the ranks first.
    a = _with_rank(self, count)
    b = _with_rank(other, count)
    next_a, after_a = op.Gather(a, [1, 2, 0], axis=axis), op.Gather(a, [2, 0, 1], axis=axis)
    next_b, after_b = op.Gather(b, [1, 2, 0], axis=axis), op.Gather(b, [2, 0, 1], axis=axis)
    return op.Sub(multiply(next_a, after_b), multiply(after_a, next_b))


def _with_rank(value: Any, count: int) -> Any:
    """``value`` with leading dims of 1 up to rank ``count`` (broadcasting's alignment)."""
    missing = count - rank(value)
    return op.Unsqueeze(value, list(range(missing))) if missing else value


@aten("aten::cross")
def cross(self: TRealOrUInt8, other: TRealOrUInt8, dim: int = NO_DIM) -> TRealOrUInt8:
    """cross(Tensor self, Tensor other, int? dim=None) -> Tensor

    ``linalg_cross``; without ``dim``, the first dim of size 3 (torch's legacy rule).
    ``dim`` is an attribute (torch.onnx drops a None one) so that it stays a number."""
    if absent_dim(dim):
        dim = _first_of_size_3(self, rank(self))
    return _cross(self, other, dim)


def _first_of_size_3(self: Any, count: int) -> int:
    """The first of the first ``count`` dims of static size 3 (torch's legacy rule)."""
    shape = list(self.shape)[:count] if self.shape is not None else []
    found = [axis for axis, size in enumerate(shape) if size == 3]
    if not found:
        raise ValueError("aten::cross: no dim of static size 3 and no dim given")
    return found[0]


@aten("aten::det", "aten::linalg_det")
def det(self: TFloat) -> TFloat:
    """det(Tensor self) -> Tensor

    The determinant of each matrix of ``[..., n, n]``: ONNX Det.
    """
    return op.Det(self)


@aten("aten::logdet")
def logdet(self: TFloat) -> TFloat:
    """logdet(Tensor self) -> Tensor

    ``log(det)``: NaN for a negative determinant and -inf for 0, as torch gives.
    """
    return op.Log(op.Det(self))


@aten("aten::_linalg_det")
def linalg_det_lu(self: TFloat) -> tuple[TFloat, TFloat, INT32]:
    """_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)

    ``(det, LU, pivots)``. Only the determinant is computed; ONNX has no LU
    factorization, so ``LU`` is ``A`` itself and ``pivots`` the identity permutation
    (1-based INT32, as LAPACK's): right for the determinant's users, not an LU factorization."""
    pivots = op.Range(1, add(dim_size(self, -1), 1), 1)
    shape = concat_shape([dims_piece(self, 0, rank(self) - 2), [1]])
    return op.Det(self), op.Identity(self), op.Cast(op.Expand(pivots, shape), to=INT32.dtype)


@aten("aten::linalg_vector_norm")
def linalg_vector_norm(
    self: TFloat,
    ord: float = 2.0,
    dim: Sequence[int] = (),
    keepdim: bool = False,
    *,
    dtype: int = -1,
) -> TFloat:
    """linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor

    The ``ord``-norm over ``dim`` (all dims when None or empty): ReduceL1/ReduceL2 for
    1 and 2, ReduceMax/ReduceMin of ``|x|`` for +-inf, the count of nonzeros for 0, and
    ``sum(|x|^p)^(1/p)`` otherwise. ``dim`` is an attribute (a None one is dropped)."""
    value = self if dtype in (-1, None) else op.Cast(self, to=dtype)
    return _vector_norm(value, rank(self), ord, dim, keepdim)


@aten("aten::linalg_vector_norm", complex=True)
def linalg_vector_norm_complex(
    self: TFloat,
    ord: float = 2.0,
    dim: Sequence[int] = (),
    keepdim: bool = False,
    *,
    dtype: int = -1,
) -> TFloat:
    """linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor

    The norm of the magnitudes (a complex ``dtype`` names its parts' type).
    """
    value = self if dtype in (-1, None) else op.Cast(self, to=PART_TYPE.get(dtype, dtype))
    return _vector_norm(complex_abs.function(value), rank(self) - 1, ord, dim, keepdim)


def _vector_norm(
    value: Any, count: int, ord: float, dim: Sequence[int] | None, keepdim: bool
) -> Any:
    """The norm of ``value``, of rank ``count`` (the values ops return may have no
    shape while tracing)."""
    scalar = count == 0
    if scalar:
        value = op.Reshape(value, [1])
        dims: list[int] | None = None if keepdim else [0]
        keep = 0
    else:
        dims = list(dim) if dim else None
        keep = int(keepdim)

    def reduce(name: str, operand: Any) -> Any:
        reducer = getattr(op, name)
        if dims is None:
            return reducer(operand, keepdims=keep)
        return reducer(operand, dims, keepdims=keep)

    order = float(ord)
    if order == 2.0:
        result = reduce("ReduceL2", value)
    elif order == 1.0:
        result = reduce("ReduceL1", value)
    elif order == math.inf:
        result = reduce("ReduceMax", op.Abs(value))
    elif order == -math.inf:
        result = reduce("ReduceMin", op.Abs(value))
    elif order == 0.0:
        nonzero = op.Cast(op.Not(op.Equal(value, scalar_like(0, value))), to=FLOAT.dtype)
        result = op.CastLike(reduce("ReduceSum", nonzero), value)
    else:
        powered = op.Pow(op.Abs(value), scalar_like(order, value))
        result = op.Pow(reduce("ReduceSum", powered), scalar_like(1.0 / order, value))
    if scalar and keepdim:
        return op.Reshape(result, [])
    return result


@aten("aten::_grouped_mm")
def grouped_mm(
    self: TFloat,
    mat2: TFloat,
    offs: TIntOrUInt8 | None = None,
    bias: TFloat | None = None,
    out_dtype: int = -1,
) -> TFloat:
    """_grouped_mm(Tensor self, Tensor mat2, Tensor? offs=None, Tensor? bias=None, ScalarType? out_dtype=None) -> Tensor

    Matrix products of groups. Without ``offs``: ``[G, M, K] @ [G, K, N]``. With the
    groups' end offsets ``offs``, along the dim that the 2-D operand(s) share: the rows of
    a ``[M, K]`` self (each group's rows times its ``[K, N]`` of ``mat2``), the columns of
    a ``[K, N]`` mat2, or the inner dim of two 2-D operands (a ``[G, M, N]`` result).
    Each group's product is computed for every row (column) and the group's one kept:
    G times the work, no loop."""
    if bias is not None:
        raise NotImplementedError("aten::_grouped_mm with a bias")
    if offs is None:
        result = op.MatMul(self, mat2)
    else:
        ends = op.Unsqueeze(op.Cast(offs, to=INT64.dtype), [0])  # [1, G]
        if rank(self) == 2 and rank(mat2) == 3:
            products = op.Transpose(op.MatMul(self, mat2), perm=[1, 0, 2])  # [M, G, N]
            groups = _groups_of(dim_size(self, 0), ends)  # [M]
            index = op.Expand(op.Unsqueeze(groups, [1, 2]), _with_dim(products, 1, 1))
            result = op.Squeeze(op.GatherElements(products, index, axis=1), [1])
        elif rank(self) == 3 and rank(mat2) == 2:
            products = op.MatMul(self, mat2)  # [G, M, N]
            groups = _groups_of(dim_size(mat2, 1), ends)  # [N]
            index = op.Expand(op.Unsqueeze(groups, [0, 1]), _with_dim(products, 0, 1))
            result = op.Squeeze(op.GatherElements(products, index, axis=0), [0])
        else:
            inner = op.Range(0, dim_size(self, 1), 1)  # [K]
            starts = op.Concat(int64_constant([[0]]), op.Slice(ends, [0], [-1], [1]), axis=1)
            column = op.Unsqueeze(inner, [1])  # [K, 1]
            inside = op.And(op.GreaterOrEqual(column, starts), op.Less(column, ends))  # [K, G]
            mask = op.CastLike(op.Unsqueeze(op.Transpose(inside, perm=[1, 0]), [1]), self)
            result = op.MatMul(op.Mul(op.Unsqueeze(self, [0]), mask), mat2)  # [G, M, N]
    return result if out_dtype in (-1, None) else op.Cast(result, to=out_dtype)


def _groups_of(count: Any, ends: Any) -> Any:
    """The group of each of ``count`` positions given the groups' ``[1, G]`` end offsets:
    how many ends are at or before it (positions past the last end: the last group)."""
    positions = op.Unsqueeze(op.Range(0, count, 1), [1])  # [count, 1]
    before = op.Cast(op.LessOrEqual(ends, positions), to=INT64.dtype)
    last = op.Sub(op.Shape(ends, start=1), int64_constant([1]))
    return op.Min(op.ReduceSum(before, [1], keepdims=0), last)


def _with_dim(value: Any, axis: int, size: int) -> Any:
    """``value``'s run-time shape with dim ``axis`` replaced by ``size``."""
    return op.Concat(
        op.Shape(value, start=0, end=axis),
        int64_constant([size]),
        op.Shape(value, start=axis + 1),
        axis=0,
    )
