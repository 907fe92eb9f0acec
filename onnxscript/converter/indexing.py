"""Indexing and slicing: ``x[1:3, ::2]``, ``x[-1]``, ``x[:, i]``, ``x[..., 0]``, ``x[None]``.

Slices become one ``Slice`` node; integer and tensor indices become ``Gather`` nodes (a
scalar index removes its axis, as in numpy); ``None`` becomes ``Unsqueeze``. Axes after an
``...`` are counted from the end, so the input's rank need not be known.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from onnxscript.converter import dtypes
from onnxscript.converter.symbols import Const, Sym
from onnxscript.ir.graph import Value

if TYPE_CHECKING:
    from onnxscript.converter.expressions import ExpressionTranslator

INT64_MAX = int(np.iinfo(np.int64).max)
INT64_MIN = int(np.iinfo(np.int64).min)


@dataclass
class _Item:
    kind: str  # "slice", "index", "newaxis", "ellipsis"
    node: ast.expr
    axis: int = 0
    out_pos: int = 0


def _classify(t: ExpressionTranslator, elts: list[ast.expr]) -> list[_Item]:
    items: list[_Item] = []
    for elt in elts:
        if isinstance(elt, ast.Slice):
            items.append(_Item("slice", elt))
            continue
        if isinstance(elt, ast.Constant) and elt.value is Ellipsis:
            items.append(_Item("ellipsis", elt))
            continue
        if isinstance(elt, ast.Constant) and elt.value is None:
            items.append(_Item("newaxis", elt))
            continue
        items.append(_Item("index", elt))
    if sum(1 for i in items if i.kind == "ellipsis") > 1:
        raise t.error(elts[0], "an index can only have one `...`")
    split = next((k for k, i in enumerate(items) if i.kind == "ellipsis"), len(items))
    consumed = 0
    produced = 0
    for item in items[:split]:
        item.axis = consumed
        item.out_pos = produced
        if item.kind in ("slice", "index"):
            consumed += 1
        if item.kind in ("slice", "newaxis"):
            produced += 1
    consumed = 0
    produced = 0
    for item in reversed(items[split + 1 :]):
        if item.kind in ("slice", "index"):
            consumed += 1
        if item.kind in ("slice", "newaxis"):
            produced += 1
        item.axis = -consumed
        item.out_pos = -produced
    return items


def _bound(t: ExpressionTranslator, node: ast.expr | None, default: int) -> int | Value:
    if node is None:
        return default
    sym = t.expr(node)
    if isinstance(sym, Const):
        value = sym.value
        if value is None:
            return default
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            return int(value)
        raise t.error(node, f"slice bounds must be integers, got {type(value).__name__}")
    return t.to_tensor(sym, node, dtype=dtypes.INT64)


def _vector(t: ExpressionTranslator, parts: list[int | Value]) -> Value:
    """A 1-D INT64 tensor from ints and scalar tensors."""
    if all(isinstance(p, int) for p in parts):
        return t.builder.constant(np.array(parts, dtype=np.int64))
    minus_one = t.builder.constant(np.array([-1], dtype=np.int64))
    pieces = []
    for p in parts:
        if isinstance(p, int):
            pieces.append(t.builder.constant(np.array([p], dtype=np.int64)))
        else:
            if dtypes.known_dtype(p) not in (None, dtypes.INT64):
                p = t.builder.emit1("Cast", p, hint="index", to=dtypes.INT64)
            pieces.append(t.builder.emit1("Reshape", p, minus_one, hint="index"))
    return t.builder.emit1("Concat", *pieces, hint="bounds", axis=0)


def translate_subscript(t: ExpressionTranslator, node: ast.Subscript, base: Sym) -> Value:
    x = t.to_tensor(base, node.value)
    index = node.slice
    elts = list(index.elts) if isinstance(index, ast.Tuple) else [index]
    items = _classify(t, elts)

    starts: list[int | Value] = []
    ends: list[int | Value] = []
    axes: list[int] = []
    steps: list[int | Value] = []
    for item in items:
        if item.kind != "slice":
            continue
        s = item.node
        assert isinstance(s, ast.Slice)
        step = _bound(t, s.step, 1)
        if isinstance(step, int):
            if step == 0:
                raise t.error(s, "slice step cannot be zero")
            start = _bound(t, s.lower, 0 if step > 0 else INT64_MAX)
            stop = _bound(t, s.upper, INT64_MAX if step > 0 else INT64_MIN)
        else:
            if s.lower is None or s.upper is None:
                raise t.error(
                    s,
                    "a slice with a tensor step needs explicit start and stop",
                    "write x[start:stop:step]; the default bounds depend on the step's sign",
                )
            start = _bound(t, s.lower, 0)
            stop = _bound(t, s.upper, 0)
        if start == 0 and stop == INT64_MAX and step == 1:
            continue  # a full `:` selects everything
        starts.append(start)
        ends.append(stop)
        axes.append(item.axis)
        steps.append(step)

    result = x
    if axes:
        inputs = [result, _vector(t, starts), _vector(t, ends), _vector(t, list(axes))]
        if any(s != 1 for s in steps):
            inputs.append(_vector(t, steps))
        result = t.builder.emit1("Slice", *inputs, hint="slice")

    gathers = [i for i in items if i.kind == "index"]
    positive = sorted((i for i in gathers if i.axis >= 0), key=lambda i: -i.axis)
    negative = sorted((i for i in gathers if i.axis < 0), key=lambda i: i.axis)
    has_tensor_index = False
    for item in positive + negative:
        sym = t.expr(item.node)
        if isinstance(sym, Const):
            value = sym.value
            if isinstance(value, bool) or not isinstance(
                value, (int, np.integer, list, tuple, np.ndarray)
            ):
                raise t.error(
                    item.node,
                    f"cannot index a tensor with {type(value).__name__} {value!r}",
                    "indices are integers, slices, `...`, None, or INT64 tensors",
                )
            idx = t.builder.constant(np.asarray(value, dtype=np.int64))
            if np.ndim(value) > 0:
                has_tensor_index = True
        else:
            idx = t.to_tensor(sym, item.node, dtype=dtypes.INT64)
            has_tensor_index = True
        result = t.builder.emit1("Gather", result, idx, hint="gather", axis=item.axis)

    newaxes = [i.out_pos for i in items if i.kind == "newaxis"]
    if newaxes:
        if has_tensor_index:
            raise t.error(
                node,
                "`None` (new axis) cannot be combined with tensor indices",
                "index first, then add the axis with op.Unsqueeze",
            )
        axes_value = t.builder.constant(np.array(newaxes, dtype=np.int64))
        result = t.builder.emit1("Unsqueeze", result, axes_value, hint="unsqueeze")
    return result
