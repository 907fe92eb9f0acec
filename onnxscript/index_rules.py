"""How ``x[...]`` maps to ONNX ops, shared by the converter and eager mode.

Slices become one ``Slice``; each integer or tensor index becomes a ``Gather`` (a scalar
index removes its axis, as in numpy); ``None`` becomes an ``Unsqueeze``. Axes after ``...``
are counted from the end, so the input's rank need not be known. Both the converter and
eager evaluation lay an index out with :func:`layout` and apply its Gathers in
:func:`gather_order`, so they pick the same axes.

An index item's role is one letter: ``s`` (slice), ``i`` (index), ``e`` (``...``) and ``n``
(``None``); eager mode passes these strings through the rewritten source.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

import numpy as np

SLICE, INDEX, ELLIPSIS, NEWAXIS = "s", "i", "e", "n"

INT64_MAX = int(np.iinfo(np.int64).max)
INT64_MIN = int(np.iinfo(np.int64).min)


def kind_of_node(node: ast.expr) -> str:
    """The role of an index item written in the source (what the converter reads)."""
    if isinstance(node, ast.Slice):
        return SLICE
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return ELLIPSIS
    if isinstance(node, ast.Constant) and node.value is None:
        return NEWAXIS
    return INDEX


def kind_of_value(item: Any) -> str:
    """The role of an index item given as a value (indexing outside a script's source)."""
    if isinstance(item, slice):
        return SLICE
    if item is Ellipsis:
        return ELLIPSIS
    if item is None:
        return NEWAXIS
    return INDEX


@dataclass(slots=True)
class Item:
    """One index item: its role, the input axis it reads (slices, indices; negative after
    ``...``) and its position in the result (slices, new axes)."""

    kind: str
    axis: int = 0
    out_pos: int = 0


def layout(kinds: str) -> list[Item]:
    """The items of an index with roles ``kinds``; IndexError for more than one ``...``."""
    items = [Item(k) for k in kinds]
    if kinds.count(ELLIPSIS) > 1:
        raise IndexError("an index can only have one `...`")
    split = kinds.find(ELLIPSIS)
    if split < 0:
        split = len(items)
    consumed = produced = 0
    for item in items[:split]:
        item.axis, item.out_pos = consumed, produced
        consumed += item.kind in (SLICE, INDEX)
        produced += item.kind in (SLICE, NEWAXIS)
    consumed = produced = 0
    for item in reversed(items[split + 1 :]):
        consumed += item.kind in (SLICE, INDEX)
        produced += item.kind in (SLICE, NEWAXIS)
        item.axis, item.out_pos = -consumed, -produced
    return items


def gather_order(items: list[Item]) -> list[int]:
    """Positions of the index items in the order their Gathers run: axes counted from the
    start last axis first, then axes counted from the end, so that removing one axis does
    not move the axes still to come."""
    gathers = [k for k, item in enumerate(items) if item.kind == INDEX]
    if len(gathers) < 2:
        return gathers
    positive = sorted((k for k in gathers if items[k].axis >= 0), key=lambda k: -items[k].axis)
    negative = sorted((k for k in gathers if items[k].axis < 0), key=lambda k: items[k].axis)
    return positive + negative


def new_axes(items: list[Item]) -> list[int]:
    """The ``Unsqueeze`` axes of the ``None`` items."""
    return [item.out_pos for item in items if item.kind == NEWAXIS]


def default_bounds(step: int) -> tuple[int, int]:
    """(start, stop) of a slice that leaves them out, for a step known to be ``step``."""
    return (0, INT64_MAX) if step > 0 else (INT64_MAX, INT64_MIN)


def is_full_slice(start: object, stop: object, step: object) -> bool:
    """Whether the bounds select a whole axis (``:``), which needs no ``Slice``."""
    return (
        type(start) is int
        and type(stop) is int
        and type(step) is int
        and (start, stop, step) == (0, INT64_MAX, 1)
    )
