"""Indexing and slicing in scripts: ``x[1:3, ::2]``, ``x[-1]``, ``x[:, i]``, ``x[..., 0]``,
``x[None]``, lowered to ``Slice``/``Gather``/``Unsqueeze`` nodes by the rules shared with
eager mode (``onnxscript.index_rules``)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import numpy as np

from onnxscript import index_rules as rules
from onnxscript.converter import dtypes
from onnxscript.converter.symbols import Const, Sym
from onnxscript.ir.graph import Value

if TYPE_CHECKING:
    from onnxscript.converter.expressions import ExpressionTranslator


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
    try:
        items = rules.layout("".join(rules.kind_of_node(e) for e in elts))
    except IndexError as exc:
        raise t.error(elts[0], str(exc)) from None

    starts: list[int | Value] = []
    ends: list[int | Value] = []
    axes: list[int] = []
    steps: list[int | Value] = []
    for elt, item in zip(elts, items):
        if item.kind != rules.SLICE:
            continue
        assert isinstance(elt, ast.Slice)
        step = _bound(t, elt.step, 1)
        if isinstance(step, int):
            if step == 0:
                raise t.error(elt, "slice step cannot be zero")
            default_start, default_stop = rules.default_bounds(step)
            start = _bound(t, elt.lower, default_start)
            stop = _bound(t, elt.upper, default_stop)
        else:
            if elt.lower is None or elt.upper is None:
                raise t.error(
                    elt,
                    "a slice with a tensor step needs explicit start and stop",
                    "write x[start:stop:step]; the default bounds depend on the step's sign",
                )
            start = _bound(t, elt.lower, 0)
            stop = _bound(t, elt.upper, 0)
        if rules.is_full_slice(start, stop, step):
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

    has_tensor_index = False
    for k in rules.gather_order(items):
        elt = elts[k]
        sym = t.expr(elt)
        if isinstance(sym, Const):
            value = sym.value
            if isinstance(value, bool) or not isinstance(
                value, (int, np.integer, list, tuple, np.ndarray)
            ):
                raise t.error(
                    elt,
                    f"cannot index a tensor with {type(value).__name__} {value!r}",
                    "indices are integers, slices, `...`, None, or INT64 tensors",
                )
            idx = t.builder.constant(np.asarray(value, dtype=np.int64))
            if np.ndim(value) > 0:
                has_tensor_index = True
        else:
            idx = t.to_tensor(sym, elt, dtype=dtypes.INT64)
            has_tensor_index = True
        result = t.builder.emit1("Gather", result, idx, hint="gather", axis=items[k].axis)

    newaxes = rules.new_axes(items)
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
