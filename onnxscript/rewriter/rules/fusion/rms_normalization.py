"""RMSNormalization (opset 23) from its decomposition, as torch and transformers write it:
``weight * (x * Reciprocal(Sqrt(ReduceMean(x ** 2, axes) + eps))``, with ``x * x``,
``x / Sqrt(...)`` or ``1 / Sqrt(...)`` variants and an optional Cast to float32 around the
statistics (mixed precision); operands of Add and Mul in either order."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_graph import AttrPattern, OrValue
from onnxscript.rewriter.rules.fusion import facts


class RmsNormFusion(RewriteRuleClassBase):
    """``scale * normalized(x)`` to ``RMSNormalization(x, scale)``; ``cast``: the
    statistics are computed on ``Cast(x)`` and the result cast back before the scale."""

    def __init__(self, cast: bool) -> None:
        super().__init__(f"RmsNormFusion{'Cast' if cast else ''}")
        self._cast = cast

    def pattern(self, op: Any, x: Any, scale: Any, axes: Any, epsilon: Any) -> Any:
        computed = op.Cast(x, to=AttrPattern("compute_type")) if self._cast else x
        square = OrValue([op.Pow(computed, 2), op.Mul(computed, computed)])
        mean = op.ReduceMean(square, axes, _outputs=["mean"])
        rms = op.Sqrt(op.Add(mean, epsilon))
        inverse = OrValue([op.Reciprocal(rms), op.Div(1, rms)])
        normalized = OrValue([op.Mul(computed, inverse), op.Div(computed, rms)])
        if self._cast:
            normalized = op.Cast(normalized, to=AttrPattern("result_type"))
        return op.Mul(scale, normalized)

    def check(
        self,
        context: Any,
        x: ir.Value,
        scale: ir.Value,
        axes: ir.Value,
        epsilon: ir.Value,
        mean: ir.Value,
        compute_type: ir.Attr | None = None,
        result_type: ir.Attr | None = None,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        if not facts.is_float(x):
            return result.fail("x is not a known floating-point tensor", x)
        if self._cast:
            if compute_type is None or compute_type.as_int() not in _FLOATS:
                return result.fail("the statistics are not computed in floating point", x)
            if result_type is None or result_type.as_int() != x.dtype:
                return result.fail("the result is not cast back to the input's type", x)
        if facts.constant_float(epsilon) is None:
            return result.fail("epsilon is not a constant", epsilon)
        if facts.node_attr_int(mean, "keepdims", 1) != 1:
            return result.fail("ReduceMean does not keep the reduced dimensions", mean)
        axis = facts.trailing_axis(x, axes)
        if axis is None:
            return result.fail("the mean is not over the trailing axes", axes)
        if scale.dtype != x.dtype or not facts.scale_fits(scale, x, axis):
            return result.fail("the scale's type or shape does not fit the input", scale)
        return result

    def rewrite(
        self,
        op: Any,
        x: ir.Value,
        scale: ir.Value,
        axes: ir.Value,
        epsilon: ir.Value,
        compute_type: ir.Attr | None = None,
        **_: Any,
    ) -> Any:
        return op.RMSNormalization(
            x,
            scale,
            axis=facts.from_end(facts.trailing_axis(x, axes), x),
            epsilon=facts.constant_float(epsilon),
            stash_type=facts.stash_type(x, compute_type),
        )


_FLOATS = frozenset(int(t) for t in facts.FLOAT_TYPES)


rms_normalization_rules = [RmsNormFusion.rule(cast=True), RmsNormFusion.rule(cast=False)]
rms_normalization_ruleset = RewriteRuleSet(rms_normalization_rules, commute=True)


fuse_rms_normalization = fuse_function(
    rms_normalization_ruleset,
    "Fuse every RMS normalization of the model (in place); the number fused.",
)


__all__: list[str] = [
    "RmsNormFusion",
    "fuse_rms_normalization",
    "rms_normalization_rules",
    "rms_normalization_ruleset",
]
