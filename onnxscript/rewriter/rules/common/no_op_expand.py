"""``Expand(x, shape)`` -> ``x`` when the expansion changes nothing: ``shape`` is a
constant no longer than ``x``'s rank whose entries are 1 or ``x``'s (known) dims, or the
result is known to have ``x``'s shape (symbolic dims compared by name)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.value_facts import broadcast_keeps_shape, constant_ints, same_shape
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext


class ExpandIdentity(RewriteRuleClassBase):
    """``Expand(x, shape)`` -> ``x`` when the expansion changes nothing."""

    def pattern(self, op: Any, x: Any, shape: Any) -> Any:
        return op.Expand(x, shape, _outputs=["expanded"])

    def check(
        self, context: MatchContext, x: ir.Value, shape: ir.Value, expanded: ir.Value
    ) -> MatchResult:
        result = MatchResult()
        target = constant_ints(shape)
        if target is not None and broadcast_keeps_shape(x, target):
            return result
        if same_shape(x, expanded):
            return result
        return result.fail("the expansion may change the shape", x)

    def rewrite(self, op: RewriterContext, x: ir.Value, **_: Any) -> ir.Value:
        value: ir.Value = op.Identity(x)
        return value


no_op_expand_rule = ExpandIdentity.rule()

__all__ = ["ExpandIdentity", "no_op_expand_rule"]
