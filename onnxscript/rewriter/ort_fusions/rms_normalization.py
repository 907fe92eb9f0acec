"""RMS normalization to onnxruntime's ``SimplifiedLayerNormalization`` (a contrib op of
the default domain): the decompositions of ``rules.fusion.rms_normalization`` (one
fusion for both targets, here emitting onnxruntime's op), and opset 23's
``RMSNormalization`` (same semantics), so that the skip fusions that follow see one op."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.fusion import rms_normalization as rms
from onnxscript.rewriter.rules.fusion.targets import ONNXRUNTIME, FusionTarget


class RmsNormFusion(rms.RmsNormFusion):
    """The decomposition to ``SimplifiedLayerNormalization(x, scale, axis, epsilon,
    stash_type)``: :class:`rules.fusion.rms_normalization.RmsNormFusion` with
    onnxruntime as its target."""

    target: FusionTarget = ONNXRUNTIME


class RmsNormalizationOp(RewriteRuleClassBase):
    """Opset 23's ``RMSNormalization`` to ``SimplifiedLayerNormalization``: the same
    computation (``x / sqrt(mean(x**2 over axis:) + epsilon) * scale``, statistics in
    ``stash_type``) under the name onnxruntime's skip fusions know."""

    def pattern(self, op: Any, x: Any, scale: Any) -> Any:
        return op.RMSNormalization(x, scale, _outputs=["normalized"])

    def check(self, context: Any, x: ir.Value, normalized: ir.Value, **_: Any) -> MatchResult:
        result = MatchResult()
        if not value_facts.is_float(x):
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


rms_normalization_rules = [*rms.forms(RmsNormFusion), RmsNormalizationOp.rule()]
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
