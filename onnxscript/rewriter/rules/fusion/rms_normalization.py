"""RMS normalization from its decomposition, as torch and transformers write it:
``weight * (x * Reciprocal(Sqrt(ReduceMean(x ** 2, axes) + eps))``, with ``x * x``,
``x / Sqrt(...)`` or ``1 / Sqrt(...)`` variants and an optional Cast to float32 around the
statistics (mixed precision); operands of Add and Mul in either order.

Written once for both targets (:mod:`.targets`): ``"onnx"`` emits opset 23's
``RMSNormalization``, ``"onnxruntime"`` its contrib ``SimplifiedLayerNormalization`` (the
same computation, default domain; ``ort_fusions.rms_normalization``)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_graph import AttrPattern, OrValue
from onnxscript.rewriter.rules.fusion import normalization_parts as parts
from onnxscript.rewriter.rules.fusion.targets import ONNX, FusionTarget

_FLOATS = frozenset(int(t) for t in value_facts.FLOAT_TYPES)


class RmsNormFusion(RewriteRuleClassBase):
    """``scale * normalized(x)`` to one RMS normalization op of ``target`` (the class's
    ``target`` unless given); ``cast``: the statistics are computed on ``Cast(x)`` and
    the result cast back before the scale; ``swapped``: the scale is the root Mul's
    second operand.

    Operand orders are alternatives inside one pattern rather than commuted copies of
    the rule: a Llama has many Muls, and each would be offered to 16 copies."""

    target: FusionTarget = ONNX

    def __init__(
        self, cast: bool, swapped: bool = False, target: FusionTarget | None = None
    ) -> None:
        if target is not None:
            self.target = target
        kind = "RmsNormFusion" if self.target == ONNX else "SimplifiedLayerNorm"
        super().__init__(f"{kind}{'Cast' if cast else ''}{'Swapped' if swapped else ''}")
        self._cast = cast
        self._swapped = swapped

    def pattern(self, op: Any, x: Any, scale: Any, axes: Any, epsilon: Any) -> Any:
        computed = op.Cast(x, to=AttrPattern("compute_type")) if self._cast else x
        square = OrValue([op.Pow(computed, 2), op.Mul(computed, computed)])
        mean = op.ReduceMean(square, axes, _outputs=["mean"])
        rms = op.Sqrt(OrValue([op.Add(mean, epsilon), op.Add(epsilon, mean)]))
        inverse = OrValue([op.Reciprocal(rms), op.Div(1, rms)])
        normalized = OrValue(
            [op.Mul(computed, inverse), op.Mul(inverse, computed), op.Div(computed, rms)]
        )
        if self._cast:
            normalized = op.Cast(normalized, to=AttrPattern("result_type"))
        return op.Mul(normalized, scale) if self._swapped else op.Mul(scale, normalized)

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
        if not value_facts.is_float(x):
            return result.fail("x is not a known floating-point tensor", x)
        if self._cast:
            if compute_type is None or compute_type.as_int() not in _FLOATS:
                return result.fail("the statistics are not computed in floating point", x)
            if result_type is None or result_type.as_int() != x.dtype:
                return result.fail("the result is not cast back to the input's type", x)
        if value_facts.constant_float(epsilon) is None:
            return result.fail("epsilon is not a constant", epsilon)
        if value_facts.producer_attr_int(mean, "keepdims", 1) != 1:
            return result.fail("ReduceMean does not keep the reduced dimensions", mean)
        axis = parts.trailing_axis(x, axes)
        if axis is None:
            return result.fail("the mean is not over the trailing axes", axes)
        if value_facts.tensor_dtype(scale) != x.dtype or not parts.scale_fits(scale, x, axis):
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
        attributes = {
            "axis": parts.from_end(parts.trailing_axis(x, axes), x),
            "epsilon": value_facts.constant_float(epsilon),
            "stash_type": parts.stash_type(x, compute_type),
        }
        if self.target == ONNX:
            return op.RMSNormalization(x, scale, **attributes)
        return op.SimplifiedLayerNormalization(x, scale, **attributes)


def forms(fusion: type[RmsNormFusion]) -> list[Any]:
    """The rules of ``fusion`` (this class, or a target's subclass) for every form: with
    and without Casts, the scale on either side."""
    return [
        fusion.rule(cast=cast, swapped=swapped)
        for cast in (True, False)
        for swapped in (False, True)
    ]


rms_normalization_rules = forms(RmsNormFusion)
rms_normalization_ruleset = RewriteRuleSet(rms_normalization_rules)


fuse_rms_normalization = fuse_function(
    rms_normalization_ruleset,
    "Fuse every RMS normalization of the model (in place); the number fused.",
)


__all__: list[str] = [
    "RmsNormFusion",
    "forms",
    "fuse_rms_normalization",
    "rms_normalization_rules",
    "rms_normalization_ruleset",
]
