"""Embedding lookups: ``embedding`` (rows of a table), ``embedding_bag`` and
``_embedding_bag`` (the sum, mean or max of the rows of each bag of indices), and
``embedding_renorm`` (``max_norm``: the rows looked up scaled down to that norm)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.constants import typed_constant
from onnxscript.function_libs.torch_lib.helpers.sizes import add, dim_size, is_static, scalar_like
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import BOOL, INT64, TAnyTensor, TFloat

_SUM, _MEAN, _MAX = 0, 1, 2


@aten("aten::embedding")
def embedding(
    weight: TAnyTensor,
    indices: INT64,
    padding_idx: int = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> TAnyTensor:
    """embedding(Tensor weight, Tensor indices, SymInt padding_idx=-1, bool scale_grad_by_freq=False, bool sparse=False) -> Tensor"""
    return op.Gather(weight, indices, axis=0)


@aten("aten::_embedding_bag", "aten::_embedding_bag_forward_only")
def embedding_bag(
    weight: TFloat,
    indices: INT64,
    offsets: INT64,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: TFloat | None = None,
    include_last_offset: bool = False,
    padding_idx: int = -1,
) -> tuple[TFloat, INT64, INT64, INT64]:
    """_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)

    Bag b holds indices[offsets[b]:offsets[b + 1]]; entries equal to padding_idx are
    left out. Returns the reduced rows [bags, D] and what torch's kernel returns beside
    them: for max, each index's bag, each bag's size (padding left out) and which index
    gave each maximum; for mean, the bags, the sizes and the sizes again; for sum, an
    empty vector and zeros per bag (the shapes of torch's meta kernel)."""
    indices = op.Cast(indices, to=INT64.dtype)
    bag_of = _bag_of_each_index(indices, op.Cast(offsets, to=INT64.dtype), include_last_offset)
    bags = _bag_count(offsets, include_last_offset)
    rows = op.Gather(weight, indices, axis=0)
    if per_sample_weights is not None:
        rows = op.Mul(rows, op.Unsqueeze(per_sample_weights, [1]))
    kept = _kept(indices, padding_idx)
    sizes = op.ScatterElements(
        op.Expand(op.Constant(value_int=0), bags),
        bag_of,
        op.Cast(kept, to=INT64.dtype),
        reduction="add",
    )
    width = op.Shape(weight, start=1)
    target = op.Unsqueeze(bag_of, [1])
    present = op.Unsqueeze(op.Greater(sizes, op.Constant(value_int=0)), [1])
    if mode == _MAX:
        lowest = op.CastLike(float("-inf"), weight)
        candidates = op.Where(op.Unsqueeze(kept, [1]), rows, lowest)
        start = op.Expand(lowest, op.Concat(bags, width, axis=0))
        best = op.ScatterND(start, target, candidates, reduction="max")
        output = op.Where(present, best, op.CastLike(0.0, weight))
        winners = _max_indices(indices, rows, kept, bag_of, best, bags, width, present)
        return output, bag_of, sizes, winners
    summed = op.ScatterND(
        op.Expand(op.CastLike(0.0, weight), op.Concat(bags, width, axis=0)),
        target,
        op.Mul(rows, op.Unsqueeze(op.CastLike(kept, weight), [1])),
        reduction="add",
    )
    if mode == _MEAN:
        divisor = op.Max(op.CastLike(sizes, weight), op.CastLike(1.0, weight))
        summed = op.Div(summed, op.Unsqueeze(divisor, [1]))
        return summed, bag_of, sizes, sizes
    zeros = op.Expand(op.Constant(value_int=0), bags)
    nothing = op.Cast(op.ConstantOfShape(op.Constant(value_ints=[0])), to=INT64.dtype)
    return summed, nothing, zeros, zeros


@aten("aten::embedding_bag")
def embedding_bag_default(
    weight: TFloat,
    indices: INT64,
    offsets: INT64,
    scale_grad_by_freq: bool = False,
    mode: int = 0,
    sparse: bool = False,
    per_sample_weights: TFloat | None = None,
    include_last_offset: bool = False,
) -> tuple[TFloat, INT64, INT64, INT64]:
    """embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False) -> (Tensor, Tensor, Tensor, Tensor)

    :func:`embedding_bag` without a padding index.
    """
    return embedding_bag(
        weight,
        indices,
        offsets,
        scale_grad_by_freq,
        mode,
        sparse,
        per_sample_weights,
        include_last_offset,
        -1,
    )


@aten("aten::embedding_bag.padding_idx")
def embedding_bag_padding_idx(
    weight: TFloat,
    indices: INT64,
    offsets: INT64,
    scale_grad_by_freq: bool,
    mode: int,
    sparse: bool,
    per_sample_weights: TFloat | None,
    include_last_offset: bool,
    padding_idx: int | None,
) -> tuple[TFloat, INT64, INT64, INT64]:
    """embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, bool include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)

    ``F.embedding_bag``'s call: :func:`embedding_bag` with an optional padding index
    that counts from the end when negative (torch wraps it by the number of rows)."""
    if padding_idx is None:
        padding_idx = -1
    elif not is_static(padding_idx) or padding_idx < 0:
        padding_idx = add(padding_idx, dim_size(weight, 0))
    return embedding_bag(
        weight,
        indices,
        offsets,
        scale_grad_by_freq,
        mode,
        sparse,
        per_sample_weights,
        include_last_offset,
        padding_idx,
    )


@aten("aten::embedding_renorm")
def embedding_renorm(self: TFloat, indices: INT64, max_norm: float, norm_type: float) -> TFloat:
    """embedding_renorm(Tensor self, Tensor indices, float max_norm, float norm_type) -> Tensor

    The table with each row that ``indices`` name scaled by max_norm / (norm + 1e-7)
    where its ``norm_type``-norm exceeds ``max_norm`` (torch's in-place ``embedding_renorm_``
    as a new table)."""
    norm = _row_norms(self, norm_type)
    rows = op.Shape(self, start=0, end=1)
    flat = op.Reshape(op.Cast(indices, to=INT64.dtype), [-1])
    named = op.ScatterElements(
        op.Expand(op.Constant(value_int=0), rows),
        flat,
        op.Expand(op.Constant(value_int=1), op.Shape(flat)),
        reduction="max",
    )
    limit = scalar_like(max_norm, self)
    exceeds = op.And(op.Unsqueeze(op.Cast(named, to=BOOL.dtype), [1]), op.Greater(norm, limit))
    scale = op.Div(limit, op.Add(norm, scalar_like(1e-7, self)))
    return op.Where(exceeds, op.Mul(self, scale), self)


def _row_norms(self: Any, p: float) -> Any:
    """Each row's p-norm, [rows, 1]."""
    if p == 2:
        return op.ReduceL2(self, [1], keepdims=1)
    if p == 1:
        return op.ReduceL1(self, [1], keepdims=1)
    magnitude = op.Abs(self)
    if p == float("inf"):
        return op.ReduceMax(magnitude, [1], keepdims=1)
    power = scalar_like(p, self)
    return op.Pow(op.ReduceSum(op.Pow(magnitude, power), [1], keepdims=1), op.Reciprocal(power))


def _bag_count(offsets: Any, include_last_offset: bool) -> Any:
    """[number of bags]: the offsets, less the closing one when it is included."""
    count = op.Shape(offsets)
    return op.Sub(count, op.Constant(value_ints=[1])) if include_last_offset else count


def _bag_of_each_index(indices: Any, offsets: Any, include_last_offset: bool) -> Any:
    """The bag of position i: the last bag starting at or before i."""
    starts = op.Slice(offsets, [0], [-1]) if include_last_offset else offsets
    begun = op.GreaterOrEqual(op.Unsqueeze(_positions(indices), [1]), op.Unsqueeze(starts, [0]))
    counted = op.ReduceSum(op.Cast(begun, to=INT64.dtype), [1], keepdims=0)
    return op.Sub(counted, op.Constant(value_int=1))


def _positions(indices: Any) -> Any:
    """0, 1, ..., len(indices) - 1."""
    count = op.Squeeze(op.Shape(indices))
    return op.Range(op.Constant(value_int=0), count, op.Constant(value_int=1))


def _kept(indices: Any, padding_idx: Any) -> Any:
    """Which entries count (all but the padding index; a negative static one is none)."""
    if is_static(padding_idx) and padding_idx < 0:
        return op.Expand(typed_constant(True, ir.DataType.BOOL), op.Shape(indices))
    index = op.Constant(value_int=int(padding_idx)) if is_static(padding_idx) else padding_idx
    return op.Not(op.Equal(indices, index))


def _max_indices(
    indices: Any, rows: Any, kept: Any, bag_of: Any, best: Any, bags: Any, width: Any, present: Any
) -> Any:
    """For each bag and column, the index (a row of weight) of the first entry that holds
    the maximum; 0 for empty bags."""
    length = op.Shape(indices)
    positions = _positions(indices)
    hit = op.And(op.Equal(rows, op.Gather(best, bag_of, axis=0)), op.Unsqueeze(kept, [1]))
    place = op.Expand(op.Unsqueeze(positions, [1]), op.Shape(rows))
    candidates = op.Where(hit, place, op.Squeeze(length))
    first = op.ScatterND(
        op.Expand(op.Squeeze(length), op.Concat(bags, width, axis=0)),
        op.Unsqueeze(bag_of, [1]),
        candidates,
        reduction="min",
    )
    safe = op.Min(first, op.Sub(op.Squeeze(length), op.Constant(value_int=1)))
    return op.Where(present, op.Gather(indices, safe, axis=0), op.Constant(value_int=0))
