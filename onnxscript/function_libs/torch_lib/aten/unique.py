"""Unique values and counting: unique (sorted, with inverse and counts) as ONNX Unique,
unique_consecutive, bincount and histc (their output sizes depend on the data); and the
unchecked forms of advanced indexing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten.linalg import NO_DIM, absent_dim
from onnxscript.function_libs.torch_lib.aten.shape import index, index_put
from onnxscript.function_libs.torch_lib.helpers.constants import (
    array_constant,
    int64_constant,
    typed_constant,
)
from onnxscript.function_libs.torch_lib.helpers.facts import element_type, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import is_static, scalar_like, vector_input
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import (
    INT64,
    TAnyTensor,
    TIntOrUInt8,
    TRealOrUInt8,
)
from onnxscript.onnx_types import BOOL, DOUBLE, FLOAT


def _nothing() -> Any:
    """The empty INT64 tensor torch returns for an output it was not asked for."""
    return array_constant(np.zeros(0, np.int64))


def _flat_unique(self: Any, return_inverse: bool, return_counts: bool) -> tuple[Any, Any, Any]:
    """The sorted unique values of all of ``self``, the index of each element's value
    (shaped like ``self``) and each value's count."""
    values, _, inverse, counts = op.Unique(op.Reshape(self, [-1]), sorted=1, _outputs=4)
    inverse = op.Reshape(inverse, op.Shape(self)) if return_inverse else _nothing()
    return values, inverse, counts if return_counts else _nothing()


@aten("aten::_unique2")
def unique2(
    self: TAnyTensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False
) -> tuple[TAnyTensor, INT64, INT64]:
    """_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)

    torch's CPU kernel sorts even when ``sorted`` is False; so does this.
    """
    return _flat_unique(self, return_inverse, return_counts)


@aten("aten::_unique")
def unique(
    self: TAnyTensor, sorted: bool = True, return_inverse: bool = False
) -> tuple[TAnyTensor, INT64]:
    """_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor)"""
    values, inverse, _ = _flat_unique(self, return_inverse, False)
    return values, inverse


@aten("aten::unique_dim")
def unique_dim(
    self: TAnyTensor,
    dim: int,
    sorted: bool = True,
    return_inverse: bool = False,
    return_counts: bool = False,
) -> tuple[TAnyTensor, INT64, INT64]:
    """unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) -> (Tensor, Tensor, Tensor)

    The unique slices along ``dim``, in lexicographic order.
    """
    values, _, inverse, counts = op.Unique(self, axis=dim, sorted=1, _outputs=4)
    return (
        values,
        inverse if return_inverse else _nothing(),
        counts if return_counts else _nothing(),
    )


@aten("aten::unique_consecutive")
def unique_consecutive(
    self: TAnyTensor, return_inverse: bool = False, return_counts: bool = False, dim: int = NO_DIM
) -> tuple[TAnyTensor, INT64, INT64]:
    """unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) -> (Tensor, Tensor, Tensor)

    The first of each run of equal elements (slices along ``dim``): a run starts where
    an element differs from the one before; the inverse counts the starts so far, the
    counts are the distances between starts."""
    flat = absent_dim(dim)
    source = op.Reshape(self, [-1]) if flat else self
    axis = 0 if flat else dim % rank(self)
    later = op.Slice(source, [1], [2**63 - 1], [axis])
    earlier = op.Slice(source, [0], [-1], [axis])
    differs = op.Not(op.Equal(later, earlier))
    others = [a for a in range(1 if flat else rank(self)) if a != axis]
    if others:  # a slice differs where any of its elements does
        differs = op.Cast(
            op.ReduceMax(op.Cast(differs, to=INT64.dtype), others, keepdims=0), to=BOOL.dtype
        )
    starts_mask = op.Concat(op.Constant(value=ir.tensor([True])), differs, axis=0)
    starts = op.Reshape(op.NonZero(starts_mask), [-1])
    values = op.Gather(source, starts, axis=axis)
    inverse = _nothing()
    if return_inverse:
        runs = op.Sub(op.CumSum(op.Cast(starts_mask, to=INT64.dtype), 0), 1)
        inverse = op.Reshape(runs, op.Shape(self)) if flat else runs
    counts = _nothing()
    if return_counts:
        length = op.Shape(source, start=axis, end=axis + 1)
        ends = op.Concat(op.Slice(starts, [1], [2**63 - 1]), length, axis=0)
        counts = op.Sub(ends, starts)
    return values, inverse, counts


@aten("aten::bincount")
def bincount(
    self: TIntOrUInt8, weights: TRealOrUInt8 | None = None, minlength: int = 0
) -> TRealOrUInt8:
    """bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor

    How often each value 0..max(self) occurs (at least ``minlength`` bins), or the sum
    of the weights of its occurrences: ScatterElements with add into zeros. Counts are
    INT64; FLOAT weights sum as FLOAT, others as DOUBLE (torch's rule)."""
    indices = op.Cast(self, to=INT64.dtype)
    largest = op.ReduceMax(op.Concat(indices, int64_constant([-1]), axis=0), keepdims=1)
    size = op.Max(
        op.Add(largest, int64_constant([1])),
        int64_constant([int(minlength)]) if is_static(minlength) else vector_input(minlength),
    )
    if weights is None:
        target = INT64.dtype
        updates = op.Expand(typed_constant(1, ir.DataType.INT64), op.Shape(indices))
    else:
        target = FLOAT.dtype if element_type(weights) == FLOAT.dtype else DOUBLE.dtype
        updates = op.Cast(weights, to=target)
    zeros = op.ConstantOfShape(size, value=ir.tensor([0], dtype=ir.DataType(target)))
    return op.ScatterElements(zeros, indices, updates, reduction="add")


@aten("aten::histc")
def histc(self: TRealOrUInt8, bins: int = 100, min: float = 0.0, max: float = 0.0) -> TRealOrUInt8:
    """histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor

    Counts of ``self``'s elements in ``bins`` equal bins over [min, max] (the data's
    range when both are 0; widened by 1 each way when it is a single value); elements
    outside are not counted, the maximum falls in the last bin."""
    flat = op.Reshape(self, [-1])
    if is_static(min) and is_static(max) and min == max == 0:
        low, high = op.ReduceMin(flat, keepdims=0), op.ReduceMax(flat, keepdims=0)
        same = op.Equal(low, high)
        one = scalar_like(1, flat)
        low, high = op.Where(same, op.Sub(low, one), low), op.Where(same, op.Add(high, one), high)
    elif is_static(min) and is_static(max) and min == max:
        low, high = scalar_like(min - 1, flat), scalar_like(max + 1, flat)
    else:
        low, high = scalar_like(min, flat), scalar_like(max, flat)
    inside = op.And(op.GreaterOrEqual(flat, low), op.LessOrEqual(flat, high))
    position = op.Div(op.Mul(op.Sub(flat, low), scalar_like(bins, flat)), op.Sub(high, low))
    index = op.Min(op.Cast(op.Floor(position), to=INT64.dtype), int64_constant(int(bins) - 1))
    index = op.Where(inside, index, int64_constant(0))
    ones = op.Cast(inside, to=int(element_type(self) or FLOAT.dtype))
    zeros = op.ConstantOfShape([int(bins)], value=ir.tensor([0], dtype=element_type(self)))
    return op.ScatterElements(zeros, index, ones, reduction="add")


@aten("aten::_unsafe_index.Tensor")
def unsafe_index(self: TAnyTensor, indices: Sequence[INT64 | None]) -> TAnyTensor:
    """_unsafe_index.Tensor(Tensor self, Tensor?[] indices) -> Tensor

    ``aten::index.Tensor`` without bounds checks (ONNX checks none either).
    """
    return index.function(self, indices)


@aten("aten::_unsafe_index_put")
def unsafe_index_put(
    self: TAnyTensor, indices: Sequence[INT64 | None], values: TAnyTensor, accumulate: bool = False
) -> TAnyTensor:
    """_unsafe_index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor

    ``aten::index_put`` without bounds checks.
    """
    return index_put.function(self, indices, values, accumulate)
