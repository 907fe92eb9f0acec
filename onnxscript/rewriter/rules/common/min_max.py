"""Chains of Min and Max with constants: ``Min(Min(x, a), b)`` -> ``Min(x, min(a, b))``
(``Max`` alike); ``Max(Min(x, hi), lo)`` and ``Min(Max(x, lo), hi)`` -> ``Clip(x, lo,
hi)`` when ``lo`` and ``hi`` are one-element constants that do not change ``x``'s shape
by broadcasting (Clip takes scalars). ``Max(Min(x, hi), lo)`` needs ``lo <= hi``;
``Min(Max(x, lo), hi)`` is ``hi`` everywhere otherwise, as Clip is then."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import broadcast_keeps_shape, constant_array
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext


class _SuccessiveBound(RewriteRuleClassBase):
    """``Op(Op(x, a), b)`` -> ``Op(x, combine(a, b))`` for constants ``a``, ``b``."""

    op_type = "Min"

    @staticmethod
    def combine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        result: np.ndarray = np.minimum(a, b)
        return result

    def pattern(self, op: Any, x: Any, first: Any, second: Any) -> Any:
        inner = getattr(op, self.op_type)(x, first)
        return getattr(op, self.op_type)(inner, second)

    def check(
        self, context: MatchContext, first: ir.Value, second: ir.Value, **_: Any
    ) -> MatchResult:
        result = MatchResult()
        if constant_array(first) is None or constant_array(second) is None:
            return result.fail("the bounds are not both constants", context.root)
        return result

    def rewrite(
        self, op: RewriterContext, x: ir.Value, first: ir.Value, second: ir.Value
    ) -> ir.Value:
        a, b = constant_array(first), constant_array(second)
        assert a is not None and b is not None
        stem = f"{x.name or 'x'}_{self.op_type.lower()}"
        bound = op.initializer(ir.tensor(self.combine(a, b)), name=stem)
        value: ir.Value = getattr(op, self.op_type)(x, bound)
        return value


class FuseSuccessiveMin(_SuccessiveBound):
    op_type = "Min"


class FuseSuccessiveMax(_SuccessiveBound):
    op_type = "Max"

    @staticmethod
    def combine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        result: np.ndarray = np.maximum(a, b)
        return result


def _scalar_bound(x: ir.Value, bound: ir.Value) -> np.ndarray | None:
    array = constant_array(bound)
    if array is None or array.size != 1 or not broadcast_keeps_shape(x, array.shape):
        return None
    return array.reshape(())


class _BoundsToClip(RewriteRuleClassBase):
    """``outer(inner(x, first), second)`` as a Clip: Min inside gives the upper bound."""

    inner_op = "Min"
    outer_op = "Max"

    def pattern(self, op: Any, x: Any, first: Any, second: Any) -> Any:
        inner = getattr(op, self.inner_op)(x, first)
        return getattr(op, self.outer_op)(inner, second)

    def _bounds(self, x: ir.Value, first: ir.Value, second: ir.Value) -> tuple[Any, Any] | None:
        a, b = _scalar_bound(x, first), _scalar_bound(x, second)
        if a is None or b is None:
            return None
        return (b, a) if self.inner_op == "Min" else (a, b)

    def check(
        self, context: MatchContext, x: ir.Value, first: ir.Value, second: ir.Value
    ) -> MatchResult:
        result = MatchResult()
        found = self._bounds(x, first, second)
        if found is None:
            return result.fail("the bounds are not one-element constants keeping x's shape", x)
        low, high = found
        if self.inner_op == "Min" and not low <= high:
            return result.fail("the lower bound exceeds the upper one", context.root)
        return result

    def rewrite(
        self, op: RewriterContext, x: ir.Value, first: ir.Value, second: ir.Value
    ) -> ir.Value:
        found = self._bounds(x, first, second)
        assert found is not None
        stem = x.name or "x"
        low = op.initializer(ir.tensor(found[0]), name=f"{stem}_min")
        high = op.initializer(ir.tensor(found[1]), name=f"{stem}_max")
        value: ir.Value = op.Clip(x, low, high)
        return value


class FuseMinMaxToClip(_BoundsToClip):
    """``Max(Min(x, high), low)``."""

    inner_op, outer_op = "Min", "Max"


class FuseMaxMinToClip(_BoundsToClip):
    """``Min(Max(x, low), high)``."""

    inner_op, outer_op = "Max", "Min"


min_min_rule = FuseSuccessiveMin.rule()
max_max_rule = FuseSuccessiveMax.rule()
min_max_rule = FuseMinMaxToClip.rule()
max_min_rule = FuseMaxMinToClip.rule()

__all__ = [
    "FuseMaxMinToClip",
    "FuseMinMaxToClip",
    "FuseSuccessiveMax",
    "FuseSuccessiveMin",
    "max_max_rule",
    "max_min_rule",
    "min_max_rule",
    "min_min_rule",
]
