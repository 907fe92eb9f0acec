"""Reductions: sum, mean, amax/amin, max/min (along a dim or of all), argmax/argmin, prod,
any/all, var and std (with their means), logsumexp and its running form."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.facts import (
    element_type,
    is_bool,
    is_floating,
    rank,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import (
    BOOL,
    INT64,
    TAnyTensor,
    TFloat,
    TRealOrUInt8,
)
from onnxscript.onnx_types import FLOAT, INT32


def _dims(dim: Sequence[int] | int | None) -> list[int] | None:
    """The reduced dims as a list; None (or empty) means all."""
    if dim is None:
        return None
    dims = [dim] if isinstance(dim, int) else list(dim)
    return dims or None


def _reduce(
    onnx_op: str,
    self: TAnyTensor,
    dim: Sequence[int] | int | None,
    keepdim: bool,
    *,
    scalar: bool | None = None,
) -> TAnyTensor:
    """``onnx_op`` over ``dim`` (all dims when None or empty). ``scalar`` says whether
    the original input is 0-d when ``self`` is an intermediate value (recorders may not
    give those a shape)."""
    dims = _dims(dim)
    reducer = getattr(op, onnx_op)
    if (rank(self) == 0) if scalar is None else scalar:
        return op.Identity(self)
    if dims is None:
        return reducer(self, keepdims=int(keepdim))
    return reducer(self, dims, keepdims=int(keepdim))


def with_dtype(self: TAnyTensor, dtype: int) -> TAnyTensor:
    """``self`` cast to ATen's optional ``dtype`` argument (-1 or None: unchanged)."""
    return self if dtype in (-1, None) else op.Cast(self, to=dtype)


@aten("aten::sum.dim_IntList")
def sum_dim(
    self: TRealOrUInt8, dim: Sequence[int] = (), keepdim: bool = False, *, dtype: int = -1
) -> TRealOrUInt8:
    """sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"""
    scalar = rank(self) == 0
    value = with_dtype(self, dtype)
    if dtype in (-1, None) and is_bool(self):
        value = op.Cast(self, to=INT64.dtype)  # torch sums booleans as integers
    return _reduce("ReduceSum", value, dim, keepdim, scalar=scalar)


@aten("aten::sum")
def sum_all(self: TRealOrUInt8, *, dtype: int = -1) -> TRealOrUInt8:
    """sum(Tensor self, *, ScalarType? dtype=None) -> Tensor"""
    return sum_dim(self, None, False, dtype=dtype)


@aten("aten::mean.dim")
def mean_dim(
    self: TRealOrUInt8, dim: Sequence[int] = (), keepdim: bool = False, *, dtype: int = -1
) -> TRealOrUInt8:
    """mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"""
    return _reduce("ReduceMean", with_dtype(self, dtype), dim, keepdim, scalar=rank(self) == 0)


@aten("aten::mean")
def mean_all(self: TRealOrUInt8, *, dtype: int = -1) -> TRealOrUInt8:
    """mean(Tensor self, *, ScalarType? dtype=None) -> Tensor"""
    return mean_dim(self, None, False, dtype=dtype)


@aten("aten::amax")
def amax(self: TRealOrUInt8, dim: Sequence[int] = (), keepdim: bool = False) -> TRealOrUInt8:
    """amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor"""
    return _reduce("ReduceMax", self, dim, keepdim)


@aten("aten::amin")
def amin(self: TRealOrUInt8, dim: Sequence[int] = (), keepdim: bool = False) -> TRealOrUInt8:
    """amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor"""
    return _reduce("ReduceMin", self, dim, keepdim)


@aten("aten::prod")
def prod_all(self: TRealOrUInt8, *, dtype: int = -1) -> TRealOrUInt8:
    """prod(Tensor self, *, ScalarType? dtype=None) -> Tensor"""
    return _reduce("ReduceProd", with_dtype(self, dtype), None, False, scalar=rank(self) == 0)


@aten("aten::prod.dim_int")
def prod_dim(
    self: TRealOrUInt8, dim: int, keepdim: bool = False, *, dtype: int = -1
) -> TRealOrUInt8:
    """prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"""
    return _reduce("ReduceProd", with_dtype(self, dtype), dim, keepdim, scalar=rank(self) == 0)


@aten("aten::max.dim")
def max_dim(self: TRealOrUInt8, dim: int, keepdim: bool = False) -> tuple[TRealOrUInt8, INT64]:
    """max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"""
    if rank(self) == 0:
        return op.Identity(self), op.CastLike(0, op.Shape(self))
    values = op.ReduceMax(self, [dim], keepdims=int(keepdim))
    return values, op.ArgMax(self, axis=dim, keepdims=int(keepdim), select_last_index=0)


@aten("aten::min.dim")
def min_dim(self: TRealOrUInt8, dim: int, keepdim: bool = False) -> tuple[TRealOrUInt8, INT64]:
    """min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)"""
    if rank(self) == 0:
        return op.Identity(self), op.CastLike(0, op.Shape(self))
    values = op.ReduceMin(self, [dim], keepdims=int(keepdim))
    return values, op.ArgMin(self, axis=dim, keepdims=int(keepdim), select_last_index=0)


_ALL = -(2**62)
"""``dim`` not given (torch.onnx drops a None attribute, so the default stands for it)."""


@aten("aten::argmax")
def argmax(self: TRealOrUInt8, dim: int = _ALL, keepdim: bool = False) -> INT64:
    """argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor"""
    if dim == _ALL:
        return op.ArgMax(op.Reshape(self, [-1]), axis=0, keepdims=0)
    if rank(self) == 0:
        return op.Constant(value_int=0)
    return op.ArgMax(self, axis=dim, keepdims=int(keepdim))


@aten("aten::argmin")
def argmin(self: TRealOrUInt8, dim: int = _ALL, keepdim: bool = False) -> INT64:
    """argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor"""
    if dim == _ALL:
        return op.ArgMin(op.Reshape(self, [-1]), axis=0, keepdims=0)
    if rank(self) == 0:
        return op.Constant(value_int=0)
    return op.ArgMin(self, axis=dim, keepdims=int(keepdim))


def _any(self: TAnyTensor, dims: Sequence[int] | None, keepdim: bool) -> BOOL:
    return op.Cast(_bool_reduce("ReduceMax", self, dims, keepdim), to=BOOL.dtype)


def _all(self: TAnyTensor, dims: Sequence[int] | None, keepdim: bool) -> BOOL:
    return op.Cast(_bool_reduce("ReduceMin", self, dims, keepdim), to=BOOL.dtype)


def _bool_reduce(
    onnx_op: str, self: TAnyTensor, dims: Sequence[int] | None, keepdim: bool
) -> TAnyTensor:
    """Reduce the truth values of ``self`` (as 0/1 integers); the rank is read from
    ``self`` because recorders may not give the intermediate values a shape."""
    as_int = op.Cast(op.Cast(self, to=BOOL.dtype), to=INT64.dtype)
    if rank(self) == 0:
        return as_int
    reducer = getattr(op, onnx_op)
    chosen = _dims(dims)
    if chosen is None:
        return reducer(as_int, keepdims=int(keepdim))
    return reducer(as_int, chosen, keepdims=int(keepdim))


@aten("aten::any.dim")
def any_dim(self: TAnyTensor, dim: int, keepdim: bool = False) -> BOOL:
    """any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor"""
    return _any(self, [dim], keepdim)


@aten("aten::any.dims")
def any_dims(self: TAnyTensor, dim: Sequence[int] = (), keepdim: bool = False) -> BOOL:
    """any.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor"""
    return _any(self, dim, keepdim)


@aten("aten::any")
def any_all(self: TAnyTensor) -> BOOL:
    """any(Tensor self) -> Tensor"""
    return _any(self, None, False)


@aten("aten::all.dim")
def all_dim(self: TAnyTensor, dim: int, keepdim: bool = False) -> BOOL:
    """all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor"""
    return _all(self, [dim], keepdim)


@aten("aten::all.dims")
def all_dims(self: TAnyTensor, dim: Sequence[int] = (), keepdim: bool = False) -> BOOL:
    """all.dims(Tensor self, int[]? dim=None, bool keepdim=False) -> Tensor"""
    return _all(self, dim, keepdim)


@aten("aten::all")
def all_all(self: TAnyTensor) -> BOOL:
    """all(Tensor self) -> Tensor"""
    return _all(self, None, False)


@aten("aten::var.correction")
def var_correction(
    self: TRealOrUInt8, dim: Sequence[int] = (), correction: float = 1.0, keepdim: bool = False
) -> TRealOrUInt8:
    """var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor

    ``correction`` may also be passed by position, and as None (torch's default, 1), as
    onnxscript 0.7's ``aten_var_correction`` took it."""
    if correction is None:
        correction = 1.0
    dims = _dims(dim) or list(range(rank(self)))
    mean = op.ReduceMean(self, dims, keepdims=1)
    centered = op.Sub(self, mean)
    total = op.ReduceSum(op.Mul(centered, centered), dims, keepdims=int(keepdim))
    count = op.ReduceProd(op.Gather(op.Shape(self), dims), keepdims=0)
    denominator = op.Sub(op.CastLike(count, self), op.CastLike(correction, self))
    return op.Div(total, denominator)


@aten("aten::var.dim")
def var_dim(
    self: TRealOrUInt8, dim: Sequence[int] = (), unbiased: bool = True, keepdim: bool = False
) -> TRealOrUInt8:
    """var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor"""
    return var_correction(self, dim, correction=1.0 if unbiased else 0.0, keepdim=keepdim)


# The overloads below are not registered: torch decomposes them into ``var.correction``
# before torch.onnx sees them. They are plain functions for callers of onnxscript 0.7's
# names (``ops.core.aten_std``, ...), traced or eager like the registered ones.


def var(self: TRealOrUInt8, unbiased: bool = True) -> TRealOrUInt8:
    """var(Tensor self, bool unbiased=True) -> Tensor"""
    return var_correction(self, correction=1.0 if unbiased else 0.0)


def var_mean_correction(
    self: TRealOrUInt8,
    dim: Sequence[int] | None = None,
    correction: float | None = None,
    keepdim: bool = False,
) -> tuple[TRealOrUInt8, TRealOrUInt8]:
    """var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)"""
    variance = var_correction(self, dim, correction=correction, keepdim=keepdim)
    return variance, _reduce("ReduceMean", self, dim, keepdim)


def var_mean(self: TRealOrUInt8, unbiased: bool = True) -> tuple[TRealOrUInt8, TRealOrUInt8]:
    """var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)"""
    return var_mean_correction(self, correction=1.0 if unbiased else 0.0)


def var_mean_dim(
    self: TRealOrUInt8, dim: Sequence[int] | None, unbiased: bool = True, keepdim: bool = False
) -> tuple[TRealOrUInt8, TRealOrUInt8]:
    """var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)"""
    return var_mean_correction(self, dim, 1.0 if unbiased else 0.0, keepdim)


def std_correction(
    self: TRealOrUInt8,
    dim: Sequence[int] | None = None,
    correction: float | None = None,
    keepdim: bool = False,
) -> TRealOrUInt8:
    """std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor"""
    return op.Sqrt(var_correction(self, dim, correction=correction, keepdim=keepdim))


def std(self: TRealOrUInt8, unbiased: bool = True) -> TRealOrUInt8:
    """std(Tensor self, bool unbiased=True) -> Tensor"""
    return std_correction(self, correction=1.0 if unbiased else 0.0)


def std_dim(
    self: TRealOrUInt8, dim: Sequence[int] | None, unbiased: bool = True, keepdim: bool = False
) -> TRealOrUInt8:
    """std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor"""
    return std_correction(self, dim, 1.0 if unbiased else 0.0, keepdim)


def std_mean_correction(
    self: TRealOrUInt8,
    dim: Sequence[int] | None = None,
    correction: float | None = None,
    keepdim: bool = False,
) -> tuple[TRealOrUInt8, TRealOrUInt8]:
    """std_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)"""
    variance, mean = var_mean_correction(self, dim, correction, keepdim)
    return op.Sqrt(variance), mean


def std_mean(self: TRealOrUInt8, unbiased: bool = True) -> tuple[TRealOrUInt8, TRealOrUInt8]:
    """std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)"""
    return std_mean_correction(self, correction=1.0 if unbiased else 0.0)


def std_mean_dim(
    self: TRealOrUInt8, dim: Sequence[int] | None, unbiased: bool = True, keepdim: bool = False
) -> tuple[TRealOrUInt8, TRealOrUInt8]:
    """std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)"""
    return std_mean_correction(self, dim, 1.0 if unbiased else 0.0, keepdim)


@aten("aten::cumsum")
def cumsum(self: TRealOrUInt8, dim: int, *, dtype: int = -1) -> TRealOrUInt8:
    """cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor"""
    scalar = rank(self) == 0
    value = with_dtype(self, dtype)
    if scalar:
        return op.Identity(value)
    return op.CumSum(value, op.Constant(value_int=dim))


@aten("aten::topk")
def topk(
    self: TRealOrUInt8, k: int, dim: int = -1, largest: bool = True, sorted: bool = True
) -> tuple[TRealOrUInt8, INT64]:
    """topk(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True) -> (Tensor values, Tensor indices)"""
    if rank(self) == 0:
        return op.Identity(self), op.Constant(value_int=0)
    values, indices = op.TopK(self, [k], axis=dim, largest=int(largest), sorted=int(sorted))
    return values, indices


@aten("aten::sort")
def sort(self: TRealOrUInt8, dim: int = -1, descending: bool = False) -> tuple[TRealOrUInt8, INT64]:
    """sort(Tensor self, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)"""
    if rank(self) == 0:
        return op.Identity(self), op.Constant(value_int=0)
    length = (
        op.Shape(self, start=dim, end=dim + 1)
        if dim not in (-1, rank(self) - 1)
        else op.Shape(self, start=-1)
    )
    values, indices = op.TopK(self, length, axis=dim, largest=int(descending), sorted=1)
    return values, indices


@aten("aten::sort.stable")
def sort_stable(
    self: TRealOrUInt8, *, stable: bool = False, dim: int = -1, descending: bool = False
) -> tuple[TRealOrUInt8, INT64]:
    # TopK keeps equal elements in index order, so every sort here is stable.
    """sort.stable(Tensor self, *, bool? stable, int dim=-1, bool descending=False) -> (Tensor values, Tensor indices)"""
    return sort(self, dim, descending)


@aten("aten::max")
def max_all(self: TAnyTensor) -> TAnyTensor:
    """max(Tensor self) -> Tensor

    The largest element (booleans reduced as integers).
    """
    return _extreme("ReduceMax", self)


@aten("aten::min")
def min_all(self: TAnyTensor) -> TAnyTensor:
    """min(Tensor self) -> Tensor"""
    return _extreme("ReduceMin", self)


def _extreme(onnx_op: str, self: Any) -> Any:
    if rank(self) == 0:
        return op.Identity(self)
    value = op.Cast(self, to=INT32.dtype) if is_bool(self) else self
    reduced = getattr(op, onnx_op)(value, keepdims=0)
    return op.Cast(reduced, to=BOOL.dtype) if is_bool(self) else reduced


def _floating(x: Any) -> Any:
    """Integers and booleans in FLOAT, as torch computes ``logsumexp`` of them."""
    return x if is_floating(x) or element_type(x) is None else op.Cast(x, to=FLOAT.dtype)


def _stable_shift(largest: Any) -> Any:
    """The largest values made safe to subtract: 0 where infinite (all -inf, or +inf)."""
    return op.Where(op.IsInf(largest), op.CastLike(0.0, largest), largest)


@aten("aten::logsumexp")
def logsumexp(self: TFloat, dim: Sequence[int], keepdim: bool = False) -> TFloat:
    """logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor

    ``m + log(sum(exp(x - m)))`` with ``m`` the (finite) maximum: no overflow, and all
    -inf gives -inf."""
    x = _floating(self)
    if rank(x) == 0:
        return op.Identity(x)
    dims = _dims(dim) or list(range(rank(x)))
    shift = _stable_shift(op.ReduceMax(x, dims, keepdims=1))
    total = op.ReduceSum(op.Exp(op.Sub(x, shift)), dims, keepdims=int(keepdim))
    if not keepdim:
        shift = op.Squeeze(shift, dims)
    return op.Add(op.Log(total), shift)


@aten("aten::logcumsumexp")
def logcumsumexp(self: TFloat, dim: int) -> TFloat:
    """logcumsumexp(Tensor self, int dim) -> Tensor

    ``m + log(cumsum(exp(x - m)))``, ``m`` the maximum along ``dim``.
    """
    x = _floating(self)
    if rank(x) == 0:
        return op.Identity(x)
    shift = _stable_shift(op.ReduceMax(x, [dim], keepdims=1))
    running = op.CumSum(op.Exp(op.Sub(x, shift)), op.Constant(value_int=dim))
    return op.Add(op.Log(running), shift)
