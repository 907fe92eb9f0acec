"""The pieces the rotary-embedding fusions match (:mod:`.rotary_embedding`, for either
target): a tensor's last axis cut in two, by two Slices or by one Split, and
``rotate_half`` built on it."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils import value_facts

END = 2**31 - 1
"""Slice ends at or above this are "to the end" (torch writes INT64_MAX)."""


def parts(
    op: Any, x: Any, bounds: tuple[Any, Any, Any, Any], split: bool, names: tuple[str, str]
) -> tuple[Any, Any]:
    """Pattern: ``x``'s last axis in two parts named ``names``, by one Split (``split``)
    or by two Slices with the pattern variables ``bounds`` (start, end, start, end)."""
    if split:
        first, second = op.Split(x, _allow_other_inputs=True, _outputs=list(names))
        return first, second
    start1, end1, start2, end2 = bounds
    first = op.Slice(x, start1, end1, _allow_other_inputs=True, _outputs=[names[0]])
    second = op.Slice(x, start2, end2, _allow_other_inputs=True, _outputs=[names[1]])
    return first, second


def rotate_half(op: Any, x: Any, bounds: tuple[Any, Any, Any, Any], split: bool) -> Any:
    """Pattern: ``Concat(-x[..., d/2:], x[..., :d/2])``, its output named ``rotated`` and
    the halves ``first`` and ``second``."""
    first, second = parts(op, x, bounds, split, ("first", "second"))
    return op.Concat(op.Neg(second), first, _outputs=["rotated"])


def cut_at(first: ir.Value, second: ir.Value, width: int, size: int, split: bool) -> bool:
    """Whether ``first`` and ``second`` are ``x[..., :width]`` and ``x[..., width:]`` of a
    rank-4 ``x`` whose last axis has ``size``: what :func:`parts` matched."""
    if split:
        return split_at(first, width, size, even=2 * width == size)
    return slice_of(first, 0, width, size) and slice_of(second, width, END, size)


def slice_of(value: ir.Value, start: int, end: int, size: int) -> bool:
    """Whether ``value`` is ``x[..., start:end]`` (``end`` past ``size`` means to the end)
    of a rank-4 ``x`` with a last axis of ``size``."""
    node = value.producer()
    if node is None or node.op_type != "Slice":
        return False
    inputs = list(node.inputs) + [None] * (5 - len(node.inputs))
    starts, ends = value_facts.constant_ints(inputs[1]), value_facts.constant_ints(inputs[2])
    axes = value_facts.constant_ints(inputs[3]) if inputs[3] is not None else [0]
    steps = value_facts.constant_ints(inputs[4]) if inputs[4] is not None else [1]
    if starts is None or ends is None or axes not in ([3], [-1]) or steps != [1]:
        return False
    wanted_end = ends == [end] or (end >= size and ends[0] >= size)
    return starts == [start] and wanted_end


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
    return value_facts.constant_ints(sizes) == [width, size - width]


def last_axis(value: ir.Value, rank: int) -> bool:
    """Whether the node computing ``value`` (a Concat) works along the last of ``rank``
    axes."""
    return value_facts.producer_attr_int(value, "axis", 0) in (rank - 1, -1)


__all__ = ["END", "cut_at", "last_axis", "parts", "rotate_half", "slice_of", "split_at"]
