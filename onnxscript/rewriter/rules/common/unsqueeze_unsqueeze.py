"""``Unsqueeze(Unsqueeze(x, a1), a2)`` -> ``Unsqueeze(x, a)``, ``a`` the places of all
new dims in the final result, when both axes are constants (the input form, opset 13
on). Negative axes need ``x``'s rank; non-negative ones do not."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.metadata import record_folded_from
from onnxscript.ir_utils.value_facts import constant_ints, rank
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext


def merged_axes(first: list[int], second: list[int], x_rank: int | None) -> list[int] | None:
    """The axes of one Unsqueeze doing what Unsqueezes by ``first`` then ``second`` do
    to a tensor of rank ``x_rank``; None when they cannot be told or are invalid."""
    if x_rank is None:
        if min(first + second) < 0:
            return None
    else:
        middle = x_rank + len(first)
        final = middle + len(second)
        if not all(-middle <= a < middle for a in first):
            return None
        if not all(-final <= a < final for a in second):
            return None
        first = [a % middle for a in first]
        second = [a % final for a in second]
    if len(set(first)) != len(first) or len(set(second)) != len(second):
        return None
    placed = set(second)
    return sorted([*second, *(_nth_free(a, placed) for a in first)])


def _nth_free(index: int, taken: set[int]) -> int:
    """The ``index``-th (from 0) non-negative integer not in ``taken``."""
    position = -1
    for _ in range(index + 1):
        position += 1
        while position in taken:
            position += 1
    return position


class UnsqueezeUnsqueeze(RewriteRuleClassBase):
    def __init__(self) -> None:
        super().__init__()
        self._axes: list[int] = []

    def pattern(self, op: Any, x: Any, axes1: Any, axes2: Any) -> Any:
        return op.Unsqueeze(op.Unsqueeze(x, axes1), axes2)

    def check(
        self, context: MatchContext, x: ir.Value, axes1: ir.Value, axes2: ir.Value
    ) -> MatchResult:
        result = MatchResult()
        first, second = constant_ints(axes1), constant_ints(axes2)
        if first is None or second is None:
            return result.fail("the axes are not constants", context.root)
        axes = merged_axes(first, second, rank(x))
        if axes is None:
            return result.fail("negative axes and an unknown rank, or invalid axes", x)
        self._axes = axes
        return result

    def rewrite(
        self, op: RewriterContext, x: ir.Value, axes1: ir.Value, axes2: ir.Value, **_: Any
    ) -> ir.Value:
        axes: ir.Value = op.Constant(value=ir.tensor(np.array(self._axes, np.int64)))
        record_folded_from(axes, [axes1, axes2])
        value: ir.Value = op.Unsqueeze(x, axes)
        return value


unsqueeze_unsqueeze_rule = UnsqueezeUnsqueeze.rule()

__all__ = ["UnsqueezeUnsqueeze", "merged_axes", "unsqueeze_unsqueeze_rule"]
