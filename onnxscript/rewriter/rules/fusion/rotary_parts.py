"""The pieces both rotary-embedding fusions match (ONNX's RotaryEmbedding in
:mod:`.rotary_embedding`, onnxruntime's in ``ort_fusions.rotary_embedding``): a tensor's
last axis cut in two, by two Slices or by one Split, and ``rotate_half`` built on it."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.rewriter.rules.fusion import facts

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
        return facts.split_at(first, width, size, even=2 * width == size)
    return facts.slice_of(first, 0, width, size) and facts.slice_of(second, width, END, size)


__all__ = ["END", "cut_at", "parts", "rotate_half"]
