"""Views and layout: view/reshape, permute, transpose, expand, (un)squeeze, cat, stack,
slice, narrow, select, split, chunk, unbind, gather, index_select, flatten, pad, repeat,
repeat_interleave, roll, atleast_nd, unfold, diagonal, as_strided. Sizes, bounds and indices may be symbolic (rank-0 values
torch.onnx hands over for ``SymInt``): they are computed at run time, static runs of a size
list staying one constant."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten.elementwise import floor_divide_int
from onnxscript.function_libs.torch_lib.helpers.complex_layout import complex_axis, parts_constant
from onnxscript.function_libs.torch_lib.helpers.constants import int64_constant
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.helpers.facts import (
    element_type,
    is_bool,
    is_empty_vector,
    is_integer,
    rank,
)
from onnxscript.function_libs.torch_lib.helpers.sizes import (
    BIG,
    add,
    all_static,
    as_int64,
    ceil_div,
    concat_shape,
    dim_size,
    dim_source,
    dims_piece,
    int64_typed,
    is_static,
    maximum,
    minimum,
    mul,
    scalar_like,
    shape_input,
    shape_of,
    size_pieces,
    sub,
    vector_input,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import BOOL, INT64, TAnyTensor


def _reshape(self: Any, size: Any) -> Any:
    """Reshape to a size list (static or symbolic sizes, -1 inferred). A literal 0 is a
    size of 0, as in torch (ONNX copies the input dim unless ``allowzero``); otherwise a
    size that is ``self``'s own dim at the same position becomes 0 ("copy that dim") and a
    lone symbolic size -1, so that ``x.view(x.size(0), -1)`` or ``x.view(batch, 512)``
    need no shape arithmetic."""
    zero = isinstance(size, (list, tuple)) and any(is_static(d) and d == 0 for d in size)
    if isinstance(size, (list, tuple)) and not zero:
        size = _inferred_sizes([0 if _own_dim(self, d, i) else d for i, d in enumerate(size)])
    return op.Reshape(self, shape_input(size), allowzero=1 if zero else 0)


def _inferred_sizes(size: list[Any]) -> list[Any]:
    """The one symbolic size of a list whose other sizes are static (none -1 nor 0) as
    -1: Reshape infers it from the element count, so it need not be computed."""
    symbolic = [i for i, d in enumerate(size) if not is_static(d)]
    if len(symbolic) != 1 or any(d == -1 for d in size if is_static(d)):
        return size
    return [-1 if i == symbolic[0] else d for i, d in enumerate(size)]


def _own_dim(self: Any, size: Any, position: int) -> bool:
    """Whether ``size`` is dim ``position`` of ``self`` read at run time."""
    if is_static(size):
        return False
    source = dim_source(size)
    return source is not None and source[0] is self and source[1] == position


@aten("aten::view", "aten::_unsafe_view", "aten::view_copy")
def view(self: TAnyTensor, size: Sequence[int]) -> TAnyTensor:
    """view(Tensor(a) self, SymInt[] size) -> Tensor(a)"""
    return _reshape(self, size)


@aten("aten::reshape")
def reshape(self: TAnyTensor, shape: Sequence[int]) -> TAnyTensor:
    """reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)"""
    return _reshape(self, shape)


@aten("aten::view_as")
def view_as(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """view_as(Tensor(a) self, Tensor other) -> Tensor(a)"""
    return _reshape_like(self, other)


@aten("aten::view_as", complex=True)
def view_as_complex_layout(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """view_as(Tensor(a) self, Tensor other) -> Tensor(a)

    A complex ``self`` shaped as ``other``, taken to be complex too (its layout's shape,
    parts axis included, is the target; a real ``other`` cannot be told apart here)."""
    return _reshape_like(self, other)


def _reshape_like(self: Any, other: Any) -> Any:
    target = shape_of(other)
    if isinstance(target, list):
        return _reshape(self, target)
    return op.Reshape(self, target, allowzero=1)


@aten("aten::permute", "aten::permute_copy")
def permute(self: TAnyTensor, dims: Sequence[int]) -> TAnyTensor:
    """permute(Tensor(a) self, int[] dims) -> Tensor(a)"""
    count = rank(self)
    return op.Transpose(self, perm=[d % count if count else d for d in dims])


@aten("aten::transpose.int", "aten::transpose_copy.int")
def transpose(self: TAnyTensor, dim0: int, dim1: int) -> TAnyTensor:
    """transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)"""
    count = rank(self)
    if count < 2:
        return op.Identity(self)
    perm = list(range(count))
    a, b = dim0 % count, dim1 % count
    perm[a], perm[b] = perm[b], perm[a]
    return op.Transpose(self, perm=perm)


@aten("aten::contiguous")
def contiguous(self: TAnyTensor, *, memory_format: str = "") -> TAnyTensor:
    """contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)"""
    return op.Identity(self)


@aten("aten::contiguous", complex=True)
def contiguous_complex(self: TAnyTensor, *, memory_format: str = "") -> TAnyTensor:
    """contiguous(Tensor(a) self, *, MemoryFormat memory_format=0) -> Tensor(a)"""
    return op.Identity(self)


@aten("aten::expand", "aten::expand_copy")
def expand(self: TAnyTensor, size: Sequence[int], implicit: bool = False) -> TAnyTensor:
    """expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)

    -1 keeps a dim: Expand's broadcasting keeps it for a 1.
    """
    target = [1 if is_static(d) and d == -1 else d for d in size]
    return op.Expand(self, shape_input(target))


@aten("aten::broadcast_to")
def broadcast_to(self: TAnyTensor, size: Sequence[int]) -> TAnyTensor:
    """broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)"""
    return expand(self, size)


@aten("aten::broadcast_to", complex=True)
def broadcast_to_complex(self: TAnyTensor, size: Sequence[int]) -> TAnyTensor:
    """broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)"""
    return expand(self, [*size, 2])


@aten("aten::expand_as")
def expand_as(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """expand_as(Tensor(a) self, Tensor other) -> Tensor(a)"""
    return op.Expand(self, shape_of(other))


@aten("aten::expand_as", complex=True)
def expand_as_complex(self: TAnyTensor, other: TAnyTensor) -> TAnyTensor:
    """expand_as(Tensor(a) self, Tensor other) -> Tensor(a)

    Like :func:`view_as_complex_layout`, ``other`` is taken to be complex.
    """
    return op.Expand(self, shape_of(other))


@aten("aten::unsqueeze", "aten::unsqueeze_copy")
def unsqueeze(self: TAnyTensor, dim: int) -> TAnyTensor:
    """unsqueeze(Tensor(a) self, int dim) -> Tensor(a)"""
    return op.Unsqueeze(self, [dim])


def _squeeze(self: TAnyTensor, dims: Sequence[int]) -> TAnyTensor:
    """Remove the listed dims that are 1 (torch ignores the others)."""
    if rank(self) == 0:
        return op.Identity(self)
    keep = [d for d in dims if static_dim(self, d) == 1]
    return op.Squeeze(self, keep) if keep else op.Identity(self)


@aten("aten::squeeze.dim", "aten::squeeze_copy.dim")
def squeeze_dim(self: TAnyTensor, dim: int) -> TAnyTensor:
    """squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)"""
    return _squeeze(self, [dim])


@aten("aten::squeeze.dims", "aten::squeeze_copy.dims")
def squeeze_dims(self: TAnyTensor, dim: Sequence[int]) -> TAnyTensor:
    """squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)"""
    return _squeeze(self, list(dim))


@aten("aten::squeeze", "aten::squeeze_copy")
def squeeze(self: TAnyTensor) -> TAnyTensor:
    """squeeze(Tensor(a) self) -> Tensor(a)"""
    return _squeeze(self, list(range(rank(self))))


@aten("aten::flatten.using_ints")
def flatten(self: TAnyTensor, start_dim: int = 0, end_dim: int = -1) -> TAnyTensor:
    """flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)"""
    if rank(self) == 0:
        return op.Reshape(self, [1])
    return _flatten(self, start_dim % rank(self), end_dim % rank(self))


@aten("aten::flatten.using_ints", complex=True)
def flatten_complex(self: TAnyTensor, start_dim: int = 0, end_dim: int = -1) -> TAnyTensor:
    """flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)"""
    count = rank(self) - 1
    if count == 0:
        return op.Reshape(self, [1, 2])
    return _flatten(self, start_dim % count, end_dim % count)


def _flatten(self: Any, start: int, end: int) -> Any:
    """Dims ``start..end`` (inclusive) merged into one. The dims before stay as 0s (ONNX
    copies them from the input, static or not) and the merged one is -1, unless a dim
    after is a static 0 (a literal 0 there must mean 0)."""
    if start >= end:
        return op.Identity(self)
    after = dims_piece(self, end + 1, rank(self))
    if not (isinstance(after, list) and 0 in after):
        return op.Reshape(self, concat_shape([[0] * start + [-1], after]))
    before = dims_piece(self, 0, start)
    merged = dims_piece(self, start, end + 1)
    product = [math.prod(merged)] if isinstance(merged, list) else op.ReduceProd(merged)
    return op.Reshape(self, concat_shape([before, product, after]), allowzero=1)


@aten("aten::unflatten.int")
def unflatten(self: TAnyTensor, dim: int, sizes: Sequence[int]) -> TAnyTensor:
    """unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)"""
    return _unflatten(self, dim % rank(self), sizes)


@aten("aten::unflatten.int", complex=True)
def unflatten_complex(self: TAnyTensor, dim: int, sizes: Sequence[int]) -> TAnyTensor:
    """unflatten.int(Tensor(a) self, int dim, SymInt[] sizes) -> Tensor(a)"""
    return _unflatten(self, complex_axis(self, dim), sizes)


def _unflatten(self: Any, axis: int, sizes: Sequence[Any]) -> Any:
    """Dim ``axis`` split into ``sizes`` (one may be -1): the dims before are copied (0s),
    those after read from torch's shape or at run time."""
    middle = size_pieces(sizes)
    after = dims_piece(self, axis + 1, rank(self))
    zero = any(is_static(d) and d == 0 for d in sizes) or (isinstance(after, list) and 0 in after)
    before = dims_piece(self, 0, axis) if zero else [0] * axis
    target = concat_shape([before, *middle, after])
    return op.Reshape(self, target, allowzero=1 if zero else 0)


@aten("aten::cat", "aten::concat", "aten::concatenate")
def cat(tensors: Sequence[TAnyTensor], dim: int = 0) -> TAnyTensor:
    """cat(Tensor[] tensors, int dim=0) -> Tensor"""
    present = [t for t in tensors if not is_empty_vector(t)]
    return op.Concat(*(present or tensors), axis=dim)


@aten("aten::stack")
def stack(tensors: Sequence[TAnyTensor], dim: int = 0) -> TAnyTensor:
    """stack(Tensor[] tensors, int dim=0) -> Tensor"""
    return _stack(tensors, dim % (rank(tensors[0]) + 1))


@aten("aten::stack", complex=True)
def stack_complex(tensors: Sequence[TAnyTensor], dim: int = 0) -> TAnyTensor:
    """stack(Tensor[] tensors, int dim=0) -> Tensor"""
    return _stack(tensors, dim % rank(tensors[0]))


def _stack(tensors: Sequence[Any], axis: int) -> Any:
    """A new dim ``axis`` along which the tensors follow each other."""
    if len(tensors) == 1:
        return op.Unsqueeze(tensors[0], [axis])
    return op.Concat(*(op.Unsqueeze(t, [axis]) for t in tensors), axis=axis)


@aten("aten::slice.Tensor", "aten::slice_copy.Tensor")
def slice_(
    self: TAnyTensor, dim: int = 0, start: int = 0, end: int = BIG, step: int = 1
) -> TAnyTensor:
    """slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)

    Attributes, not optional inputs, so that torch.onnx drops an omitted bound (None)
    and the default applies; eager callers may still pass None."""
    begin, stop = _given(start, 0), _given(end, BIG)
    if _whole(self, dim, begin, stop, step):
        return op.Identity(self)
    return op.Slice(self, vector_input(begin), vector_input(stop), [dim], vector_input(step))


def _whole(self: Any, dim: int, begin: Any, stop: Any, step: Any) -> bool:
    """Whether ``self[begin:stop:step]`` along ``dim`` is all of ``self`` (``x[:, :]``
    is written as such slices): no Slice is needed then."""
    if not (is_static(begin) and is_static(stop) and is_static(step)):
        return False
    length = static_dim(self, dim) if self.shape is not None else None
    reaches_end = stop >= BIG or (length is not None and stop >= length)
    return begin == 0 and step == 1 and reaches_end


def _given(value: Any, default: Any) -> Any:
    """An optional ATen argument: ``default`` for None."""
    return default if value is None else value


@aten("aten::narrow")
def narrow(self: TAnyTensor, dim: int, start: int, length: int) -> TAnyTensor:
    """narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)"""
    return _narrow(self, dim, start, length)


@aten("aten::narrow", complex=True)
def narrow_complex(self: TAnyTensor, dim: int, start: int, length: int) -> TAnyTensor:
    """narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)"""
    return _narrow(self, complex_axis(self, dim), start, length)


def _narrow(self: Any, axis: int, start: Any, length: Any) -> Any:
    """``length`` elements from ``start`` along ``axis``; a negative start counts from
    the end (tested at run time when it is symbolic)."""
    if is_static(start):
        if start < 0:
            start = add(dim_size(self, axis), start)
    else:
        start = as_int64(start)
        wrapped = op.Add(start, dim_size(self, axis))
        start = int64_typed(op.Where(op.Less(start, 0), wrapped, start))
    return op.Slice(self, vector_input(start), vector_input(add(start, length)), [axis])


@aten("aten::select.int", "aten::select_copy.int")
def select(self: TAnyTensor, dim: int, index: int) -> TAnyTensor:
    """select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)"""
    return op.Gather(self, as_int64(index), axis=dim)


@aten("aten::split.Tensor", "aten::split_copy.Tensor", "aten::unsafe_split.Tensor")
def split(self: TAnyTensor, split_size: int, dim: int = 0) -> Sequence[TAnyTensor]:
    """split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]"""
    return _split(self, split_size, dim)


def _split(self: Any, split_size: Any, axis: int) -> Any:
    """Parts of ``split_size`` (the last one shorter). When the dim or the size is dynamic
    the number of parts is known only at run time: the parts are then one sequence value
    (SplitToSequence), whose items torch.onnx reads with ``_operator::getitem``."""
    length = static_dim(self, axis)
    if length is None or not is_static(split_size):
        parts = op.SplitToSequence(self, as_int64(split_size), axis=axis)
        return _typed_sequence(parts, self)
    if length == 0:
        return [op.Identity(self)]
    sizes = [min(split_size, length - i) for i in range(0, length, split_size)]
    return _split_with_sizes(self, sizes, axis)


def _typed_sequence(parts: Any, like: Any) -> Any:
    """Give a sequence value its type (torch.onnx types no list output, and
    ``_operator::getitem`` picks SequenceAt for values typed as sequences)."""
    dtype = element_type(like)
    if isinstance(parts, ir.Value) and dtype is not None:
        parts.type = ir.SequenceType(ir.TensorType(dtype))
    return parts


@aten("aten::split_with_sizes", "aten::split_with_sizes_copy")
def split_with_sizes(
    self: TAnyTensor, split_sizes: Sequence[int], dim: int = 0
) -> Sequence[TAnyTensor]:
    """split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]"""
    return _split_with_sizes(self, list(split_sizes), dim)


def _split_with_sizes(self: Any, sizes: list[Any], axis: int) -> list[Any]:
    if len(sizes) > 1 and all_static(sizes) and len(set(sizes)) == 1:
        # Equal parts: one Split node (num_outputs tells every recorder the count).
        return list(op.Split(self, axis=axis, num_outputs=len(sizes)))
    # Otherwise one Slice per part: recorders disagree on how many outputs a Split with
    # sizes has. Symbolic sizes give run-time bounds (static ones fold); the last part
    # runs to the end.
    bounds: list[Any] = [vector_input(0)]
    offset: Any = 0
    for size in sizes[:-1]:
        offset = add(offset, size)
        bounds.append(vector_input(offset))
    bounds.append([BIG])
    return [op.Slice(self, bounds[i], bounds[i + 1], [axis]) for i in range(len(sizes))]


@aten("aten::split.sizes", "aten::split")
def split_sizes(self: TAnyTensor, split_size: Sequence[int], dim: int = 0) -> Sequence[TAnyTensor]:
    """split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]

    ``split`` with a list of sizes (``split_with_sizes`` under another schema).
    """
    return _split_with_sizes(self, list(split_size), dim)


@aten("aten::split.sizes", "aten::split", complex=True)
def split_sizes_complex(
    self: TAnyTensor, split_size: Sequence[int], dim: int = 0
) -> Sequence[TAnyTensor]:
    """split.sizes(Tensor(a -> *) self, SymInt[] split_size, int dim=0) -> Tensor(a)[]"""
    return _split_with_sizes(self, list(split_size), complex_axis(self, dim))


@aten("aten::chunk")
def chunk(self: TAnyTensor, chunks: int, dim: int = 0) -> Sequence[TAnyTensor]:
    """chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]"""
    return _chunk(self, chunks, dim)


@aten("aten::chunk", complex=True)
def chunk_complex(self: TAnyTensor, chunks: int, dim: int = 0) -> Sequence[TAnyTensor]:
    """chunk(Tensor(a -> *) self, int chunks, int dim=0) -> Tensor(a)[]"""
    return _chunk(self, chunks, complex_axis(self, dim))


def _chunk(self: Any, chunks: int, axis: int) -> list[Any]:
    """Parts of ``ceil(n / chunks)`` along ``axis`` (fewer parts when they cover the dim
    sooner). For a dynamic dim, ``chunks`` parts with run-time bounds: torch's graph
    has as many (the last ones may be empty)."""
    length = dim_size(self, axis)
    if is_static(length):
        if length == 0:
            return [op.Identity(self) for _ in range(chunks)]
        return _split(self, ceil_div(length, chunks), axis)
    size = ceil_div(length, chunks)
    parts = []
    for i in range(chunks):
        end = BIG if i == chunks - 1 else mul(i + 1, size)
        parts.append(op.Slice(self, vector_input(mul(i, size)), vector_input(end), [axis]))
    return parts


@aten("aten::unbind.int")
def unbind(self: TAnyTensor, dim: int = 0) -> Sequence[TAnyTensor]:
    """unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]"""
    return _unbind(self, dim % rank(self))


@aten("aten::unbind.int", complex=True)
def unbind_complex(self: TAnyTensor, dim: int = 0) -> Sequence[TAnyTensor]:
    """unbind.int(Tensor(a -> *) self, int dim=0) -> Tensor(a)[]"""
    return _unbind(self, complex_axis(self, dim))


def _unbind(self: Any, axis: int) -> Any:
    """The slices along ``axis``, that dim removed; a sequence value when the dim is
    dynamic (see :func:`split`)."""
    length = static_dim(self, axis)
    if length is None:
        return _typed_sequence(op.SplitToSequence(self, axis=axis, keepdims=0), self)
    if length == 1:
        return [op.Squeeze(self, [axis])]
    parts = op.Split(self, axis=axis, num_outputs=length) if length else []
    return [op.Squeeze(part, [axis]) for part in parts]


@aten("aten::index_select")
def index_select(self: TAnyTensor, dim: int, index: INT64) -> TAnyTensor:
    """index_select(Tensor self, int dim, Tensor index) -> Tensor"""
    if rank(self) == 0:
        return op.Identity(self)  # the only valid index is 0
    return op.Gather(self, index, axis=dim)


@aten("aten::gather")
def gather(self: TAnyTensor, dim: int, index: INT64, sparse_grad: bool = False) -> TAnyTensor:
    """gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor"""
    return op.GatherElements(self, index, axis=dim)


def _pad_pairs(count: int, pad: Sequence[Any]) -> tuple[list[Any], list[Any]]:
    """torch's (begin, end) pairs, listed from the last dim, as ONNX's begins and ends
    per axis (0 for the axes not padded)."""
    begins: list[Any] = [0] * count
    ends: list[Any] = [0] * count
    for i in range(len(pad) // 2):
        begins[count - 1 - i] = pad[2 * i]
        ends[count - 1 - i] = pad[2 * i + 1]
    return begins, ends


@aten("aten::constant_pad_nd")
def constant_pad_nd(self: TAnyTensor, pad: Sequence[int], value: float = 0.0) -> TAnyTensor:
    """constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor"""
    return _constant_pad(self, pad, value, rank(self))


def _constant_pad(self: Any, pad: Sequence[Any], value: Any, count: int) -> Any:
    """Pad with ``value`` (static or symbolic, as are the pads) a tensor of rank
    ``count``; negative pads crop."""
    begins, ends = _pad_pairs(count, pad)
    return op.Pad(self, shape_input(begins + ends), scalar_like(value, self))


@aten("aten::pad")
def pad(
    self: TAnyTensor, pad: Sequence[int], mode: str = "constant", value: float = 0.0
) -> TAnyTensor:
    """pad(Tensor self, SymInt[] pad, str mode="constant", float? value=None) -> Tensor

    torch.nn.functional.pad: constant, reflect, replicate or circular, pairs from the
    last dim (negative ones crop)."""
    return _pad(self, pad, mode, _given(value, 0.0))


def _pad(self: Any, pads: Sequence[Any], mode: str, value: float) -> Any:
    if mode == "constant":
        return _constant_pad(self, pads, value, rank(self))
    if mode == "reflect":
        return _pad_mode(self, pads, "reflect")
    if mode == "replicate":
        return _pad_mode(self, pads, "edge")
    if mode == "circular":
        return _circular_pad(self, pads)
    raise ValueError(f"pad mode {mode!r} is not one of torch's")


@aten("aten::pad", complex=True)
def pad_complex(
    self: TAnyTensor, pad: Sequence[int], mode: str = "constant", value: float = 0.0
) -> TAnyTensor:
    """pad(Tensor self, SymInt[] pad, str mode="constant", float? value=None) -> Tensor

    The complex dims padded (the parts axis gets a (0, 0) pair); a non-zero constant
    fills the real parts."""
    pads = [0, 0, *pad]
    padded = _pad(self, pads, mode, 0.0)
    if mode != "constant" or not _given(value, 0.0):
        return padded
    dtype = element_type(self)
    ones = op.ConstantOfShape(op.Shape(self), value=ir.tensor([1], dtype=dtype))
    inside = _constant_pad(ones, pads, 0, rank(self))
    outside = op.Sub(scalar_like(1, self), inside)
    return op.Add(padded, op.Mul(outside, op.CastLike(parts_constant(value), self)))


@aten("aten::flip")
def flip(self: TAnyTensor, dims: Sequence[int]) -> TAnyTensor:
    """flip(Tensor self, int[] dims) -> Tensor"""
    if not dims:
        return op.Identity(self)
    count = len(dims)
    return op.Slice(self, [-1] * count, [-(2**63)] * count, list(dims), [-1] * count)


@aten("aten::repeat")
def repeat(self: TAnyTensor, repeats: Sequence[int]) -> TAnyTensor:
    """repeat(Tensor self, SymInt[] repeats) -> Tensor"""
    extra = len(repeats) - rank(self)
    base = op.Unsqueeze(self, list(range(extra))) if extra > 0 else self
    return op.Tile(base, shape_input(list(repeats)))


@aten("aten::tile")
def tile(self: TAnyTensor, dims: Sequence[int]) -> TAnyTensor:
    """tile(Tensor self, SymInt[] dims) -> Tensor

    ``repeat`` with ``dims`` padded by leading 1s to the rank.
    """
    return repeat(self, [1] * (rank(self) - len(dims)) + list(dims))


@aten("aten::tile", complex=True)
def tile_complex(self: TAnyTensor, dims: Sequence[int]) -> TAnyTensor:
    """tile(Tensor self, SymInt[] dims) -> Tensor"""
    return repeat(self, [1] * (rank(self) - 1 - len(dims)) + [*dims, 1])


@aten("aten::unfold")
def unfold(self: TAnyTensor, dimension: int, size: int, step: int) -> TAnyTensor:
    """unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)

    Windows of ``size`` every ``step`` along ``dimension``: that dim becomes the number
    of windows and a last dim of ``size`` is added (window starts counted at run time
    when the dim is dynamic)."""
    if rank(self) == 0:
        return op.Unsqueeze(self, [0])
    axis = dimension % rank(self)
    length = static_dim(self, axis)
    if length is None:
        starts = op.Range(0, sub(dim_size(self, axis), size - 1), step)
        offsets = int64_constant(np.arange(size, dtype=np.int64))
        positions_value = op.Add(op.Unsqueeze(starts, [1]), offsets)
    else:
        starts_list = range(0, length - size + 1, step)
        positions = [[start + offset for offset in range(size)] for start in starts_list]
        if not positions:
            positions_value = int64_constant(np.zeros((0, size), dtype=np.int64))
        else:
            positions_value = int64_constant(positions)
    windows = op.Gather(self, positions_value, axis=axis)
    perm = [*range(axis + 1), *range(axis + 2, rank(self) + 1), axis + 1]
    return op.Transpose(windows, perm=perm)


@aten("aten::take")
def take(self: TAnyTensor, index: INT64) -> TAnyTensor:
    """take(Tensor self, Tensor index) -> Tensor

    Elements of the flattened tensor (negative indices count from the end).
    """
    return op.Gather(op.Reshape(self, [-1]), index, axis=0)


@aten("aten::nonzero")
def nonzero(self: TAnyTensor) -> INT64:
    """nonzero(Tensor self) -> Tensor"""
    if rank(self) == 0:  # torch: one row per true scalar, with no columns
        found = op.Transpose(op.NonZero(op.Reshape(self, [1])), perm=[1, 0])
        return op.Slice(found, [0], [0], [1])
    return op.Transpose(op.NonZero(self), perm=[1, 0])


@aten("aten::scatter.src")
def scatter(self: TAnyTensor, dim: int, index: INT64, src: TAnyTensor) -> TAnyTensor:
    """scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor"""
    updates = op.Expand(op.CastLike(src, self), op.Shape(index)) if rank(src) == 0 else src
    return _scatter_elements(self, index, updates, dim)


@aten("aten::scatter.value")
def scatter_value(self: TAnyTensor, dim: int, index: INT64, value: float) -> TAnyTensor:
    """scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor

    Every indexed position set to the number ``value``.
    """
    updates = op.Expand(op.CastLike(value, self), op.Shape(index))
    return _scatter_elements(self, index, updates, dim)


def _scatter_elements(self: Any, index: Any, updates: Any, dim: int) -> Any:
    """ScatterElements, which needs a rank of 1 or more: a scalar is scattered as [1]."""
    if rank(self) > 0:
        return op.ScatterElements(self, index, updates, axis=dim)
    as_vectors = (op.Unsqueeze(v, [0]) for v in (self, index, updates))
    return op.Squeeze(op.ScatterElements(*as_vectors, axis=0), [0])


@aten("aten::scatter_add")
def scatter_add(self: TAnyTensor, dim: int, index: INT64, src: TAnyTensor) -> TAnyTensor:
    """scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor"""
    return op.ScatterElements(self, index, src, axis=dim, reduction="add")


_REDUCTIONS = {"sum": "add", "prod": "mul", "amax": "max", "amin": "min"}
_NEUTRAL = {"sum": 0.0, "prod": 1.0, "amax": float("-inf"), "amin": float("inf")}
"""What each reduction leaves a value alone with (scattered first when self is excluded)."""


@aten("aten::scatter_reduce.two")
def scatter_reduce(
    self: TAnyTensor,
    dim: int,
    index: INT64,
    src: TAnyTensor,
    reduce: str,
    include_self: bool = True,
) -> TAnyTensor:
    """scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor"""
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


@aten("aten::scatter.reduce")
def scatter_with_reduce(
    self: TAnyTensor, dim: int, index: INT64, src: TAnyTensor, *, reduce: str
) -> TAnyTensor:
    """scatter.reduce(Tensor self, int dim, Tensor index, Tensor src, *, str reduce) -> Tensor"""
    updates = op.Expand(op.CastLike(src, self), op.Shape(index)) if rank(src) == 0 else src
    return op.ScatterElements(self, index, updates, axis=dim, reduction=_scatter_reduction(reduce))


@aten("aten::scatter.value_reduce")
def scatter_value_with_reduce(
    self: TAnyTensor, dim: int, index: INT64, value: float, *, reduce: str
) -> TAnyTensor:
    """scatter.value_reduce(Tensor self, int dim, Tensor index, Scalar value, *, str reduce) -> Tensor"""
    updates = op.Expand(scalar_like(value, self), op.Shape(index))
    return op.ScatterElements(self, index, updates, axis=dim, reduction=_scatter_reduction(reduce))


def _scatter_reduction(reduce: str) -> str:
    reduction = {"add": "add", "multiply": "mul"}.get(reduce)
    if reduction is None:
        raise NotImplementedError(f"scatter with reduce={reduce!r} is not supported")
    return reduction


def _positions(length: Any, axis: int = 0, count: int = 1) -> Any:
    """0..n-1 (n static or symbolic) laid along ``axis`` of ``count`` dims (1 on the
    others)."""
    shape = [1] * count
    shape[axis] = -1
    if is_static(length):
        return int64_constant(np.arange(length, dtype=np.int64).reshape(shape))
    steps = op.Range(0, length, 1)
    return steps if count == 1 else op.Reshape(steps, shape)


def _cast_like(value: Any, like: Any) -> Any:
    """``value`` in the element type of ``like`` (no Cast when torch typed both alike)."""
    dtype = element_type(like)
    return value if dtype is not None and element_type(value) == dtype else op.CastLike(value, like)


@aten("aten::select_scatter")
def select_scatter(self: TAnyTensor, src: TAnyTensor, dim: int, index: int) -> TAnyTensor:
    """select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor

    ``self`` with ``self.select(dim, index)`` replaced by ``src``.
    """
    dim = dim % rank(self)
    length = dim_size(self, dim)
    if is_static(index) and is_static(length):
        position: Any = int(index) % int(length) if length else 0
    else:
        position = op.Mod(as_int64(index), as_int64(length))
    chosen = op.Equal(_positions(length, dim, rank(self)), position)
    return op.Where(chosen, op.Unsqueeze(_cast_like(src, self), [dim]), self)


@aten("aten::reflection_pad1d", "aten::reflection_pad2d", "aten::reflection_pad3d")
def reflection_pad(self: TAnyTensor, padding: Sequence[int]) -> TAnyTensor:
    """reflection_pad1d(Tensor self, SymInt[2] padding) -> Tensor"""
    return _pad_mode(self, padding, "reflect")


@aten("aten::replication_pad1d", "aten::replication_pad2d", "aten::replication_pad3d")
def replication_pad(self: TAnyTensor, padding: Sequence[int]) -> TAnyTensor:
    """replication_pad1d(Tensor self, SymInt[2] padding) -> Tensor"""
    return _pad_mode(self, padding, "edge")


def _pad_mode(self: Any, padding: Sequence[Any], mode: str) -> Any:
    """torch's (begin, end) pairs from the last dim. Negative ones crop, which ONNX's edge
    and reflect modes do not take: an edge-padded axis with a crop is a gather of
    clamped positions (torch's own definition), a reflected one is sliced first.
    Symbolic pads (of either sign) pad each axis by a gather of positions computed at
    run time."""
    count = rank(self)
    begins, ends = _pad_pairs(count, padding)
    if not all_static(begins + ends):
        for axis in range(count):
            if not (_is_zero(begins[axis]) and _is_zero(ends[axis])):
                self = _gathered_pad(self, axis, begins[axis], ends[axis], mode)
        return self
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
                [ends[axis] if ends[axis] < 0 else BIG],
                [axis],
            )
            begins[axis], ends[axis] = max(0, begins[axis]), max(0, ends[axis])
    pads = begins + ends
    return op.Pad(self, pads, mode=mode) if any(pads) else op.Identity(self)


def _gathered_pad(self: Any, axis: int, begin: Any, end: Any, mode: str) -> Any:
    """``axis`` padded (or cropped) by ``begin`` and ``end`` elements: output position j
    takes input position p = j - begin clamped (edge) or reflected (reflect) into
    0..n-1."""
    length = dim_size(self, axis)
    positions = op.Range(as_int64(sub(0, begin)), as_int64(add(length, end)), 1)
    last = as_int64(sub(length, 1))
    if mode == "edge":
        index = op.Min(op.Max(positions, 0), last)
    else:  # reflect: p -> |p| -> n-1 - |n-1 - |p||
        index = op.Sub(last, op.Abs(op.Sub(last, op.Abs(positions))))
    return op.Gather(self, index, axis=axis)


def _clamped_gather(self: Any, axis: int, length: int | None, begin: int, end: int) -> Any:
    """Output position j of ``axis`` takes input position clamp(j - begin, 0, n - 1)."""
    if length is None:
        return _gathered_pad(self, axis, begin, end, "edge")
    positions = [min(max(j - begin, 0), length - 1) for j in range(length + begin + end)]
    return op.Gather(self, op.Constant(value_ints=positions), axis=axis)


def _circular_pad(self: Any, padding: Sequence[Any]) -> Any:
    """Each axis cropped by its negative pads, then wrapped: the begin pad repeats the
    (cropped) axis's end, the end pad its start."""
    count = rank(self)
    begins, ends = _pad_pairs(count, padding)
    padded = self
    for axis in range(count):
        if not (_is_zero(begins[axis]) and _is_zero(ends[axis])):
            padded = _circular_axis(padded, axis, begins[axis], ends[axis])
    return op.Identity(self) if padded is self else padded


def _is_zero(value: Any) -> bool:
    return is_static(value) and value == 0


def _circular_axis(self: Any, axis: int, begin: Any, end: Any) -> Any:
    length = dim_size(self, axis)
    crop_begin, crop_end = maximum(sub(0, begin), 0), maximum(sub(0, end), 0)
    if not (_is_zero(crop_begin) and _is_zero(crop_end)):
        stop = sub(length, crop_end)
        self = op.Slice(self, vector_input(crop_begin), vector_input(stop), [axis])
        length = sub(stop, crop_begin)
    grow_begin, grow_end = maximum(begin, 0), maximum(end, 0)
    if is_static(grow_begin) and is_static(grow_end):
        pieces = []
        if grow_begin:
            pieces.append(op.Slice(self, [-grow_begin], [BIG], [axis]))
        pieces.append(self)
        if grow_end:
            pieces.append(op.Slice(self, [0], [grow_end], [axis]))
        return op.Concat(*pieces, axis=axis) if len(pieces) > 1 else self
    positions = op.Range(as_int64(sub(0, grow_begin)), as_int64(add(length, grow_end)), 1)
    return op.Gather(self, op.Mod(positions, as_int64(length)), axis=axis)


@aten("aten::index.Tensor")
def index(self: TAnyTensor, indices: Sequence[INT64 | None]) -> TAnyTensor:
    """index.Tensor(Tensor self, Tensor?[] indices) -> Tensor

    Advanced indexing with integer index tensors (None: the whole dim), numpy's rule:
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


def _as_index(index: Any) -> Any:
    """An index tensor as INT64: cast unless it is known to be INT64 already."""
    return index if element_type(index) == INT64.dtype else op.Cast(index, to=INT64.dtype)


def _stacked_indices(indices: Sequence[Any], given: list[int]) -> Any:
    """The given index tensors (int64; torch also takes int32) broadcast together and
    stacked on a last axis."""
    columns = [_as_index(indices[i]) for i in given]
    total = columns[0]
    for column in columns[1:]:
        total = op.Add(total, column)  # only its shape is used: the broadcast one
    shape = op.Shape(total)
    return op.Concat(*(op.Unsqueeze(op.Expand(c, shape), [-1]) for c in columns), axis=-1)


@aten("aten::index_put")
def index_put(
    self: TAnyTensor, indices: Sequence[INT64 | None], values: TAnyTensor, accumulate: bool = False
) -> TAnyTensor:
    """index_put(Tensor self, Tensor?[] indices, Tensor values, bool accumulate=False) -> Tensor

    ``self[indices] = values`` (``+=`` with ``accumulate``), integer index tensors.
    """
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
    self: TAnyTensor,
    src: TAnyTensor,
    dim: int = 0,
    start: int = 0,
    end: int = BIG,
    step: int = 1,
) -> TAnyTensor:
    """slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor

    ``self`` with ``self[start:end:step]`` along ``dim`` replaced by ``src``: the
    positions are computed (at run time for symbolic bounds or dims) and written with
    ScatterElements."""
    dim = dim % rank(self)
    positions = _positions(dim_size(self, dim))
    begin, stop = _given(start, 0), _given(end, BIG)
    chosen = op.Slice(positions, vector_input(begin), vector_input(stop), [0], vector_input(step))
    axis_shape = [1] * rank(self)
    axis_shape[dim] = -1
    index = op.Expand(op.Reshape(chosen, axis_shape), op.Shape(src))
    return op.ScatterElements(self, index, _cast_like(src, self), axis=dim)


@aten("aten::diagonal", "aten::diagonal_copy")
def diagonal(self: TAnyTensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> TAnyTensor:
    """diagonal(Tensor(a) self, int offset=0, int dim1=0, int dim2=1) -> Tensor(a)

    The diagonal of dims (dim1, dim2) moved to the last axis: each k takes
    ``self[..., k, k + offset]`` (rows shifted instead for a negative offset). Its length
    is counted at run time when either dim is dynamic."""
    count = rank(self)
    dim1, dim2 = dim1 % count, dim2 % count
    rest = [d for d in range(count) if d not in (dim1, dim2)]
    moved = op.Transpose(self, perm=[*rest, dim1, dim2])
    row_start, col_start = (0, offset) if offset >= 0 else (-offset, 0)
    rows, cols = dim_size(self, dim1), dim_size(self, dim2)
    length = maximum(0, minimum(sub(rows, row_start), sub(cols, col_start)))
    if is_static(length):
        row_index = op.Constant(value_ints=[row_start + k for k in range(length)])
        col_index = op.Constant(value_ints=[col_start + k for k in range(length)])
    else:
        steps = op.Range(0, length, 1)
        row_index = op.Add(steps, row_start) if row_start else steps
        col_index = op.Add(steps, col_start) if col_start else steps
    picked_rows = op.Gather(moved, row_index, axis=-2)  # [..., L, cols]
    index = op.Unsqueeze(col_index, [-1])  # [L, 1]
    lead = op.Shape(picked_rows, end=-1)
    gathered = op.GatherElements(
        picked_rows, op.Expand(index, op.Concat(lead, op.Constant(value_ints=[1]), axis=0)), axis=-1
    )
    return op.Squeeze(gathered, [-1])


@aten("aten::masked_scatter")
def masked_scatter(self: TAnyTensor, mask: BOOL, source: TAnyTensor) -> TAnyTensor:
    """masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor

    ``self`` with the positions where ``mask`` is true filled, in order, by the
    leading elements of ``source``."""
    full_mask = op.Expand(mask, op.Shape(self))
    positions = op.Transpose(op.NonZero(full_mask), perm=[1, 0])
    count = op.Shape(positions, end=1)
    taken = op.Slice(op.Reshape(source, [-1]), [0], count, [0])
    return op.ScatterND(self, positions, op.CastLike(taken, self))


@aten("aten::as_strided", "aten::as_strided_copy")
def as_strided(
    self: TAnyTensor, size: Sequence[int], stride: Sequence[int], storage_offset: int = 0
) -> TAnyTensor:
    """as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)

    A view of the flat (contiguous) data: element ``idx`` of the result is element
    ``storage_offset + sum(idx[k] * stride[k])``. Static sizes and strides give constant
    positions (checked against the tensor); symbolic ones positions computed at run
    time."""
    offset = _given(storage_offset, 0)
    flat = op.Reshape(self, [-1])
    if not all_static([*size, *stride, offset]):
        return op.Gather(flat, _strided_positions(size, stride, offset), axis=0)
    positions = [int(offset)]
    for length, step in zip(size, stride):
        positions = [p + i * int(step) for p in positions for i in range(int(length))]
    _check_within(self, positions)
    gathered = op.Gather(flat, op.Constant(value_ints=positions), axis=0)
    return op.Reshape(gathered, op.Constant(value_ints=[int(d) for d in size]))


def _strided_positions(size: Sequence[Any], stride: Sequence[Any], offset: Any) -> Any:
    """``offset + sum(i_k * stride_k)`` over the grid of ``size``: one run-time Range per
    dim, broadcast into place."""
    positions: Any = as_int64(offset)
    count = len(size)
    for k, (length, step) in enumerate(zip(size, stride)):
        along = op.Mul(op.Range(0, as_int64(length), 1), as_int64(step))
        if count - k - 1:
            along = op.Unsqueeze(along, list(range(1, count - k)))
        positions = op.Add(positions, along)
    return positions


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


@aten("aten::getitem")
def getitem(self: Sequence[TAnyTensor], i: int) -> TAnyTensor:
    """Item ``i`` of a sequence value (0.7's name; FX graphs use ``_operator::getitem``)."""
    return op.SequenceAt(self, as_int64(i))


@aten("aten::atleast_1d")
def atleast_1d(self: TAnyTensor) -> TAnyTensor:
    """atleast_1d(Tensor self) -> Tensor"""
    return _at_least(self, 1)


@aten("aten::atleast_2d")
def atleast_2d(self: TAnyTensor) -> TAnyTensor:
    """atleast_2d(Tensor self) -> Tensor"""
    return _at_least(self, 2)


@aten("aten::atleast_3d")
def atleast_3d(self: TAnyTensor) -> TAnyTensor:
    """atleast_3d(Tensor self) -> Tensor"""
    return _at_least(self, 3)


@aten("aten::atleast_1d.Sequence")
def atleast_1d_sequence(tensors: Sequence[TAnyTensor]) -> Sequence[TAnyTensor]:
    """atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]"""
    return [_at_least(t, 1) for t in tensors]


@aten("aten::atleast_2d.Sequence")
def atleast_2d_sequence(tensors: Sequence[TAnyTensor]) -> Sequence[TAnyTensor]:
    """atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]"""
    return [_at_least(t, 2) for t in tensors]


@aten("aten::atleast_3d.Sequence")
def atleast_3d_sequence(tensors: Sequence[TAnyTensor]) -> Sequence[TAnyTensor]:
    """atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]"""
    return [_at_least(t, 3) for t in tensors]


_AT_LEAST_AXES = {
    1: {0: [0]},
    2: {0: [0, 1], 1: [0]},
    3: {0: [0, 1, 2], 1: [0, 2], 2: [2]},
}
"""The new unit axes of ``atleast_{n}d`` by input rank (3-D: ``[N]`` to ``[1, N, 1]``,
``[M, N]`` to ``[M, N, 1]``)."""


def _at_least(self: Any, count: int) -> Any:
    axes = _AT_LEAST_AXES[count].get(rank(self))
    return op.Unsqueeze(self, axes) if axes else op.Identity(self)


# hstack and vstack are not registered: torch decomposes them into atleast_nd and cat
# before torch.onnx sees them. Plain functions for callers of onnxscript 0.7's names.


def hstack(tensors: Sequence[TAnyTensor]) -> TAnyTensor:
    """hstack(Tensor[] tensors) -> Tensor

    The tensors at least 1-D, joined along dim 0 if they are 1-D, else along dim 1."""
    widened = [_at_least(t, 1) for t in tensors]
    return cat(widened, 0 if rank(tensors[0]) <= 1 else 1)


def vstack(tensors: Sequence[TAnyTensor]) -> TAnyTensor:
    """vstack(Tensor[] tensors) -> Tensor

    The tensors at least 2-D, joined along dim 0."""
    return cat([_at_least(t, 2) for t in tensors], 0)


@aten("aten::mT")
def matrix_transpose(self: TAnyTensor) -> TAnyTensor:
    """mT(Tensor(a) self) -> Tensor(a)

    The last two dims swapped.
    """
    return transpose(self, -2, -1)


@aten("aten::mH")
def matrix_adjoint(self: TAnyTensor) -> TAnyTensor:
    """mH(Tensor(a) self) -> Tensor(a)

    The conjugate transpose: the transpose for real tensors.
    """
    return transpose(self, -2, -1)


@aten("aten::roll")
def roll(self: TAnyTensor, shifts: Sequence[int], dims: Sequence[int] = ()) -> TAnyTensor:
    """roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor

    Each dim's elements rotated by its shift: two slices concatenated. No ``dims``: the
    flattened tensor rolled, then shaped back."""
    if not dims:
        flat = op.Reshape(self, [-1])
        return op.Reshape(_roll(flat, shifts[0], 0), op.Shape(self))
    result = self
    for shift, axis in zip(shifts, dims):
        result = _roll(result, shift, axis if axis >= 0 else axis % rank(self))
    return result


def _roll(self: Any, shift: Any, axis: int) -> Any:
    length = static_dim(self, axis)
    if length is not None and is_static(shift):
        cut = (length - int(shift) % length) if length else 0
        if cut in (0, length):
            return op.Identity(self)
        start: Any = [cut]
    else:
        # out[i] = x[(i - shift) mod L]: the result starts at (-shift) mod L, in [0, L)
        size = op.Shape(self, start=axis, end=axis + 1)
        if is_static(shift):
            back: Any = [-int(shift)]
        else:
            back = op.Neg(op.Reshape(as_int64(shift), [1]))
        start = op.Mod(back, size)
    tail = op.Slice(self, start, [BIG], [axis])
    head = op.Slice(self, [0], start, [axis])
    return op.Concat(tail, head, axis=axis)


_NO_DIM = -(2**62)
"""``dim`` not given (torch.onnx drops a None attribute, so the default stands for it)."""


@aten("aten::repeat_interleave.self_int")
def repeat_interleave_self_int(
    self: TAnyTensor, repeats: int, dim: int = _NO_DIM, *, output_size: int = -1
) -> TAnyTensor:
    """repeat_interleave.self_int(Tensor self, SymInt repeats, int? dim=None, *, SymInt? output_size=None) -> Tensor

    Each element ``repeats`` times in a row along ``dim`` (of the flattened tensor when
    no dim): a new unit axis after ``dim`` expanded, then merged into it."""
    if dim == _NO_DIM or dim is None or rank(self) == 0:
        source, axis, count = op.Reshape(self, [-1]), 0, 1
        before: Any = []
        after: Any = []
        length: Any = -1
    else:
        count = rank(self)
        source, axis = self, dim % count
        before, after = dims_piece(self, 0, axis), dims_piece(self, axis + 1, count)
        length = mul(dim_size(self, axis), repeats)
    spread = op.Unsqueeze(source, [axis + 1])
    ones = [[1]] * count
    target = concat_shape([*ones[: axis + 1], *size_pieces([repeats]), *ones[axis + 1 :]])
    expanded = op.Expand(spread, target)
    return op.Reshape(expanded, concat_shape([before, *size_pieces([length]), after]))


@aten("aten::repeat_interleave.Tensor")
def repeat_interleave_tensor(repeats: TAnyTensor, *, output_size: int = -1) -> TAnyTensor:
    """repeat_interleave.Tensor(Tensor repeats, *, SymInt? output_size=None) -> Tensor

    ``[0] * repeats[0] + [1] * repeats[1] + ...``: output position ``p`` holds the number
    of running totals of ``repeats`` at or below ``p``."""
    counts = op.Cast(op.Reshape(repeats, [-1]), to=INT64.dtype)
    ends = op.CumSum(counts, op.Constant(value_int=0))
    total = op.ReduceSum(counts, keepdims=0)
    positions = op.Range(op.Constant(value_int=0), total, op.Constant(value_int=1))
    passed = op.LessOrEqual(op.Unsqueeze(ends, [0]), op.Unsqueeze(positions, [1]))
    index = op.ReduceSum(op.Cast(passed, to=INT64.dtype), [1], keepdims=0)
    return op.CastLike(index, repeats)
