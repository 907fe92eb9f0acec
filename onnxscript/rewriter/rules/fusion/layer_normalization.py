"""LayerNormalization from its decomposition: ``(x - mean) / Sqrt(var + eps) * scale
(+ bias)`` with ``mean`` and ``var`` ReduceMeans over the trailing axes (``d ** 2`` or
``d * d``; division or multiplication by the Reciprocal); operands of Add and Mul in
either order.

One fusion serves both targets: LayerNormalization is an ai.onnx op (opset 17 on) that
onnxruntime runs as it is, and ``ort_fusions``' skip fusions start from it."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_graph import OrValue
from onnxscript.rewriter.rules.fusion import normalization_parts as parts


class LayerNormFusion(RewriteRuleClassBase):
    """The decomposition to ``LayerNormalization(x, scale)``."""

    _bias = False

    def pattern(
        self, op: Any, x: Any, scale: Any, bias: Any, axes: Any, axes2: Any, epsilon: Any
    ) -> Any:
        mean = op.ReduceMean(x, axes, _outputs=["mean"])
        centered = op.Sub(x, mean)
        square = OrValue([op.Pow(centered, 2), op.Mul(centered, centered)])
        variance = op.ReduceMean(square, axes2, _outputs=["variance"])
        std = op.Sqrt(op.Add(variance, epsilon))
        normalized = OrValue([op.Div(centered, std), op.Mul(centered, op.Reciprocal(std))])
        scaled = op.Mul(normalized, scale)
        return op.Add(scaled, bias) if self._bias else scaled

    def check(
        self,
        context: Any,
        x: ir.Value,
        scale: ir.Value,
        axes: ir.Value,
        axes2: ir.Value,
        epsilon: ir.Value,
        mean: ir.Value,
        variance: ir.Value,
        bias: ir.Value | None = None,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        if not value_facts.is_float(x):
            return result.fail("x is not a known floating-point tensor", x)
        axis = parts.trailing_axis(x, axes)
        if axis is None or value_facts.constant_ints(axes2) != value_facts.constant_ints(axes):
            return result.fail("the means are not over the same trailing axes", axes)
        if any(value_facts.producer_attr_int(v, "keepdims", 1) != 1 for v in (mean, variance)):
            return result.fail("a ReduceMean does not keep the reduced dimensions", mean)
        if value_facts.constant_float(epsilon) is None:
            return result.fail("epsilon is not a constant", epsilon)
        for weight in (scale, bias) if bias is not None else (scale,):
            if value_facts.tensor_dtype(weight) != x.dtype or not parts.scale_fits(weight, x, axis):
                return result.fail("a weight's type or shape does not fit the input", weight)
        return result

    def rewrite(
        self,
        op: Any,
        x: ir.Value,
        scale: ir.Value,
        axes: ir.Value,
        epsilon: ir.Value,
        bias: ir.Value | None = None,
        **_: Any,
    ) -> Any:
        axis = parts.from_end(parts.trailing_axis(x, axes), x)
        inputs = [x, scale] if bias is None else [x, scale, bias]
        epsilon_value = value_facts.constant_float(epsilon)
        return op.LayerNormalization(
            *inputs, axis=axis, epsilon=epsilon_value, stash_type=parts.stash_type(x)
        )


class LayerNormBiasFusion(LayerNormFusion):
    """The decomposition with a bias added, to ``LayerNormalization(x, scale, bias)``."""

    _bias = True


layer_normalization_rules = [LayerNormBiasFusion.rule(), LayerNormFusion.rule()]
# With a bias first: the form without would match its Mul (met earlier in the graph).
layer_normalization_rulesets = [
    RewriteRuleSet(layer_normalization_rules[:1], commute=True),
    RewriteRuleSet(layer_normalization_rules[1:], commute=True),
]


fuse_layer_normalization = fuse_function(
    layer_normalization_rulesets,
    "Fuse every layer normalization of the model (in place); the number fused.",
)


__all__ = [
    "LayerNormBiasFusion",
    "LayerNormFusion",
    "fuse_layer_normalization",
    "layer_normalization_rules",
    "layer_normalization_rulesets",
]
