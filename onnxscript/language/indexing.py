"""How ``x[...]`` maps to ONNX ops, for every front end (compiled, eager, traced).

Slices become one ``Slice``; each integer or tensor index becomes a ``Gather`` (a scalar
index removes its axis, as in numpy); ``None`` becomes an ``Unsqueeze``. Axes after ``...``
are counted from the end, so the input's rank need not be known. Both the converter and
eager evaluation lay an index out with :func:`layout` and apply its Gathers in
:func:`gather_order`, so they pick the same axes.

An index item's role is one letter: ``s`` (slice), ``i`` (index), ``e`` (``...``) and ``n``
(``None``); eager mode passes these strings through the rewritten source. :func:`getitem`
applies the rules through an :class:`IndexTarget`.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np

from onnxscript.language.target import Target

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


class Item:
    """One index item: its role, the input axis it reads (slices, indices; negative after
    ``...``) and its position in the result (slices, new axes)."""

    __slots__ = ("axis", "kind", "out_pos")

    def __init__(self, kind: str, axis: int = 0, out_pos: int = 0) -> None:
        self.kind = kind
        self.axis = axis
        self.out_pos = out_pos

    def __repr__(self) -> str:
        return f"Item({self.kind!r}, axis={self.axis}, out_pos={self.out_pos})"


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


class IndexTarget(Target, Protocol):
    """A front end that carries out :func:`getitem`; index items are what it holds (AST
    nodes in the converter, Python values eagerly)."""

    def slice_bound(self, item: Any, part: str) -> Any:
        """The ``"start"``, ``"stop"`` or ``"step"`` of a slice item: an int when known now,
        an INT64 tensor value otherwise, ``None`` when left out."""
        ...

    def gather_index(self, item: Any) -> tuple[Any, bool]:
        """An index item as a tensor value for ``Gather``, and whether it may have rank > 0
        (a list, an array, or a tensor known only at run time)."""
        ...

    def int_vector(self, parts: Sequence[Any]) -> Any:
        """A 1-D INT64 tensor value from ints and scalar tensor values."""
        ...

    def fail(self, item: Any, message: str, hint: str = "", kind: type = TypeError) -> Exception:
        """The error to raise about ``item`` (``None``: the whole index expression);
        ``kind`` is the builtin exception type that fits."""
        ...


class _Slices(NamedTuple):
    starts: list[Any]
    ends: list[Any]
    axes: list[int]
    steps: list[Any]


def _clamped(bound: Any) -> Any:
    """An int bound past INT64 moved to its end: it selects the same (ONNX Slice clamps
    every bound to the axis, as Python does)."""
    if type(bound) is int and not INT64_MIN <= bound <= INT64_MAX:
        return INT64_MAX if bound > 0 else INT64_MIN
    return bound


def index_misfit(value: Any) -> str | None:
    """Why an integer index (or list of them) cannot be an INT64 index, else None."""
    if type(value) is int:  # the common case, without building an array
        items: Any = (value,)
    elif isinstance(value, (np.ndarray, np.generic)):
        return None  # numpy integers fit by construction
    else:
        items = np.ravel(np.asarray(value, dtype=object))
    for item in items:
        if isinstance(item, int) and not INT64_MIN <= item <= INT64_MAX:
            return f"the index {item} is out of range for any tensor (past INT64)"
    return None


def _slices(t: IndexTarget, items: Sequence[Any], layout_: list[Item]) -> _Slices:
    """The bounds of the slice items that select less than a whole axis."""
    found = _Slices([], [], [], [])
    for value, item in zip(items, layout_):
        if item.kind != SLICE:
            continue
        step = t.slice_bound(value, "step")
        step = 1 if step is None else step
        if isinstance(step, int):
            if step == 0:
                raise t.fail(value, "slice step cannot be zero", kind=ValueError)
            default_start, default_stop = default_bounds(step)
            start = t.slice_bound(value, "start")
            stop = t.slice_bound(value, "stop")
            start = default_start if start is None else start
            stop = default_stop if stop is None else stop
        else:
            start = t.slice_bound(value, "start")
            stop = t.slice_bound(value, "stop")
            if start is None or stop is None:
                raise t.fail(
                    value,
                    "a slice with a tensor step needs explicit start and stop",
                    "write x[start:stop:step]; the default bounds depend on the step's sign",
                )
        start, stop, step = _clamped(start), _clamped(stop), _clamped(step)
        if is_full_slice(start, stop, step):
            continue  # a full `:` selects everything
        found.starts.append(start)
        found.ends.append(stop)
        found.axes.append(item.axis)
        found.steps.append(step)
    return found


def getitem(t: IndexTarget, x: Any, items: Sequence[Any], kinds: str) -> Any:
    """``x[items]``, the items having the roles ``kinds``: one ``Slice`` for the slices, a
    ``Gather`` per index, an ``Unsqueeze`` for the new axes."""
    try:
        layout_ = layout(kinds)
    except IndexError as exc:
        raise t.fail(items[0] if items else None, str(exc), kind=IndexError) from None
    result = t.tensor(x)
    found = _slices(t, items, layout_)
    if found.axes:
        inputs = [result, t.int_vector(found.starts), t.int_vector(found.ends)]
        inputs.append(t.int_vector(found.axes))
        if any(not isinstance(s, int) or s != 1 for s in found.steps):
            inputs.append(t.int_vector(found.steps))
        result = t.emit("Slice", *inputs)
    has_tensor_index = False
    for k in gather_order(layout_):
        index, may_have_rank = t.gather_index(items[k])
        has_tensor_index = has_tensor_index or may_have_rank
        result = t.emit("Gather", result, index, axis=layout_[k].axis)
    axes = new_axes(layout_)
    if axes:
        if has_tensor_index:
            raise t.fail(
                None,
                "`None` (new axis) cannot be combined with tensor indices",
                "index first, then add the axis with op.Unsqueeze",
            )
        result = t.emit("Unsqueeze", result, t.int_vector(axes))
    return result
