"""Views and layout: view/reshape, permute, transpose, expand, (un)squeeze, cat, slice,
select, split, gather, index_select, pad."""

from __future__ import annotations

from collections.abc import Sequence

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.ops.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.ops.facts import is_empty_vector, rank
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TTensor

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


@aten("aten::transpose.int")
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
    # One Slice per part: recorders disagree on how many outputs a Split with sizes has.
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
