"""What the fusion rules' checks read off matched values: constant numbers, element
types, dimensions compared symbolically (``s10`` equals ``s10``), in the terms of
:mod:`onnxscript.ir_utils.value_facts` (one policy for what is constant and which dims
are equal)."""

from __future__ import annotations

from collections.abc import Sequence

import onnx_ir as ir

from onnxscript.ir_utils import value_facts

FLOAT_TYPES = frozenset(
    {ir.DataType.FLOAT, ir.DataType.FLOAT16, ir.DataType.BFLOAT16, ir.DataType.DOUBLE}
)
"""The element types a normalization fusion takes."""

STASH_TYPES = frozenset({ir.DataType.FLOAT, ir.DataType.DOUBLE})
"""The types a normalization's statistics are computed in (its ``stash_type``)."""


def constant_ints(value: ir.Value | None) -> list[int] | None:
    """The integers of a small integer constant (any rank, flattened), or None."""
    array = value_facts.constant_array(value, 64)
    if array is None or array.dtype.kind not in "iu":
        return None
    return [int(x) for x in array.ravel()]


def constant_float(value: ir.Value | None) -> float | None:
    """The number held by a one-element constant, or None."""
    found = value_facts.singleton(value)
    return None if found is None else float(found)


def is_float(value: ir.Value | None) -> bool:
    return value is not None and value.dtype in FLOAT_TYPES


rank = value_facts.rank


def dim(value: ir.Value, axis: int) -> int | ir.SymbolicDim | None:
    """Dimension ``axis`` of ``value`` (static int or named symbolic), None when unknown."""
    found = value_facts.dim(value, axis)
    if isinstance(found, ir.SymbolicDim) and found.value is None:
        return None
    return found


def static_dim(value: ir.Value, axis: int) -> int | None:
    found = dim(value, axis)
    return found if isinstance(found, int) else None


def same_dim(a: ir.Value, a_axis: int, b: ir.Value, b_axis: int) -> bool:
    """Whether two dimensions are known to be equal (same number or same symbol)."""
    return value_facts.same_dim(dim(a, a_axis), dim(b, b_axis))


def normalized_axis(axes: Sequence[int], rank_: int | None) -> int | None:
    """The first axis when ``axes`` are the trailing axes ``[k, ..., rank-1]`` (then
    ``k`` is returned, negative when the rank is unknown), else None."""
    if not axes:
        return None
    if rank_ is None:
        wanted = list(range(-len(axes), 0))
        return -len(axes) if sorted(axes) == wanted else None
    positive = sorted(a + rank_ if a < 0 else a for a in axes)
    return positive[0] if positive == list(range(rank_ - len(axes), rank_)) else None


def trailing_axis(x: ir.Value, axes: ir.Value) -> int | None:
    """The first of the constant ``axes`` of a normalization of ``x`` when they are its
    trailing axes (:func:`normalized_axis`), else None."""
    values = constant_ints(axes)
    return None if values is None else normalized_axis(values, rank(x))


def from_end(axis: int | None, x: ir.Value) -> int | None:
    """``axis`` of ``x`` counted from the end, as torch writes it (unchanged when the
    rank is unknown)."""
    x_rank = rank(x)
    return axis - x_rank if axis is not None and axis >= 0 and x_rank is not None else axis


def stash_type(x: ir.Value, compute_type: ir.Attr | None = None) -> int:
    """A normalization's ``stash_type``: the type the statistics were computed in (a
    Cast's ``to``), else float (double for double inputs)."""
    if compute_type is not None:
        return compute_type.as_int()
    return int(ir.DataType.DOUBLE if x.dtype == ir.DataType.DOUBLE else ir.DataType.FLOAT)


def node_attr_int(value: ir.Value, name: str, default: int) -> int:
    """Integer attribute ``name`` of the node producing ``value``."""
    producer = value.producer()
    if producer is None:
        return default
    return producer.attributes.get_int(name, default)


def unused(values: Sequence[ir.Value]) -> bool:
    return all(not v.uses() and not v.is_graph_output() for v in values)


def scale_fits(scale: ir.Value, x: ir.Value, axis: int) -> bool:
    """Whether ``scale`` broadcasts to the normalized dimensions of ``x`` one way."""
    scale_rank, x_rank = rank(scale), rank(x)
    if scale_rank is None:
        return False
    normalized = -axis if axis < 0 else (x_rank - axis if x_rank is not None else None)
    if normalized is None or scale_rank > normalized:
        return False
    return all(
        static_dim(scale, -i) == 1 or same_dim(scale, -i, x, -i) for i in range(1, scale_rank + 1)
    )


# Rotary embeddings' halves --------------------------------------------------------------


def slice_of(value: ir.Value, start: int, end: int, size: int) -> bool:
    """Whether ``value`` is ``x[..., start:end]`` (``end`` past ``size`` means to the end)
    of a rank-4 ``x`` with a last axis of ``size``."""
    node = value.producer()
    if node is None or node.op_type != "Slice":
        return False
    inputs = list(node.inputs) + [None] * (5 - len(node.inputs))
    starts, ends = constant_ints(inputs[1]), constant_ints(inputs[2])
    axes = constant_ints(inputs[3]) if inputs[3] is not None else [0]
    steps = constant_ints(inputs[4]) if inputs[4] is not None else [1]
    if starts is None or ends is None or axes not in ([3], [-1]) or steps != [1]:
        return False
    wanted_end = ends == [end] or (end >= size and ends[0] >= size)
    return starts == [start] and wanted_end


def split_in_halves(first: ir.Value, half: int) -> bool:
    """Whether ``first`` is output 0 of a two-way Split of a rank-4 tensor's last axis in
    parts of ``half``."""
    return split_at(first, half, 2 * half, even=True)


def split_at(first: ir.Value, width: int, size: int, even: bool = False) -> bool:
    """Whether ``first`` is output 0 of a two-way Split of a rank-4 tensor's last axis
    (of ``size``) at ``width`` (``even``: a Split without sizes counts)."""
    node = first.producer()
    if node is None or node.op_type != "Split" or len(node.outputs) != 2:
        return False
    if node.attributes.get_int("axis", 0) not in (3, -1):
        return False
    sizes = node.inputs[1] if len(node.inputs) > 1 else None
    if sizes is None:
        return even
    return constant_ints(sizes) == [width, size - width]


__all__ = [
    "FLOAT_TYPES",
    "constant_float",
    "constant_ints",
    "dim",
    "from_end",
    "is_float",
    "node_attr_int",
    "normalized_axis",
    "rank",
    "same_dim",
    "scale_fits",
    "slice_of",
    "split_at",
    "split_in_halves",
    "stash_type",
    "static_dim",
    "trailing_axis",
    "unused",
]
