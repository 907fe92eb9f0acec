"""What the normalization fusions (RMS and layer normalization, for either target) check
and compute from the values they matched: the normalized axes, the scale's fit, the
stash type. Facts about values come from :mod:`onnxscript.ir_utils.value_facts`."""

from __future__ import annotations

from collections.abc import Sequence

import onnx_ir as ir

from onnxscript.ir_utils import value_facts

STASH_TYPES = frozenset({ir.DataType.FLOAT, ir.DataType.DOUBLE})
"""The types a normalization's statistics are computed in (its ``stash_type``)."""


def normalized_axis(axes: Sequence[int], rank: int | None) -> int | None:
    """The first axis when ``axes`` are the trailing axes ``[k, ..., rank-1]`` (then
    ``k`` is returned, negative when the rank is unknown), else None."""
    if not axes:
        return None
    if rank is None:
        wanted = list(range(-len(axes), 0))
        return -len(axes) if sorted(axes) == wanted else None
    positive = sorted(a + rank if a < 0 else a for a in axes)
    return positive[0] if positive == list(range(rank - len(axes), rank)) else None


def trailing_axis(x: ir.Value, axes: ir.Value) -> int | None:
    """The first of the constant ``axes`` of a normalization of ``x`` when they are its
    trailing axes (:func:`normalized_axis`), else None."""
    values = value_facts.constant_ints(axes)
    return None if values is None else normalized_axis(values, value_facts.rank(x))


def from_end(axis: int | None, x: ir.Value) -> int | None:
    """``axis`` of ``x`` counted from the end, as torch writes it (unchanged when the
    rank is unknown)."""
    rank = value_facts.rank(x)
    return axis - rank if axis is not None and axis >= 0 and rank is not None else axis


def stash_type(x: ir.Value, compute_type: ir.Attr | None = None) -> int:
    """A normalization's ``stash_type``: the type the statistics were computed in (a
    Cast's ``to``), else float (double for double inputs)."""
    if compute_type is not None:
        return compute_type.as_int()
    double = value_facts.tensor_dtype(x) == ir.DataType.DOUBLE
    return int(ir.DataType.DOUBLE if double else ir.DataType.FLOAT)


def scale_fits(scale: ir.Value, x: ir.Value, axis: int) -> bool:
    """Whether ``scale`` broadcasts to the normalized dimensions of ``x`` one way."""
    scale_rank, x_rank = value_facts.rank(scale), value_facts.rank(x)
    if scale_rank is None:
        return False
    normalized = -axis if axis < 0 else (x_rank - axis if x_rank is not None else None)
    if normalized is None or scale_rank > normalized:
        return False
    return all(
        value_facts.static_dim(scale, -i) == 1 or value_facts.same_dim_at(scale, -i, x, -i)
        for i in range(1, scale_rank + 1)
    )


__all__ = [
    "STASH_TYPES",
    "from_end",
    "normalized_axis",
    "scale_fits",
    "stash_type",
    "trailing_axis",
]
