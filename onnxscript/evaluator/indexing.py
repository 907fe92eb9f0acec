"""Indexing and slicing of eager tensors, lowered to the ops the converter emits.

``x[1:3, ::2]`` is one ``Slice``; each integer or tensor index is a ``Gather`` (a scalar
index removes its axis); ``None`` is an ``Unsqueeze``; axes after ``...`` count from the
end. Running the same ops (rather than numpy indexing) keeps eager results equal to the
compiled model's, e.g. for several tensor indices, which numpy would broadcast together.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from onnxscript.converter.dtypes import INT64
from onnxscript.evaluator.arrays import cast_array, describe
from onnxscript.evaluator.tensor import AttrTensor, Tensor

INT64_MAX = int(np.iinfo(np.int64).max)
INT64_MIN = int(np.iinfo(np.int64).min)

SLICE, INDEX, ELLIPSIS, NEWAXIS = "s", "i", "e", "n"


@dataclass
class _Item:
    kind: str
    value: Any
    axis: int = 0
    out_pos: int = 0


def kind_of(item: Any) -> str:
    """How an index item is read when the index is not known syntactically."""
    if isinstance(item, slice):
        return SLICE
    if item is Ellipsis:
        return ELLIPSIS
    if item is None:
        return NEWAXIS
    return INDEX


def getitem_dynamic(x: Tensor, key: Any) -> Tensor:
    """``x[key]`` for a key built at run time (outside a script's source)."""
    items = key if isinstance(key, tuple) else (key,)
    return getitem(x, items, "".join(kind_of(i) for i in items))


def _layout(items: Sequence[Any], kinds: str) -> list[_Item]:
    layout = [_Item(k, v) for k, v in zip(kinds, items, strict=False)]
    if kinds.count(ELLIPSIS) > 1:
        raise IndexError("an index can only have one `...`")
    split = kinds.find(ELLIPSIS)
    if split < 0:
        split = len(layout)
    consumed = produced = 0
    for item in layout[:split]:
        item.axis, item.out_pos = consumed, produced
        consumed += item.kind in (SLICE, INDEX)
        produced += item.kind in (SLICE, NEWAXIS)
    consumed = produced = 0
    for item in reversed(layout[split + 1 :]):
        consumed += item.kind in (SLICE, INDEX)
        produced += item.kind in (SLICE, NEWAXIS)
        item.axis, item.out_pos = -consumed, -produced
    return layout


def _bound(value: Any, default: int) -> int | np.ndarray:
    if value is None:
        return default
    if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, Tensor):
        return cast_array(value.value, INT64).reshape(-1)
    raise TypeError(f"slice bounds must be integers or integer tensors, got {describe(value)}")


def _vector(parts: Sequence[int | np.ndarray]) -> np.ndarray:
    pieces = [
        np.array([p], dtype=np.int64) if isinstance(p, int) else p.astype(np.int64).reshape(-1)
        for p in parts
    ]
    return np.concatenate(pieces) if pieces else np.zeros((0,), dtype=np.int64)


def _is_full(start: int | np.ndarray, stop: int | np.ndarray, step: int | np.ndarray) -> bool:
    return (
        isinstance(start, int) and isinstance(stop, int) and isinstance(step, int)
        and (start, stop, step) == (0, INT64_MAX, 1)
    )  # fmt: skip


def getitem(x: Tensor, items: Sequence[Any], kinds: str) -> Tensor:
    """``x[items]``, with each item's role (slice, index, ``...``, ``None``) in ``kinds``."""
    from onnxscript.evaluator.operators import emit

    layout = _layout(items, kinds)
    starts: list[int | np.ndarray] = []
    ends: list[int | np.ndarray] = []
    axes: list[int] = []
    steps: list[int | np.ndarray] = []
    for item in layout:
        if item.kind != SLICE:
            continue
        s = item.value
        step = _bound(s.step, 1)
        if isinstance(step, int):
            if step == 0:
                raise ValueError("slice step cannot be zero")
            start = _bound(s.start, 0 if step > 0 else INT64_MAX)
            stop = _bound(s.stop, INT64_MAX if step > 0 else INT64_MIN)
        else:
            if s.start is None or s.stop is None:
                raise TypeError(
                    "a slice with a tensor step needs explicit start and stop: the default "
                    "bounds depend on the step's sign"
                )
            start = _bound(s.start, 0)
            stop = _bound(s.stop, 0)
        if _is_full(start, stop, step):
            continue  # a full `:` selects everything
        starts.append(start)
        ends.append(stop)
        axes.append(item.axis)
        steps.append(step)

    result: Any = x
    if axes:
        inputs = [result, _vector(starts), _vector(ends), np.array(axes, dtype=np.int64)]
        if any(not isinstance(s, int) or s != 1 for s in steps):
            inputs.append(_vector(steps))
        result = emit("Slice", *inputs)

    gathers = [i for i in layout if i.kind == INDEX]
    positive = sorted((i for i in gathers if i.axis >= 0), key=lambda i: -i.axis)
    negative = sorted((i for i in gathers if i.axis < 0), key=lambda i: i.axis)
    has_tensor_index = False
    for item in positive + negative:
        value = item.value
        if isinstance(value, AttrTensor):
            index = cast_array(value.value, INT64)
            has_tensor_index = True
        elif isinstance(value, Tensor):
            index = value.value
            has_tensor_index = True
        elif isinstance(value, (bool, np.bool_)) or not isinstance(
            value, (int, np.integer, list, tuple, np.ndarray)
        ):
            raise TypeError(
                f"cannot index a tensor with {describe(value)}: indices are integers, slices, "
                "`...`, None, or integer tensors"
            )
        else:
            index = np.asarray(value, dtype=np.int64)
            has_tensor_index = has_tensor_index or index.ndim > 0
        result = emit("Gather", result, index, axis=item.axis)

    newaxes = [i.out_pos for i in layout if i.kind == NEWAXIS]
    if newaxes:
        if has_tensor_index:
            raise TypeError(
                "`None` (new axis) cannot be combined with tensor indices; index first, then "
                "add the axis with op.Unsqueeze"
            )
        result = emit("Unsqueeze", result, np.array(newaxes, dtype=np.int64))
    return result if isinstance(result, Tensor) else Tensor(result)
