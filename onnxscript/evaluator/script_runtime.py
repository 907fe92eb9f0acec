"""Helpers that rewritten script functions call while running eagerly.

``onnxscript.evaluator.script_rewrite`` turns constructs whose Python meaning differs from
their compiled meaning into calls of these functions (the module is reached through a
closure cell, never through the user's globals).
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator
from typing import Any

import numpy as np

from onnxscript.evaluator import operators
from onnxscript.evaluator.arrays import is_literal
from onnxscript.evaluator.eager import call_function, call_op, literal_to_array
from onnxscript.evaluator.indexing import getitem as _tensor_getitem
from onnxscript.evaluator.tensor import IndexTensor, Tensor
from onnxscript.values import OnnxFunction, Op

slice_ = builtins.slice


def call(n_outputs: int | None, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)``; ops and script functions return Tensors, and ``n_outputs``
    is the number of names a tuple assignment unpacks the result into."""
    kind = type(fn)
    if kind is Op:
        return call_op(fn, args, kwargs, n_outputs, wrap=True)
    if kind is OnnxFunction:
        return call_function(fn, args, kwargs, wrap=True)
    return fn(*args, **kwargs)


def bool_and(*values: Any) -> Any:
    """``a and b and ...`` as compiled (element-wise on BOOL tensors)."""
    return operators.boolean(True, values)


def bool_or(*values: Any) -> Any:
    """``a or b or ...`` as compiled (element-wise on BOOL tensors)."""
    return operators.boolean(False, values)


def not_(value: Any) -> Any:
    """``not a``: ``Not`` on a BOOL tensor, Python's ``not`` otherwise."""
    if isinstance(value, Tensor):
        return operators.unary("not", value)
    return not value


def compare_chain(symbols: tuple[str, ...], *values: Any) -> Any:
    """``a < b < c ...`` as compiled: pairwise comparisons combined with ``and``."""
    return operators.compare_chain(symbols, values)


def getitem(base: Any, items: tuple[Any, ...], kinds: str) -> Any:
    """``base[...]``: the converter's Slice/Gather lowering when ``base`` is a tensor (or a
    numpy constant, or a Python list indexed by a tensor), Python indexing otherwise.
    ``kinds`` tells each item's role; a leading ``(`` marks a tuple index."""
    is_tuple = kinds.startswith("(")
    roles = kinds[1:] if is_tuple else kinds
    if isinstance(base, Tensor):
        return _tensor_getitem(base, items, roles)
    if isinstance(base, np.ndarray):
        return _tensor_getitem(Tensor(base), items, roles)
    if (
        isinstance(base, (list, tuple))
        and is_literal(base)
        and any(isinstance(i, Tensor) for i in items)
    ):
        return _tensor_getitem(Tensor(literal_to_array(base, None, "indexing")), items, roles)
    return base[items if is_tuple else items[0]]


def _as_int(value: Any) -> int:
    if isinstance(value, Tensor):
        return int(value.value.reshape(-1)[0]) if value.value.size == 1 else int(value)
    return int(value)


def loop_iter(fn: Any, /, *args: Any, **kwargs: Any) -> Any:
    """The iterable of a ``for`` loop: ``range(...)`` yields INT64 scalar tensors that act
    like Python ints in operators, like the compiled loop index; anything else is iterated
    as Python does."""
    if fn is builtins.range and not kwargs:
        return _tensor_range(*(_as_int(a) for a in args))
    return fn(*args, **kwargs)


def _tensor_range(*bounds: int) -> Iterator[IndexTensor]:
    for i in range(*bounds):
        yield IndexTensor(np.array(i, dtype=np.int64))
