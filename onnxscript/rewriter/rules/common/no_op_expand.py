"""``Expand(x, shape)`` -> ``x`` when the expansion changes nothing: ``shape`` is a
constant no longer than ``x``'s rank whose entries are 1 or ``x``'s (known) dims, or the
result is known to have ``x``'s shape (symbolic dims compared by name)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.value_facts import broadcast_keeps_shape, constant_ints, same_shape
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.replacement import RewriterContext


def _pattern(op: Any, x: Any, shape: Any) -> Any:
    return op.Expand(x, shape, _outputs=["expanded"])


def _check(context: MatchContext, x: ir.Value, shape: ir.Value, expanded: ir.Value) -> MatchResult:
    result = MatchResult()
    target = constant_ints(shape)
    if target is not None and broadcast_keeps_shape(x, target):
        return result
    if same_shape(x, expanded):
        return result
    return result.fail("the expansion may change the shape", x)


def _identity(op: RewriterContext, x: ir.Value) -> ir.Value:
    value: ir.Value = op.Identity(x)
    return value


no_op_expand_rule = RewriteRule(_pattern, _identity, _check, name="ExpandIdentity")

__all__ = ["no_op_expand_rule"]
