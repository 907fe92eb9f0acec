"""A float16 Softmax computed in float32 between Casts (``Cast(Softmax(Cast(x, float)),
float16)``, as torch exports ``softmax(x, dtype=float32).half()``) to a Softmax on the
float16 input: onnxruntime's float16 Softmax accumulates in float32 already."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_graph import AttrVar


class SoftmaxUpcast(RewriteRuleClassBase):
    """The Casts around a float32 Softmax of a float16 tensor, removed."""

    def pattern(self, op: Any, x: Any) -> Any:
        upcast = op.Cast(x, to=int(ir.DataType.FLOAT))
        softmax = op.Softmax(upcast, axis=AttrVar("axis", can_match_none=True))
        return op.Cast(softmax, to=int(ir.DataType.FLOAT16))

    def check(self, context: Any, x: ir.Value, **_: Any) -> MatchResult:
        result = MatchResult()
        if x.dtype != ir.DataType.FLOAT16:
            return result.fail("the input is not float16", x)
        return result

    def rewrite(self, op: Any, x: ir.Value, axis: ir.Attr | None = None) -> Any:
        if axis is None:
            return op.Softmax(x)
        return op.Softmax(x, axis=axis.as_int())


softmax_with_fp32_upcast_rule = SoftmaxUpcast.rule()
rules = RewriteRuleSet([softmax_with_fp32_upcast_rule])

__all__ = ["SoftmaxUpcast", "rules", "softmax_with_fp32_upcast_rule"]
