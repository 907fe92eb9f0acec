"""A residual Add followed by a normalization, to onnxruntime's
``SkipSimplifiedLayerNormalization`` (after ``SimplifiedLayerNormalization``) and
``SkipLayerNormalization`` (after ``LayerNormalization``): one kernel reads the two
tensors, adds them (and an optional 1-D bias), normalizes over the last axis and, when the
sum is used later (the next residual), also writes the sum."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions import cpu_kernels
from onnxscript.rewriter.pattern_graph import Var

_MS = "com.microsoft"


def _normalizes_last_axis(node: ir.Node, x: ir.Value) -> bool:
    """Whether the normalization ``node`` (``axis`` attribute, default -1) normalizes
    the last axis of ``x`` alone."""
    rank = value_facts.rank(x)
    axis = node.attributes.get_int("axis", -1)
    return rank is not None and axis in (-1, rank - 1)


def _float_stash(node: ir.Node) -> bool:
    """Whether ``node`` computes its statistics in float32 (as the skip kernels do)."""
    return node.attributes.get_int("stash_type", int(ir.DataType.FLOAT)) == ir.DataType.FLOAT


def _hidden_vector(vector: ir.Value, x: ir.Value) -> bool:
    """Whether ``vector`` is 1-D, of ``x``'s type and of its last dim."""
    return (
        value_facts.rank(vector) == 1
        and value_facts.tensor_dtype(vector) == x.dtype
        and value_facts.same_dim_at(vector, 0, x, -1)
    )


class _SkipNormFusion(RewriteRuleClassBase):
    """``Norm(input + skip [+ bias])`` to ``Skip<Norm>(input, skip, gamma, ...)``.

    ``bias``: None (no bias), "post" (``(input + skip) + bias``) or "pre"
    (``(input + bias) + skip``); ``sum_used``: the sum also replaces its later uses (the
    pattern then has two outputs)."""

    _simplified = True

    def __init__(self, bias: str | None, sum_used: bool) -> None:
        kind = "SkipRmsNorm" if self._simplified else "SkipLayerNorm"
        name = kind + {None: "", "post": "Bias", "pre": "PreBias"}[bias]
        super().__init__(name + ("Sum" if sum_used else ""))
        self._bias = bias
        self._sum_used = sum_used

    def _sum(self, op: Any, input: Any, skip: Any, bias: Any) -> Any:
        if self._bias == "post":
            return op.Add(op.Add(input, skip), bias, _outputs=["sum"])
        if self._bias == "pre":
            return op.Add(op.Add(input, bias), skip, _outputs=["sum"])
        return op.Add(input, skip, _outputs=["sum"])

    def _norm(self, op: Any, total: Any, gamma: Any, beta: Any) -> Any:
        if self._simplified:
            return op.SimplifiedLayerNormalization(total, gamma, _outputs=["normalized"])
        return op.LayerNormalization(total, gamma, beta, _outputs=["normalized"])

    def pattern(self, op: Any, input: Any, skip: Any, gamma: Any, beta: Any, bias: Any) -> Any:
        total = self._sum(op, input, skip, bias)
        normalized = self._norm(op, total, gamma, Var("beta", can_match_none=True))
        return (normalized, total) if self._sum_used else normalized

    def check(
        self,
        context: Any,
        input: ir.Value,
        skip: ir.Value,
        gamma: ir.Value,
        normalized: ir.Value,
        beta: ir.Value | None = None,
        bias: ir.Value | None = None,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        op_type = (
            "SkipSimplifiedLayerNormalization" if self._simplified else "SkipLayerNormalization"
        )
        refused = cpu_kernels.skip_normalization(
            op_type, value_facts.tensor_dtype(input), value_facts.rank(input)
        )
        if refused is not None:
            return result.fail(refused, input)
        if not value_facts.same_shape(input, skip):
            return result.fail("input and skip do not have one shape", [input, skip])
        node = normalized.producer()
        assert node is not None
        if not _normalizes_last_axis(node, input):
            return result.fail("the normalization is not over the last axis alone", node)
        if not _float_stash(node):
            return result.fail("the statistics are not computed in float32", node)
        if normalized.dtype not in (None, input.dtype) or gamma.dtype != input.dtype:
            return result.fail("the normalization changes the element type", node)
        if not value_facts.unused(node.outputs[1:]):
            return result.fail("the normalization's statistics are used", node)
        for vector in (gamma, beta, bias):
            if vector is not None and not _hidden_vector(vector, input):
                return result.fail("a weight or bias is not 1-D of the hidden size", vector)
        return result

    def rewrite(
        self,
        op: Any,
        input: ir.Value,
        skip: ir.Value,
        gamma: ir.Value,
        normalized: ir.Value,
        beta: ir.Value | None = None,
        bias: ir.Value | None = None,
        **_: Any,
    ) -> Any:
        node = normalized.producer()
        assert node is not None
        epsilon = node.attributes.get_float("epsilon", 1e-5)
        if self._simplified:
            inputs: list[ir.Value | None] = [input, skip, gamma, bias]
            op_type = "SkipSimplifiedLayerNormalization"
        else:
            inputs = [input, skip, gamma, beta, bias]
            op_type = "SkipLayerNormalization"
        outputs = 4 if self._sum_used else 1  # output, mean, inv_std_var, sum
        while inputs[-1] is None:
            inputs.pop()
        make = getattr(op, op_type)
        fused = make(*inputs, _domain=_MS, _version=1, _outputs=outputs, epsilon=epsilon)
        return (fused[0], fused[3]) if self._sum_used else fused


class SkipRmsNormFusion(_SkipNormFusion):
    """``SimplifiedLayerNormalization(input + skip [+ bias], gamma)`` to
    ``SkipSimplifiedLayerNormalization``."""

    def pattern(self, op: Any, input: Any, skip: Any, gamma: Any, bias: Any) -> Any:  # type: ignore[override]
        return super().pattern(op, input, skip, gamma, None, bias)


class SkipLayerNormFusion(_SkipNormFusion):
    """``LayerNormalization(input + skip [+ bias], gamma [, beta])`` to
    ``SkipLayerNormalization``."""

    _simplified = False


def _rules(kind: type[_SkipNormFusion]) -> list[Any]:
    """Without the sum first (one output), then with it; each with post-, pre- and no
    bias. A bias form is tried before the plain one, which would take its last Add."""
    return [
        kind.rule(bias=bias, sum_used=sum_used)
        for sum_used in (False, True)
        for bias in ("post", "pre", None)
    ]


skip_rms_normalization_ruleset = RewriteRuleSet(_rules(SkipRmsNormFusion), commute=True)
skip_layer_normalization_ruleset = RewriteRuleSet(_rules(SkipLayerNormFusion), commute=True)

fuse_skip_rms_normalization = fuse_function(
    skip_rms_normalization_ruleset,
    "Fuse residual Adds into the SimplifiedLayerNormalizations after them (in place); "
    "the number fused.",
)
fuse_skip_layer_normalization = fuse_function(
    skip_layer_normalization_ruleset,
    "Fuse residual Adds into the LayerNormalizations after them (in place); the number fused.",
)

__all__ = [
    "SkipLayerNormFusion",
    "SkipRmsNormFusion",
    "fuse_skip_layer_normalization",
    "fuse_skip_rms_normalization",
    "skip_layer_normalization_ruleset",
    "skip_rms_normalization_ruleset",
]
