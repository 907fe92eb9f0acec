"""Opset 11 accepted negative axes (counted from the back) and negative indices almost
everywhere. Going up nothing changes; going down a negative axis is made non-negative
from the input's rank, and negative indices are shifted at run time."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx_ir as ir

from onnxscript.version_converter._context import Adapt, Rewrite, nothing
from onnxscript.version_converter.adapters._tables import Table, chain, step

RankOf = Callable[[Rewrite], int]


def input_rank(index: int = 0, plus: int = 0) -> RankOf:
    def rank(rewrite: Rewrite) -> int:
        return rewrite.required_rank(rewrite.input(index), "to count a negative axis") + plus

    return rank


def _any_input_rank(rewrite: Rewrite) -> int:
    for value in rewrite.node.inputs:
        rank = rewrite.rank(value)
        if rank is not None:
            return rank
    rewrite.fail("no input's rank is known (to count a negative axis)")


def _unsqueezed_rank(rewrite: Rewrite) -> int:
    return input_rank()(rewrite) + len(rewrite.attr("axes", []))


def non_negative(name: str, rank_of: RankOf) -> Adapt:
    """Attribute ``name`` (an int or ints) made non-negative."""

    def apply(rewrite: Rewrite) -> None:
        value = rewrite.attr(name)
        if value is None:
            return
        values = value if isinstance(value, list) else [value]
        if all(v >= 0 for v in values):
            return
        rank = rank_of(rewrite)
        fixed = [v + rank if v < 0 else v for v in values]
        rewrite.set_attr(name, fixed if isinstance(value, list) else fixed[0])

    return apply


def shifted_indices(rewrite: Rewrite, index: int, size: Callable[[Rewrite], ir.Value]) -> None:
    """Input ``index`` (indices into an axis of ``size`` elements, a scalar) with negative
    entries shifted by ``size``, unless it is a constant without any."""
    array = rewrite.constant(index)
    if array is not None and bool((array >= 0).all()):
        return
    indices = rewrite.input(index)
    dtype = rewrite.required_dtype(indices)
    count = size(rewrite)
    if count.dtype != dtype:
        count = rewrite.op1("Cast", [count], {"to": dtype})
    negative = rewrite.op1("Less", [indices, rewrite.const(0, dtype)])
    shifted = rewrite.op1("Add", [indices, count])
    rewrite.set_input(index, rewrite.op1("Where", [negative, shifted, indices]))


def axis_size(data: int, axis: str) -> Callable[[Rewrite], ir.Value]:
    """The size (an int64 scalar) of input ``data`` along attribute ``axis``."""

    def size(rewrite: Rewrite) -> ir.Value:
        position = rewrite.attr(axis, 0)
        if position < 0:
            position += input_rank(data)(rewrite)
        shape = rewrite.op1("Shape", [rewrite.input(data)])
        count = rewrite.op1("Gather", [shape, rewrite.const(position, np.int64)])
        count.dtype = ir.DataType.INT64
        return count

    return size


def _depth(rewrite: Rewrite) -> ir.Value:
    scalar = rewrite.op1("Reshape", [rewrite.input(1), rewrite.const(np.zeros(0, np.int64))])
    scalar.dtype = rewrite.required_dtype(rewrite.input(1))
    return scalar


def _gather_indices(rewrite: Rewrite) -> None:
    shifted_indices(rewrite, 1, axis_size(0, "axis"))


def _one_hot_indices(rewrite: Rewrite) -> None:
    shifted_indices(rewrite, 0, _depth)


def _slice_axes(rewrite: Rewrite) -> None:
    array = rewrite.constant(3)
    if rewrite.input(3) is None or (array is not None and bool((array >= 0).all())):
        return
    if array is None:
        rewrite.fail("axes (input 3) must be a constant to make its negative entries positive")
    rank = input_rank()(rewrite)
    fixed = np.where(array < 0, array + rank, array).astype(array.dtype)
    rewrite.set_input(3, rewrite.const(fixed))


_SUMMARY_UP = "unchanged (negative axes and indices allowed)"

_AXIS_OPS: dict[str, tuple[str, RankOf]] = {
    "ArgMax": ("axis", input_rank()),
    "ArgMin": ("axis", input_rank()),
    "Compress": ("axis", input_rank()),
    "Concat": ("axis", _any_input_rank),
    "Flatten": ("axis", input_rank()),
    "Hardmax": ("axis", input_rank()),
    "LogSoftmax": ("axis", input_rank()),
    "Softmax": ("axis", input_rank()),
    "Split": ("axis", input_rank()),
    "Squeeze": ("axes", input_rank()),
    "Unsqueeze": ("axes", _unsqueezed_rank),
}
for _reduce in ("L1", "L2", "LogSum", "LogSumExp", "Max", "Mean", "Min", "Prod", "Sum"):
    _AXIS_OPS[f"Reduce{_reduce}"] = ("axes", input_rank())
_AXIS_OPS["ReduceSumSquare"] = ("axes", input_rank())

ADAPTERS: Table = {}
for _op, (_name, _rank) in _AXIS_OPS.items():
    ADAPTERS |= step(
        _op, 11, nothing, non_negative(_name, _rank), _SUMMARY_UP, f"negative {_name} counted"
    )
ADAPTERS |= step(
    "Gather", 11, nothing, _gather_indices, _SUMMARY_UP, "negative indices shifted at run time"
)
ADAPTERS |= step(
    "OneHot",
    11,
    nothing,
    chain(non_negative("axis", input_rank(0, plus=1)), _one_hot_indices),
    _SUMMARY_UP,
    "negative axis counted; negative indices shifted at run time",
)
ADAPTERS |= step("Slice", 11, nothing, _slice_axes, _SUMMARY_UP, "negative constant axes counted")

__all__ = ["ADAPTERS", "axis_size", "input_rank", "non_negative", "shifted_indices"]
