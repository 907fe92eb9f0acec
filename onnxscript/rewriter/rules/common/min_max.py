"""Chains of Min and Max with constants: ``Min(Min(x, a), b)`` -> ``Min(x, min(a, b))``
(``Max`` alike); ``Max(Min(x, hi), lo)`` and ``Min(Max(x, lo), hi)`` -> ``Clip(x, lo,
hi)`` when ``lo`` and ``hi`` are one-element constants that do not change ``x``'s shape
by broadcasting (Clip takes scalars). ``Max(Min(x, hi), lo)`` needs ``lo <= hi``;
``Min(Max(x, lo), hi)`` is ``hi`` everywhere otherwise, as Clip is then."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import SMALL_CONSTANT, broadcast_keeps_shape, constant_array
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.replacement import RewriterContext


def _same_op_rule(op_type: str, combine: Any, name: str) -> RewriteRule:
    def pattern(op: Any, x: Any, first: Any, second: Any) -> Any:
        inner = getattr(op, op_type)(x, first)
        return getattr(op, op_type)(inner, second)

    def check(context: MatchContext, first: ir.Value, second: ir.Value) -> MatchResult:
        result = MatchResult()
        if (
            constant_array(first, SMALL_CONSTANT) is None
            or constant_array(second, SMALL_CONSTANT) is None
        ):
            return result.fail("the bounds are not both constants", context.root)
        return result

    def replacement(
        op: RewriterContext, x: ir.Value, first: ir.Value, second: ir.Value
    ) -> ir.Value:
        a, b = constant_array(first, SMALL_CONSTANT), constant_array(second, SMALL_CONSTANT)
        assert a is not None and b is not None
        bound = op.initializer(ir.tensor(combine(a, b)), name=f"{x.name or 'x'}_{op_type.lower()}")
        value: ir.Value = getattr(op, op_type)(x, bound)
        return value

    return RewriteRule(pattern, replacement, check, name=name)


def _scalar_bound(x: ir.Value, bound: ir.Value) -> np.ndarray | None:
    array = constant_array(bound, SMALL_CONSTANT)
    if array is None or array.size != 1 or not broadcast_keeps_shape(x, array.shape):
        return None
    return array.reshape(())


def _clip_rule(outer_op: str, inner_op: str, name: str) -> RewriteRule:
    """``outer(inner(x, first), second)`` as a Clip: Min inside gives the upper bound."""

    def pattern(op: Any, x: Any, first: Any, second: Any) -> Any:
        inner = getattr(op, inner_op)(x, first)
        return getattr(op, outer_op)(inner, second)

    def bounds(x: ir.Value, first: ir.Value, second: ir.Value) -> tuple[Any, Any] | None:
        a, b = _scalar_bound(x, first), _scalar_bound(x, second)
        if a is None or b is None:
            return None
        return (b, a) if inner_op == "Min" else (a, b)

    def check(context: MatchContext, x: ir.Value, first: ir.Value, second: ir.Value) -> MatchResult:
        result = MatchResult()
        found = bounds(x, first, second)
        if found is None:
            return result.fail("the bounds are not one-element constants keeping x's shape", x)
        low, high = found
        if inner_op == "Min" and not low <= high:
            return result.fail("the lower bound exceeds the upper one", context.root)
        return result

    def replacement(
        op: RewriterContext, x: ir.Value, first: ir.Value, second: ir.Value
    ) -> ir.Value:
        found = bounds(x, first, second)
        assert found is not None
        stem = x.name or "x"
        low = op.initializer(ir.tensor(found[0]), name=f"{stem}_min")
        high = op.initializer(ir.tensor(found[1]), name=f"{stem}_max")
        value: ir.Value = op.Clip(x, low, high)
        return value

    return RewriteRule(pattern, replacement, check, name=name)


min_min_rule = _same_op_rule("Min", np.minimum, "FuseSuccessiveMin")
max_max_rule = _same_op_rule("Max", np.maximum, "FuseSuccessiveMax")
min_max_rule = _clip_rule("Max", "Min", "FuseMinMaxToClip")
max_min_rule = _clip_rule("Min", "Max", "FuseMaxMinToClip")

__all__ = ["max_max_rule", "max_min_rule", "min_max_rule", "min_min_rule"]
