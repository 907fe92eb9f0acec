"""Views and layout: view/reshape, permute, transpose, expand, (un)squeeze, cat, slice,
select, split, gather, index_select, pad."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.ops.constants import int64_constant
from onnxscript.function_libs.torch_lib.ops.elementwise import floor_divide_int
from onnxscript.function_libs.torch_lib.ops.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.ops.facts import (
    is_bool,
    is_empty_vector,
    is_integer,
    rank,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import BOOL, INT64, TTensor

_BIG = 2**63 - 1


@aten("aten::view", "aten::_unsafe_view", "aten::reshape", "aten::view_copy")
def view(self: TTensor, size: Sequence[int]) -> TTensor:
    return op.Reshape(
        self, op.Cast(size, to=INT64.dtype) if not isinstance(size, (list, tuple)) else size
    )


@aten("aten::permute", "aten::permute_copy")
def permute(self: TTensor, dims: Sequence[int]) -> TTensor:
    count = rank(self)
    return op.Transpose(self, perm=[d % count if count else d for d in dims])


@aten("aten::transpose.int", "aten::transpose_copy.int")
def transpose(self: TTensor, dim0: int, dim1: int) -> TTensor:
    count = rank(self)
    if count < 2:
        return op.Identity(self)
    perm = list(range(count))
    a, b = dim0 % count, dim1 % count
    perm[a], perm[b] = perm[b], perm[a]
    return op.Transpose(self, perm=perm)


@aten("aten::expand", "aten::expand_copy")
def expand(self: TTensor, size: Sequence[int], implicit: bool = False) -> TTensor:
    target = [1 if isinstance(d, int) and d == -1 else d for d in size]
    return op.Expand(self, target)


@aten("aten::unsqueeze", "aten::unsqueeze_copy")
def unsqueeze(self: TTensor, dim: int) -> TTensor:
    return op.Unsqueeze(self, [dim])


def _squeeze(self: TTensor, dims: Sequence[int]) -> TTensor:
    """Remove the listed dims that are 1 (torch ignores the others)."""
    if rank(self) == 0:
        return op.Identity(self)
    keep = [d for d in dims if static_dim(self, d) == 1]
    return op.Squeeze(self, keep) if keep else op.Identity(self)


@aten("aten::squeeze.dim", "aten::squeeze_copy.dim")
def squeeze_dim(self: TTensor, dim: int) -> TTensor:
    return _squeeze(self, [dim])


@aten("aten::squeeze.dims", "aten::squeeze_copy.dims")
def squeeze_dims(self: TTensor, dim: Sequence[int]) -> TTensor:
    return _squeeze(self, list(dim))


@aten("aten::squeeze", "aten::squeeze_copy")
def squeeze(self: TTensor) -> TTensor:
    return _squeeze(self, list(range(rank(self))))


@aten("aten::cat", "aten::concat")
def cat(tensors: Sequence[TTensor], dim: int = 0) -> TTensor:
    present = [t for t in tensors if not is_empty_vector(t)]
    return op.Concat(*(present or tensors), axis=dim)


@aten("aten::slice.Tensor", "aten::slice_copy.Tensor")
def slice_(
    self: TTensor,
    dim: int = 0,
    start: int | None = None,
    end: int | None = None,
    step: int = 1,
) -> TTensor:
    begin = 0 if start is None else start
    stop = _BIG if end is None else end
    return op.Slice(self, [begin], [stop], [dim], [step])


@aten("aten::select.int", "aten::select_copy.int")
def select(self: TTensor, dim: int, index: int) -> TTensor:
    return op.Gather(self, index, axis=dim)


@aten("aten::split.Tensor", "aten::split_copy.Tensor")
def split(self: TTensor, split_size: int, dim: int = 0) -> Sequence[TTensor]:
    length = static_dim(self, dim)
    if length is None:
        raise NotImplementedError("split of a dynamic dim is not supported")
    sizes = [min(split_size, length - i) for i in range(0, length, split_size)]
    return split_with_sizes(self, sizes, dim)


@aten("aten::split_with_sizes", "aten::split_with_sizes_copy")
def split_with_sizes(self: TTensor, split_sizes: Sequence[int], dim: int = 0) -> Sequence[TTensor]:
    sizes = list(split_sizes)
    if len(sizes) > 1 and len(set(sizes)) == 1:
        # Equal parts: one Split node (num_outputs tells every recorder the count).
        return list(op.Split(self, axis=dim, num_outputs=len(sizes)))
    # Otherwise one Slice per part: recorders disagree on how many outputs a Split with
    # sizes has.
    parts = []
    begin = 0
    for size in split_sizes:
        parts.append(op.Slice(self, [begin], [begin + size], [dim]))
        begin += size
    return parts


@aten("aten::index_select")
def index_select(self: TTensor, dim: int, index: INT64) -> TTensor:
    if rank(self) == 0:
        return op.Identity(self)  # the only valid index is 0
    return op.Gather(self, index, axis=dim)


@aten("aten::gather")
def gather(self: TTensor, dim: int, index: INT64, sparse_grad: bool = False) -> TTensor:
    return op.GatherElements(self, index, axis=dim)


@aten("aten::constant_pad_nd")
def constant_pad_nd(self: TTensor, pad: Sequence[int], value: float = 0.0) -> TTensor:
    count = rank(self)
    begins = [0] * count
    ends = [0] * count
    for i in range(len(pad) // 2):  # torch lists (begin, end) pairs from the last dim
        begins[count - 1 - i] = pad[2 * i]
        ends[count - 1 - i] = pad[2 * i + 1]
    return op.Pad(self, begins + ends, op.CastLike(value, self))


@aten("aten::flip")
def flip(self: TTensor, dims: Sequence[int]) -> TTensor:
    if not dims:
        return op.Identity(self)
    count = len(dims)
    return op.Slice(self, [-1] * count, [-(2**63)] * count, list(dims), [-1] * count)


@aten("aten::repeat")
def repeat(self: TTensor, repeats: Sequence[int]) -> TTensor:
    extra = len(repeats) - rank(self)
    base = op.Unsqueeze(self, list(range(extra))) if extra > 0 else self
    return op.Tile(base, list(repeats))


@aten("aten::unfold")
def unfold(self: TTensor, dimension: int, size: int, step: int) -> TTensor:
    """Windows of ``size`` every ``step`` along ``dimension``: that dim becomes the number
    of windows and a last dim of ``size`` is added."""
    if rank(self) == 0:
        return op.Unsqueeze(self, [0])
    axis = dimension % rank(self)
    length = static_dim(self, axis)
    if length is None:
        raise NotImplementedError("unfold of a dynamic dim is not supported")
    starts = range(0, length - size + 1, step)
    positions = [[start + offset for offset in range(size)] for start in starts]
    if not positions:
        positions_value = int64_constant(np.zeros((0, size), dtype=np.int64))
    else:
        positions_value = int64_constant(positions)
    windows = op.Gather(self, positions_value, axis=axis)
    perm = [*range(axis + 1), *range(axis + 2, rank(self) + 1), axis + 1]
    return op.Transpose(windows, perm=perm)


@aten("aten::take")
def take(self: TTensor, index: INT64) -> TTensor:
    """Elements of the flattened tensor (negative indices count from the end)."""
    return op.Gather(op.Reshape(self, [-1]), index, axis=0)


@aten("aten::nonzero")
def nonzero(self: TTensor) -> INT64:
    if rank(self) == 0:  # torch: one row per true scalar, with no columns
        found = op.Transpose(op.NonZero(op.Reshape(self, [1])), perm=[1, 0])
        return op.Slice(found, [0], [0], [1])
    return op.Transpose(op.NonZero(self), perm=[1, 0])


@aten("aten::scatter.src")
def scatter(self: TTensor, dim: int, index: INT64, src: TTensor) -> TTensor:
    updates = op.Expand(op.CastLike(src, self), op.Shape(index)) if rank(src) == 0 else src
    return _scatter_elements(self, index, updates, dim)


@aten("aten::scatter.value")
def scatter_value(self: TTensor, dim: int, index: INT64, value: float) -> TTensor:
    """Every indexed position set to the number ``value``."""
    updates = op.Expand(op.CastLike(value, self), op.Shape(index))
    return _scatter_elements(self, index, updates, dim)


def _scatter_elements(self: Any, index: Any, updates: Any, dim: int) -> Any:
    """ScatterElements, which needs a rank of 1 or more: a scalar is scattered as [1]."""
    if rank(self) > 0:
        return op.ScatterElements(self, index, updates, axis=dim)
    as_vectors = (op.Unsqueeze(v, [0]) for v in (self, index, updates))
    return op.Squeeze(op.ScatterElements(*as_vectors, axis=0), [0])


@aten("aten::scatter_add")
def scatter_add(self: TTensor, dim: int, index: INT64, src: TTensor) -> TTensor:
    return op.ScatterElements(self, index, src, axis=dim, reduction="add")


_REDUCTIONS = {"sum": "add", "prod": "mul", "amax": "max", "amin": "min"}
_NEUTRAL = {"sum": 0.0, "prod": 1.0, "amax": float("-inf"), "amin": float("inf")}
"""What each reduction leaves a value alone with (scattered first when self is excluded)."""


@aten("aten::scatter_reduce.two")
def scatter_reduce(
    self: TTensor, dim: int, index: INT64, src: TTensor, reduce: str, include_self: bool = True
) -> TTensor:
    if reduce == "mean":
        return _scatter_mean(self, dim, index, src, include_self)
    if reduce not in _REDUCTIONS:
        raise NotImplementedError(f"scatter_reduce with reduce={reduce!r} is not supported")
    base = self
    if not include_self:
        neutral = op.Expand(op.CastLike(_NEUTRAL[reduce], self), op.Shape(index))
        base = op.ScatterElements(self, index, neutral, axis=dim)
    return op.ScatterElements(base, index, src, axis=dim, reduction=_REDUCTIONS[reduce])


def _scatter_mean(self: Any, dim: int, index: Any, src: Any, include_self: bool) -> Any:
    """The mean of what lands on each position (self counted once with include_self);
    positions nothing lands on keep self. Integers divide rounding down, as torch does."""
    total = scatter_reduce(self, dim, index, src, "sum", include_self)
    ones = op.Expand(op.CastLike(1, self), op.Shape(index))
    start = op.CastLike(1 if include_self else 0, self)
    counts = op.ScatterElements(
        op.Expand(start, op.Shape(self)), index, ones, axis=dim, reduction="add"
    )
    landed = op.Greater(counts, op.CastLike(0, self))
    divisor = op.Where(landed, counts, op.CastLike(1, self))
    mean = floor_divide_int(total, divisor) if is_integer(self) else op.Div(total, divisor)
    return op.Where(landed, mean, self)


@aten("aten::scatter.reduce", "aten::scatter.value_reduce")
def scatter_with_reduce(
    self: TTensor, dim: int, index: INT64, src: TTensor, *, reduce: str
) -> TTensor:
    reduction = {"add": "add", "multiply": "mul"}.get(reduce)
    if reduction is None:
        raise NotImplementedError(f"scatter with reduce={reduce!r} is not supported")
    updates = op.Expand(op.CastLike(src, self), op.Shape(index)) if rank(src) == 0 else src
    return op.ScatterElements(self, index, updates, axis=dim, reduction=reduction)


@aten("aten::select_scatter")
def select_scatter(self: TTensor, src: TTensor, dim: int, index: int) -> TTensor:
    """``self`` with ``self.select(dim, index)`` replaced by ``src``."""
    dim = dim % rank(self)
    length = op.Gather(op.Shape(self), dim, axis=0)
    position = op.Mod(op.CastLike(index, length), length)
    positions = op.Range(op.CastLike(0, length), length, op.CastLike(1, length))
    axis_shape = [1] * rank(self)
    axis_shape[dim] = -1
    chosen = op.Equal(op.Reshape(positions, axis_shape), position)
    return op.Where(chosen, op.Unsqueeze(op.CastLike(src, self), [dim]), self)


@aten("aten::reflection_pad1d", "aten::reflection_pad2d", "aten::reflection_pad3d")
def reflection_pad(self: TTensor, padding: Sequence[int]) -> TTensor:
    return _pad_mode(self, padding, "reflect")


@aten("aten::replication_pad1d", "aten::replication_pad2d", "aten::replication_pad3d")
def replication_pad(self: TTensor, padding: Sequence[int]) -> TTensor:
    return _pad_mode(self, padding, "edge")


def _pad_mode(self: TTensor, padding: Sequence[int], mode: str) -> TTensor:
    """torch's (begin, end) pairs from the last dim. Negative ones crop, which ONNX's edge
    and reflect modes do not take: an edge-padded axis with a crop is a gather of
    clamped positions (torch's own definition), a reflected one is sliced first."""
    count = rank(self)
    begins = [0] * count
    ends = [0] * count
    for i in range(len(padding) // 2):
        begins[count - 1 - i] = padding[2 * i]
        ends[count - 1 - i] = padding[2 * i + 1]
    lengths = [static_dim(self, axis) for axis in range(count)]  # ops' results have none
    for axis in range(count):
        if min(begins[axis], ends[axis]) >= 0:
            continue
        if mode == "edge":  # the gather pads this axis too
            self = _clamped_gather(self, axis, lengths[axis], begins[axis], ends[axis])
            begins[axis] = ends[axis] = 0
        else:
            self = op.Slice(
                self,
                [max(0, -begins[axis])],
                [ends[axis] if ends[axis] < 0 else _BIG],
                [axis],
            )
            begins[axis], ends[axis] = max(0, begins[axis]), max(0, ends[axis])
    pads = begins + ends
    return op.Pad(self, pads, mode=mode) if any(pads) else op.Identity(self)


def _clamped_gather(self: Any, axis: int, length: int | None, begin: int, end: int) -> Any:
    """Output position j of ``axis`` takes input position clamp(j - begin, 0, n - 1)."""
    if length is None:
        raise NotImplementedError("replication padding that crops needs a static size")
    positions = [min(max(j - begin, 0), length - 1) for j in range(length + begin + end)]
    return op.Gather(self, op.Constant(value_ints=positions), axis=axis)


@aten("aten::index.Tensor")
def index(self: TTensor, indices: Sequence[INT64 | None]) -> TTensor:
    """Advanced indexing with integer index tensors (None: the whole dim), numpy's rule:
    the broadcast index shape replaces the indexed dims where they stand when they are
    adjacent, and goes first when they are not."""
    given = [i for i, t in enumerate(indices) if t is not None]
    if not given:
        return op.Identity(self)
    if given == [0] and is_bool(indices[0]):
        return op.GatherND(self, op.Transpose(op.NonZero(indices[0]), perm=[1, 0]))
    if any(is_bool(indices[i]) for i in given):
        raise NotImplementedError("index with a boolean mask after other indices")
    count = rank(self)
    order = given + [d for d in range(count) if d not in given]
    moved = op.Transpose(self, perm=order) if order != list(range(count)) else self
    index_rank = max(rank(indices[i]) for i in given)
    stacked = _stacked_indices(indices, given)
    gathered = op.GatherND(moved, stacked)
    adjacent = given == list(range(given[0], given[-1] + 1))
    start = given[0]
    if not adjacent or start == 0:
        return gathered
    # Put the index dims back where the indexed dims were.
    before = list(range(index_rank, index_rank + start))
    perm = (
        before
        + list(range(index_rank))
        + list(range(index_rank + start, count - len(given) + index_rank))
    )
    return op.Transpose(gathered, perm=perm)


def _stacked_indices(indices: Sequence[Any], given: list[int]) -> Any:
    """The given index tensors (int64; torch also takes int32) broadcast together and
    stacked on a last axis."""
    columns = [op.Cast(indices[i], to=INT64.dtype) for i in given]
    total = columns[0]
    for column in columns[1:]:
        total = op.Add(total, column)  # only its shape is used: the broadcast one
    shape = op.Shape(total)
    return op.Concat(*(op.Unsqueeze(op.Expand(c, shape), [-1]) for c in columns), axis=-1)


@aten("aten::index_put")
def index_put(
    self: TTensor, indices: Sequence[INT64 | None], values: TTensor, accumulate: bool = False
) -> TTensor:
    """``self[indices] = values`` (``+=`` with ``accumulate``), integer index tensors."""
    given = [i for i, t in enumerate(indices) if t is not None]
    if given == [0] and is_bool(indices[0]):
        return _masked_put(self, indices[0], values, accumulate)
    if any(is_bool(indices[i]) for i in given):
        raise NotImplementedError("index_put with a boolean mask after other indices")
    count = rank(self)
    order = given + [d for d in range(count) if d not in given]
    moved = op.Transpose(self, perm=order) if order != list(range(count)) else self
    stacked = _stacked_indices(indices, given)
    updates = _updates_in_index_order(self, moved, values, indices, given, stacked)
    reduction = "add" if accumulate else "none"
    scattered = op.ScatterND(moved, stacked, updates, reduction=reduction)
    if order == list(range(count)):
        return scattered
    inverse = [order.index(d) for d in range(count)]
    return op.Transpose(scattered, perm=inverse)


def _updates_in_index_order(
    self: Any, moved: Any, values: Any, indices: Sequence[Any], given: list[int], stacked: Any
) -> Any:
    """``values`` broadcast to the shape of ``self[indices]`` and laid out with the index
    dims first (as ScatterND on the index-first transposed ``self`` wants). Adjacent
    indices after dim 0 keep their dims in place in ``self[indices]``: moved here."""
    values = op.CastLike(values, self)
    start, last = given[0], given[-1]
    if given != list(range(start, last + 1)) or start == 0:
        shape = op.Concat(op.Shape(stacked, end=-1), op.Shape(moved, start=len(given)), axis=0)
        return op.Expand(values, shape)
    in_place = op.Concat(
        op.Shape(self, end=start), op.Shape(stacked, end=-1), op.Shape(self, start=last + 1), axis=0
    )
    index_rank = max(rank(indices[i]) for i in given)
    total = start + index_rank + rank(self) - last - 1
    front = list(range(start, start + index_rank))
    perm = front + list(range(start)) + list(range(start + index_rank, total))
    return op.Transpose(op.Expand(values, in_place), perm=perm)


def _masked_put(self: Any, mask: Any, values: Any, accumulate: bool) -> Any:
    """``self[mask] = values`` for a mask over the leading dims: the True positions in
    order, each taking the next row of values (or the one broadcast value)."""
    positions = op.Transpose(op.NonZero(mask), perm=[1, 0])
    target_shape = op.Concat(op.Shape(positions, end=1), op.Shape(self, start=rank(mask)), axis=0)
    updates = op.Expand(op.CastLike(values, self), target_shape)
    return op.ScatterND(self, positions, updates, reduction="add" if accumulate else "none")


@aten("aten::slice_scatter")
def slice_scatter(
    self: TTensor, src: TTensor, dim: int = 0, start: int = 0, end: int = _BIG, step: int = 1
) -> TTensor:
    """``self`` with ``self[start:end:step]`` along ``dim`` replaced by ``src``: the
    positions are computed and written with ScatterElements."""
    dim = dim % rank(self)
    length = op.Gather(op.Shape(self), dim, axis=0)
    positions = op.Range(op.CastLike(0, length), length, op.CastLike(1, length))
    chosen = op.Slice(positions, [start], [end], [0], [step])
    axis_shape = [1] * rank(self)
    axis_shape[dim] = -1
    index = op.Expand(op.Reshape(chosen, axis_shape), op.Shape(src))
    return op.ScatterElements(self, index, op.CastLike(src, self), axis=dim)


@aten("aten::diagonal", "aten::diagonal_copy")
def diagonal(self: TTensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> TTensor:
    """The diagonal of dims (dim1, dim2) moved to the last axis: each k takes
    ``self[..., k, k + offset]`` (rows shifted instead for a negative offset)."""
    count = rank(self)
    dim1, dim2 = dim1 % count, dim2 % count
    rest = [d for d in range(count) if d not in (dim1, dim2)]
    moved = op.Transpose(self, perm=[*rest, dim1, dim2])
    rows, cols = static_dim(self, dim1), static_dim(self, dim2)
    if rows is None or cols is None:
        raise NotImplementedError("diagonal needs static sizes of the two dims")
    length = max(0, min(rows, cols - offset) if offset >= 0 else min(rows + offset, cols))
    row_start, col_start = (0, offset) if offset >= 0 else (-offset, 0)
    row_index = op.Constant(value_ints=[row_start + k for k in range(length)])
    col_index = op.Constant(value_ints=[col_start + k for k in range(length)])
    picked_rows = op.Gather(moved, row_index, axis=-2)  # [..., L, cols]
    index = op.Unsqueeze(col_index, [-1])  # [L, 1]
    lead = op.Shape(picked_rows, end=-1)
    gathered = op.GatherElements(
        picked_rows, op.Expand(index, op.Concat(lead, op.Constant(value_ints=[1]), axis=0)), axis=-1
    )
    return op.Squeeze(gathered, [-1])


@aten("aten::masked_scatter")
def masked_scatter(self: TTensor, mask: BOOL, source: TTensor) -> TTensor:
    """``self`` with the positions where ``mask`` is true filled, in order, by the
    leading elements of ``source``."""
    full_mask = op.Expand(mask, op.Shape(self))
    positions = op.Transpose(op.NonZero(full_mask), perm=[1, 0])
    count = op.Shape(positions, end=1)
    taken = op.Slice(op.Reshape(source, [-1]), [0], count, [0])
    return op.ScatterND(self, positions, op.CastLike(taken, self))


@aten("aten::as_strided", "aten::as_strided_copy")
def as_strided(
    self: TTensor, size: Sequence[int], stride: Sequence[int], storage_offset: int = 0
) -> TTensor:
    """A view of the flat (contiguous) data: element ``idx`` of the result is element
    ``storage_offset + sum(idx[k] * stride[k])``. The positions are computed while
    tracing, so sizes and strides must be Python ints."""
    positions = [storage_offset]
    for length, step in zip(size, stride):
        positions = [p + i * step for p in positions for i in range(length)]
    _check_within(self, positions)
    flat = op.Gather(op.Reshape(self, [-1]), op.Constant(value_ints=positions), axis=0)
    return op.Reshape(flat, op.Constant(value_ints=list(size)))


def _check_within(self: Any, positions: Sequence[int]) -> None:
    """Refuse positions past the tensor's elements: torch reads them from the storage the
    tensor is a view of, which a graph input does not carry."""
    lengths = [static_dim(self, axis) for axis in range(rank(self))]
    if not positions or any(length is None for length in lengths):
        return
    count = math.prod(length for length in lengths if length is not None)
    if max(positions) >= count:
        raise ValueError(
            f"as_strided reads element {max(positions)} of a tensor of {count} elements "
            "(beyond the tensor, in the storage it views, which the graph does not have)"
        )
