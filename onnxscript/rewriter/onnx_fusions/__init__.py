"""``fuse(model)``: the opset-23 fusions torch.onnx (2.8 and later) applies after
``optimize``: RMSNormalization, LayerNormalization, RotaryEmbedding and grouped-query
Attention with its KV cache, for a model importing ai.onnx opset 23 or later."""

from __future__ import annotations

from collections.abc import Callable

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.fusion import (
    attention,
    layer_normalization,
    rms_normalization,
    rotary_embedding,
)
from onnxscript.rewriter.tracer import MatchingTracer

MIN_OPSET = 23

_STEPS: list[tuple[str, list[RewriteRuleSet]]] = [
    # Layer norms first: the RMS rule would take their variance part.
    ("LayerNormalization", layer_normalization.layer_normalization_rulesets),
    ("RMSNormalization", [rms_normalization.rms_normalization_ruleset]),
    (
        "RotaryEmbedding",
        [rotary_embedding.rotary_embedding_ruleset, rotary_embedding.partial_embedding_ruleset],
    ),
    ("GQA", [attention.gqa_ruleset, attention.kv_cache_ruleset]),
]


def fuse(model: ir.Model, *, debug: bool = False) -> dict[str, int]:
    """Apply the fusions to ONNX ops of opset 23 to ``model`` in place; the number of
    fusions of each kind. A model importing ai.onnx below opset 23 is left alone and gives
    ``{}``. ``debug``: when nothing fused, print why each rule's best attempt failed."""
    version = model.opset_imports.get("", model.opset_imports.get("ai.onnx"))
    if version is None or version < MIN_OPSET:
        return {}
    tracer = MatchingTracer() if debug else None
    counts = {name: sum(_apply(s, model, tracer) for s in sets) for name, sets in _STEPS}
    if any(counts.values()):
        _clean(model)
    elif tracer is not None:
        tracer.report()
    return counts


def _apply(rules: RewriteRuleSet, model: ir.Model, tracer: MatchingTracer | None) -> int:
    count = rules.apply_to_model(model, tracer=tracer)
    if count:
        common.RemoveUnusedNodesPass()(model)
    return count


def _clean(model: ir.Model) -> None:
    """Share the cos / sin caches the rotary fusions made per use."""
    passes: list[Callable[[ir.Model], object]] = [
        common.CommonSubexpressionEliminationPass(),
        common.RemoveUnusedNodesPass(),
    ]
    for run in passes:
        run(model)


__all__ = ["fuse"]
