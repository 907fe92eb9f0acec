"""Successive Relu and Clip: ``Relu(Relu(x))`` -> ``Relu(x)``; two Clips, or a Clip and a
Relu (``Clip(x, 0)``), in a row -> one Clip to the intersection of their ranges, when
their bounds are constants (or absent) and the ranges meet (otherwise the result is
a constant the Clip would not give).

A Clip's absent bound is its type's lowest or largest number, not "no bound": ``Clip(x)``
on floats turns -inf and inf into -3.4e38 and 3.4e38 (the spec's defaults, which
onnxruntime follows), while a Relu has no upper bound (inf stays inf). So each range is
compared with the type's limits in place of absent bounds: ``Clip(Clip(x, max=-inf))`` is
no clip to [-inf, -inf] but a range that does not meet (left alone), and an explicit inf
bound is kept where the other Clip's absent one would not clip it."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import constant_array
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext

_Bounds = tuple[np.ndarray | None, np.ndarray | None]
"""A (min, max) pair of scalars; None for a bound a Clip leaves to its type's limit."""


def clip_bounds(node: ir.Node) -> _Bounds | None:
    """The (min, max) scalars of a Clip with constant (or absent) bounds, else None."""
    if "min" in node.attributes or "max" in node.attributes:
        return None  # the attribute form of opsets before 11
    bounds: list[np.ndarray | None] = []
    for index in (1, 2):
        value = node.inputs[index] if len(node.inputs) > index else None
        array = constant_array(value) if value is not None else None
        if value is not None and (array is None or array.size != 1):
            return None
        bounds.append(None if array is None else array.reshape(()))
    return bounds[0], bounds[1]


def _bounds_refusal(node: ir.Node) -> str:
    """Why :func:`clip_bounds` of ``node`` is None (0.7.2's words where it has them)."""
    if "min" in node.attributes or "max" in node.attributes:
        return "the Clip has its bounds as attributes (before opset 11)"
    for value in node.inputs[1:3]:
        if value is None:
            continue
        if value.is_graph_input():
            return f"{value.name} is a graph input."
        array = constant_array(value)
        if array is None:
            return f"{value.name} is not a constant."
        if array.size != 1:
            return f"{value.name} is not a scalar."
    return "a bound is not a one-element constant"


def type_limits(dtype: ir.DataType | None) -> tuple[np.ndarray, np.ndarray] | None:
    """(lowest, largest) number of ``dtype``: the bounds of a Clip without min or max;
    None for a type numpy has no limits of."""
    if dtype is None:
        return None
    try:
        np_type = np.dtype(dtype.numpy())
        info = np.finfo(np_type) if np_type.kind == "f" else np.iinfo(np_type)
    except (TypeError, ValueError):
        return None
    return np.array(info.min, np_type), np.array(info.max, np_type)


def intersection(first: _Bounds, second: _Bounds, dtype: ir.DataType | None) -> _Bounds | None:
    """The range of clipping values of ``dtype`` to ``first`` then ``second``, when both
    are ranges and they meet; None otherwise (a NaN bound never meets anything). A bound
    at the type's limit is given as None (absent: the same clip)."""
    limits = type_limits(dtype)
    if limits is None:
        return None
    ranges = [
        (limits[0] if low is None else low, limits[1] if high is None else high)
        for low, high in (first, second)
    ]
    for low, high in ranges:
        if not low <= high:
            return None  # min > max clips everything to max: a constant
    low = max(ranges[0][0], ranges[1][0])
    high = min(ranges[0][1], ranges[1][1])
    if not low <= high:
        return None
    return (None if low == limits[0] else low), (None if high == limits[1] else high)


def _relu_bounds(dtype: ir.DataType | None) -> _Bounds | None:
    """A Relu as a range: from 0, with no upper bound (inf for floats, which a Clip
    without max would clip)."""
    limits = type_limits(dtype)
    if limits is None:
        return None
    zero = np.zeros((), limits[0].dtype)
    return zero, (np.array(np.inf, zero.dtype) if zero.dtype.kind == "f" else None)


class _ClipChain(RewriteRuleClassBase):
    """A chain of two of Relu and Clip, replaced by one Clip."""

    inner_op = "Clip"
    outer_op = "Clip"

    def __init__(self) -> None:
        super().__init__()
        self._range: _Bounds = (None, None)

    def pattern(self, op: Any, x: Any) -> Any:
        inner = getattr(op, self.inner_op)(x, _allow_other_inputs=True, _outputs=["middle"])
        return getattr(op, self.outer_op)(inner, _allow_other_inputs=True)

    def _bounds(self, node: ir.Node, dtype: ir.DataType | None) -> _Bounds | None:
        return clip_bounds(node) if node.op_type == "Clip" else _relu_bounds(dtype)

    def check(self, context: MatchContext, x: ir.Value, middle: ir.Value) -> MatchResult:
        result = MatchResult()
        inner = middle.producer()
        assert inner is not None
        dtype = x.dtype or middle.dtype or context.root.outputs[0].dtype
        if type_limits(dtype) is None:
            return result.fail("the element type is not known to be a number type", x)
        first = self._bounds(inner, dtype)
        second = self._bounds(context.root, dtype)
        for node, bounds in ((inner, first), (context.root, second)):
            if bounds is None:
                reason = _bounds_refusal(node) if node.op_type == "Clip" else "unknown type"
                return result.fail(reason, node)
        if first is None or second is None:
            return result.fail("a bound is not a one-element constant", context.root)
        merged = intersection(first, second, dtype)
        if merged is None:
            return result.fail("the ranges do not meet", context.root)
        self._range = merged
        return result

    def rewrite(self, op: RewriterContext, x: ir.Value, middle: ir.Value) -> ir.Value:
        stem = x.name or "x"
        low, high = self._range
        inputs: list[ir.Value | None] = [x, None, None]
        if low is not None:
            inputs[1] = op.initializer(ir.tensor(low), name=f"{stem}_min")
        if high is not None:
            inputs[2] = op.initializer(ir.tensor(high), name=f"{stem}_max")
        while inputs[-1] is None:
            inputs.pop()
        value: ir.Value = op.Clip(*inputs)
        return value


class FuseSuccessiveClip(_ClipChain):
    inner_op, outer_op = "Clip", "Clip"


class FuseSuccessiveClipRelu(_ClipChain):
    """``Clip(Relu(x), ...)``: 0.7's name says Clip, then what it follows."""

    inner_op, outer_op = "Relu", "Clip"


class FuseSuccessiveReluClip(FuseSuccessiveClipRelu):
    """``Relu(Clip(x, ...))``."""

    inner_op, outer_op = "Clip", "Relu"


class FuseSuccessiveRelu(RewriteRuleClassBase):
    """``Relu(Relu(x))`` -> ``Relu(x)``."""

    def pattern(self, op: Any, x: Any) -> Any:
        return op.Relu(op.Relu(x))

    def rewrite(self, op: RewriterContext, x: ir.Value) -> ir.Value:
        value: ir.Value = op.Relu(x)
        return value


successive_relu_rule = FuseSuccessiveRelu.rule()
successive_clip_rule = FuseSuccessiveClip.rule()
successive_clip_relu_rule = FuseSuccessiveClipRelu.rule()
successive_relu_clip_rule = FuseSuccessiveReluClip.rule()

__all__ = [
    "FuseSuccessiveClip",
    "FuseSuccessiveClipRelu",
    "FuseSuccessiveRelu",
    "FuseSuccessiveReluClip",
    "clip_bounds",
    "intersection",
    "successive_clip_relu_rule",
    "successive_clip_rule",
    "successive_relu_clip_rule",
    "successive_relu_rule",
    "type_limits",
]
