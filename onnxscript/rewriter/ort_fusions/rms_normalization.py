"""RMS normalization to onnxruntime's ``SimplifiedLayerNormalization`` (a contrib op of
the default domain): the decompositions torch and transformers export (``x * x`` or
``x ** 2``, ``Reciprocal(Sqrt(...))`` or a division, the statistics in float32 between
Casts), and opset 23's ``RMSNormalization`` (same semantics), so that the skip fusions
that follow see one op."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_graph import AttrPattern, OrValue
from onnxscript.rewriter.rules.fusion import facts
from onnxscript.rewriter.rules.fusion import rms_normalization as onnx_rms


class RmsNormFusion(onnx_rms.RmsNormFusion):
    """The decomposition (see ``rules.fusion.rms_normalization``, whose check this
    shares) to ``SimplifiedLayerNormalization(x, scale, axis, epsilon, stash_type)``.

    Operand orders are alternatives inside one pattern (``swapped``: the scale is the
    root Mul's second operand) rather than commuted copies of the rule: a Llama has
    many Muls, and each would be offered to 16 copies."""

    def __init__(self, cast: bool, swapped: bool = False) -> None:
        super().__init__(cast)
        self.name = f"SimplifiedLayerNorm{'Cast' if cast else ''}{'Swapped' if swapped else ''}"
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
        return op.SimplifiedLayerNormalization(
            x,
            scale,
            axis=facts.from_end(facts.trailing_axis(x, axes), x),
            epsilon=facts.constant_float(epsilon),
            stash_type=facts.stash_type(x, compute_type),
        )


class RmsNormalizationOp(RewriteRuleClassBase):
    """Opset 23's ``RMSNormalization`` to ``SimplifiedLayerNormalization``: the same
    computation (``x / sqrt(mean(x**2 over axis:) + epsilon) * scale``, statistics in
    ``stash_type``) under the name onnxruntime's skip fusions know."""

    def pattern(self, op: Any, x: Any, scale: Any) -> Any:
        return op.RMSNormalization(x, scale, _outputs=["normalized"])

    def check(self, context: Any, x: ir.Value, normalized: ir.Value, **_: Any) -> MatchResult:
        result = MatchResult()
        if not facts.is_float(x):
            return result.fail("x is not a known floating-point tensor", x)
        return result

    def rewrite(self, op: Any, x: ir.Value, scale: ir.Value, normalized: ir.Value) -> Any:
        node = normalized.producer()
        assert node is not None
        return op.SimplifiedLayerNormalization(
            x,
            scale,
            axis=node.attributes.get_int("axis", -1),
            epsilon=node.attributes.get_float("epsilon", 1e-5),
            stash_type=node.attributes.get_int("stash_type", int(ir.DataType.FLOAT)),
        )


rms_normalization_rules = [
    *(RmsNormFusion.rule(cast=True, swapped=s) for s in (False, True)),
    *(RmsNormFusion.rule(cast=False, swapped=s) for s in (False, True)),
    RmsNormalizationOp.rule(),
]
rms_normalization_ruleset = RewriteRuleSet(rms_normalization_rules)

fuse_rms_normalization = fuse_function(
    rms_normalization_ruleset,
    "Fuse the RMS normalizations of ``model`` (in place) into SimplifiedLayerNormalization; "
    "the number fused.",
)

__all__ = [
    "RmsNormFusion",
    "RmsNormalizationOp",
    "fuse_rms_normalization",
    "rms_normalization_rules",
    "rms_normalization_ruleset",
]
