"""Indexing and slicing of eager tensors, lowered to the ops the converter emits (by the
shared rules of ``onnxscript.index_rules``). Running the same ops, rather than numpy
indexing, keeps eager results equal to the compiled model's, e.g. for several tensor
indices, which numpy would broadcast together.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from onnxscript import index_rules as rules
from onnxscript.converter.dtypes import INT64
from onnxscript.evaluator.arrays import cast_array, describe
from onnxscript.evaluator.tensor import AttrTensor, Tensor


def getitem_dynamic(x: Tensor, key: Any) -> Tensor:
    """``x[key]`` for a key built at run time (outside a script's source)."""
    items = key if isinstance(key, tuple) else (key,)
    return getitem(x, items, "".join(rules.kind_of_value(i) for i in items))


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


def getitem(x: Tensor, items: Sequence[Any], kinds: str) -> Tensor:
    """``x[items]``, with each item's role (slice, index, ``...``, ``None``) in ``kinds``."""
    from onnxscript.evaluator.operators import emit

    layout = rules.layout(kinds)
    starts: list[int | np.ndarray] = []
    ends: list[int | np.ndarray] = []
    axes: list[int] = []
    steps: list[int | np.ndarray] = []
    for value, item in zip(items, layout, strict=False):
        if item.kind != rules.SLICE:
            continue
        step = _bound(value.step, 1)
        if isinstance(step, int):
            if step == 0:
                raise ValueError("slice step cannot be zero")
            default_start, default_stop = rules.default_bounds(step)
            start = _bound(value.start, default_start)
            stop = _bound(value.stop, default_stop)
        else:
            if value.start is None or value.stop is None:
                raise TypeError(
                    "a slice with a tensor step needs explicit start and stop: the default "
                    "bounds depend on the step's sign"
                )
            start = _bound(value.start, 0)
            stop = _bound(value.stop, 0)
        if rules.is_full_slice(start, stop, step):
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

    has_tensor_index = False
    for k in rules.gather_order(layout):
        value = items[k]
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
        result = emit("Gather", result, index, axis=layout[k].axis)

    newaxes = rules.new_axes(layout)
    if newaxes:
        if has_tensor_index:
            raise TypeError(
                "`None` (new axis) cannot be combined with tensor indices; index first, then "
                "add the axis with op.Unsqueeze"
            )
        result = emit("Unsqueeze", result, np.array(newaxes, dtype=np.int64))
    return result if isinstance(result, Tensor) else Tensor(result)
