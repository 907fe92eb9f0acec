"""``Reshape(Squeeze(x), [-1])`` -> ``x`` when ``x`` is 1-D (squeezing a 1-element
vector gives a scalar, which the Reshape makes a vector again), else ``Reshape(x, [-1])``
(squeezing moves no element)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.value_facts import constant_array, rank
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext


class SqueezeReshape(RewriteRuleClassBase):
    """The rule ``SqueezeReshape1d``."""

    def __init__(self) -> None:
        super().__init__("SqueezeReshape1d")

    def pattern(self, op: Any, x: Any, shape: Any) -> Any:
        return op.Reshape(op.Squeeze(x, _allow_other_inputs=True), shape)

    def check(self, context: MatchContext, x: ir.Value, shape: ir.Value) -> MatchResult:
        result = MatchResult()
        array = constant_array(shape)
        if array is None or array.shape != (1,) or int(array[0]) != -1:
            return result.fail("the shape is not [-1]", shape)
        return result

    def rewrite(self, op: RewriterContext, x: ir.Value, shape: ir.Value) -> ir.Value:
        value: ir.Value = op.Identity(x) if rank(x) == 1 else op.Reshape(x, shape)
        return value


squeeze_reshape_1d_rule = SqueezeReshape.rule()

__all__ = ["SqueezeReshape", "squeeze_reshape_1d_rule"]
