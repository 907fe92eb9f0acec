"""Embedding lookups: ``embedding`` (rows of a table) and ``_embedding_bag`` (the sum,
mean or max of the rows of each bag of indices)."""

from __future__ import annotations

from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TFloat, TTensor

_SUM, _MEAN, _MAX = 0, 1, 2


@aten("aten::embedding")
def embedding(
    weight: TTensor,
    indices: INT64,
    padding_idx: int = -1,
    scale_grad_by_freq: bool = False,
    sparse: bool = False,
) -> TTensor:
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
    """Bag b holds indices[offsets[b]:offsets[b + 1]]; entries equal to padding_idx are
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


def _kept(indices: Any, padding_idx: int) -> Any:
    """Which entries count (all but the padding index)."""
    if padding_idx < 0:
        return op.Expand(op.Constant(value=True), op.Shape(indices))
    return op.Not(op.Equal(indices, op.Constant(value_int=padding_idx)))


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
