"""Rotary embeddings for onnxruntime: transformers' ``apply_rotary_pos_emb`` (``x * cos +
rotate_half(x) * sin``) to an intermediate ``ai.onnxruntime._fusion::RotaryEmbedding(x,
cos, sin)``, by the fusion :mod:`onnxscript.rewriter.rules.fusion.rotary_embedding`
writes once for both targets. onnxruntime's ``com.microsoft::RotaryEmbedding`` takes
position ids and cos / sin caches instead: :mod:`.cos_sin_cache` completes the fusion,
and :func:`restore_unfused_rotary` expands the intermediate ops it could not complete
back into the original arithmetic."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.fusion import rotary_embedding as rotary
from onnxscript.rewriter.rules.fusion.rotary_parts import END
from onnxscript.rewriter.rules.fusion.targets import (
    INTERMEDIATE_DOMAIN,
    ONNXRUNTIME,
    FusionTarget,
)


class RotaryEmbeddingFusion(rotary.RotaryEmbeddingFusion):
    """Full rotation to the intermediate RotaryEmbedding:
    :class:`rules.fusion.rotary_embedding.RotaryEmbeddingFusion` with onnxruntime as its
    target (cos / sin any ``[batch or 1, heads or 1, seq, head_dim]`` values)."""

    target: FusionTarget = ONNXRUNTIME


class PartialRotaryEmbeddingFusion(rotary.PartialRotaryEmbeddingFusion):
    """``Concat(RotaryEmbedding(x[..., :k], cos, sin), x[..., k:])`` of the intermediate
    op (``contrib``: of ``com.microsoft``'s) to one partial RotaryEmbedding:
    :class:`rules.fusion.rotary_embedding.PartialRotaryEmbeddingFusion` with onnxruntime
    as its target."""

    target: FusionTarget = ONNXRUNTIME


class UnfusedRotaryEmbedding(RewriteRuleClassBase):
    """An intermediate RotaryEmbedding left over back to ``x * cos + rotate_half(x) *
    sin`` (on the first ``rotary_embedding_dim`` channels): onnxruntime cannot run it."""

    def __init__(self) -> None:
        super().__init__("UnfusedRotaryEmbedding")

    def pattern(self, op: Any, x: Any, cos: Any, sin: Any) -> Any:
        return op.RotaryEmbedding(x, cos, sin, _domain=INTERMEDIATE_DOMAIN, _outputs=["y"])

    def rewrite(self, op: Any, x: ir.Value, cos: ir.Value, sin: ir.Value, y: ir.Value) -> Any:
        width = value_facts.producer_attr_int(y, "rotary_embedding_dim", 0)
        head = value_facts.static_dim(x, 3)
        if not width or width == head:
            return _rotate(op, x, cos, sin, value_facts.static_dim(cos, 3) or 0)
        kept = op.Slice(
            x,
            op.Constant(value_ints=[0]),
            op.Constant(value_ints=[width]),
            op.Constant(value_ints=[-1]),
        )
        passed = op.Slice(
            x,
            op.Constant(value_ints=[width]),
            op.Constant(value_ints=[END]),
            op.Constant(value_ints=[-1]),
        )
        return op.Concat(_rotate(op, kept, cos, sin, width), passed, axis=-1)


def _rotate(op: Any, x: Any, cos: ir.Value, sin: ir.Value, width: int) -> Any:
    first, second = op.Split(x, op.Constant(value_ints=[width // 2] * 2), axis=-1, _outputs=2)
    rotated = op.Concat(op.Neg(second), first, axis=-1)
    return op.Add(op.Mul(x, cos), op.Mul(rotated, sin))


rotary_embedding_rules = RewriteRuleSet(
    [RotaryEmbeddingFusion.rule(), RotaryEmbeddingFusion.rule(split=True)], commute=True
)
partial_embedding_rules = RewriteRuleSet(
    [
        PartialRotaryEmbeddingFusion.rule(split=split, contrib=contrib)
        for contrib in (False, True)
        for split in (False, True)
    ]
)
unfused_rotary_rules = RewriteRuleSet([UnfusedRotaryEmbedding.rule()])


fuse_rotary_embedding = fuse_function(
    rotary_embedding_rules,
    """Fuse every full rotary embedding of ``model`` into an intermediate RotaryEmbedding
    (in place); the number fused.""",
)
fuse_partial_rotary_embedding = fuse_function(
    partial_embedding_rules,
    """Turn intermediate rotary embeddings of a slice, concatenated with the rest, into
    partial ones (``rotary_embedding_dim``).""",
)


def restore_unfused_rotary(model: ir.Model) -> int:
    """Expand the intermediate rotary embeddings no later fusion completed back into ONNX
    ops, so that onnxruntime runs the model; the number expanded. Dead nodes are removed
    first (the fusions leave the nodes they replaced for the pass to remove)."""
    common.RemoveUnusedNodesPass()(model)
    return unfused_rotary_rules.apply_to_model(model)


__all__ = [
    "PartialRotaryEmbeddingFusion",
    "RotaryEmbeddingFusion",
    "UnfusedRotaryEmbedding",
    "fuse_partial_rotary_embedding",
    "fuse_rotary_embedding",
    "partial_embedding_rules",
    "restore_unfused_rotary",
    "rotary_embedding_rules",
    "unfused_rotary_rules",
]
