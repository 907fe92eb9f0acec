"""Rotary embeddings as torch.onnx exports transformers' ``apply_rotary_pos_emb``:
``x * cos + rotate_half(x) * sin`` with ``rotate_half(x) = Concat(-x[..., d/2:],
x[..., :d/2])`` (halves by two Slices or one Split) to an intermediate
``ai.onnxruntime._fusion::RotaryEmbedding(x, cos, sin)``. onnxruntime's
``com.microsoft::RotaryEmbedding`` takes position ids and cos / sin caches instead:
:mod:`.cos_sin_cache` completes the fusion, and :func:`restore_unfused_rotary` expands the
intermediate ops it could not complete back into the original arithmetic."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions._fusion_ops import DOMAIN, MS_DOMAIN
from onnxscript.rewriter.rules.fusion import facts
from onnxscript.rewriter.rules.fusion.rotary_parts import END, cut_at, parts, rotate_half


class RotaryEmbeddingFusion(RewriteRuleClassBase):
    """Full rotation of 4-D ``[batch, heads, seq, head_dim]`` inputs, halves not
    interleaved; ``cos`` / ``sin`` any ``[batch or 1, 1, seq, head_dim]`` values."""

    def __init__(self, split: bool = False) -> None:
        super().__init__("RotaryEmbeddingSplit" if split else "RotaryEmbedding")
        self._split = split

    def pattern(
        self, op: Any, x: Any, cos: Any, sin: Any, s1: Any, e1: Any, s2: Any, e2: Any
    ) -> Any:
        rotated = rotate_half(op, x, (s1, e1, s2, e2), self._split)
        return op.Add(op.Mul(x, cos), op.Mul(rotated, sin))

    def check(
        self,
        context: Any,
        x: ir.Value,
        cos: ir.Value,
        sin: ir.Value,
        first: ir.Value,
        second: ir.Value,
        rotated: ir.Value,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        if not facts.is_float(x) or facts.rank(x) != 4 or facts.static_dim(x, 1) is None:
            return result.fail("x is not a 4-D floating-point tensor with known heads", x)
        head = facts.static_dim(x, 3)
        if head is None or head % 2:
            return result.fail("the head size is not a known even number", x)
        if not cut_at(first, second, head // 2, head, self._split):
            return result.fail("the last axis is not cut in halves", x)
        if facts.node_attr_int(rotated, "axis", 0) not in (3, -1):
            return result.fail("the Concat is not along the last axis", rotated)
        for table in (cos, sin):
            if not _per_position(table, x):
                return result.fail(
                    "cos / sin are not [batch or 1, heads or 1, seq, head_dim]", table
                )
        return result

    def rewrite(self, op: Any, x: ir.Value, cos: ir.Value, sin: ir.Value, **_: Any) -> Any:
        heads = facts.static_dim(x, 1)
        return op.RotaryEmbedding(x, cos, sin, interleaved=0, num_heads=heads, _domain=DOMAIN)


def _per_position(table: ir.Value, x: ir.Value) -> bool:
    """Whether ``table`` is ``[batch or 1, heads or 1, seq, head_dim]`` for ``x``."""
    if facts.rank(table) != 4:
        return False
    if facts.static_dim(table, 1) != 1 and not facts.same_dim(table, 1, x, 1):
        return False
    batch = facts.same_dim(table, 0, x, 0) or facts.static_dim(table, 0) == 1
    return batch and facts.same_dim(table, 2, x, 2) and facts.same_dim(table, 3, x, 3)


class PartialRotaryEmbeddingFusion(RewriteRuleClassBase):
    """``Concat(RotaryEmbedding(x[..., :k], cos, sin), x[..., k:])`` (intermediate ops)
    to ``RotaryEmbedding(x, cos, sin, rotary_embedding_dim=k)``; ``contrib``: the same
    of ``com.microsoft``'s RotaryEmbedding with its position ids and caches (when the
    caches were made first, as 0.7's order of the fusions does)."""

    def __init__(self, split: bool = False, contrib: bool = False) -> None:
        name = "PartialRotaryEmbedding" + ("Split" if split else "") + ("MS" if contrib else "")
        super().__init__(name)
        self._split = split
        self._contrib = contrib

    def pattern(
        self,
        op: Any,
        x: Any,
        cos: Any,
        sin: Any,
        s1: Any,
        e1: Any,
        s2: Any,
        e2: Any,
        position_ids: Any,
    ) -> Any:
        kept, passed = parts(op, x, (s1, e1, s2, e2), self._split, ("kept", "passed"))
        if self._contrib:
            rope = op.RotaryEmbedding(
                kept, position_ids, cos, sin, _domain=MS_DOMAIN, _outputs=["rope"]
            )
        else:
            rope = op.RotaryEmbedding(kept, cos, sin, _domain=DOMAIN, _outputs=["rope"])
        return op.Concat(rope, passed, _outputs=["joined"])

    def check(
        self,
        context: Any,
        x: ir.Value,
        kept: ir.Value,
        passed: ir.Value,
        rope: ir.Value,
        joined: ir.Value,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        head = facts.static_dim(x, 3) if facts.rank(x) == 4 else None
        if head is None or facts.node_attr_int(rope, "rotary_embedding_dim", 0):
            return result.fail("x is not 4-D with a known head size, or already partial", x)
        width = facts.static_dim(kept, 3)
        if width is None or not 0 < width < head or width % 2:
            return result.fail("the rotated part is not an even part of the head", kept)
        if not cut_at(kept, passed, width, head, self._split):
            return result.fail("the last axis is not cut in two at one place", x)
        if facts.node_attr_int(joined, "axis", 0) not in (3, -1):
            return result.fail("the Concat is not along the last axis", joined)
        return result

    def rewrite(
        self,
        op: Any,
        x: ir.Value,
        cos: ir.Value,
        sin: ir.Value,
        kept: ir.Value,
        rope: ir.Value,
        position_ids: ir.Value | None = None,
        **_: Any,
    ) -> Any:
        if self._contrib:
            node = rope.producer()
            assert node is not None
            attributes = {name: attr.value for name, attr in node.attributes.items()}
            attributes["num_heads"] = facts.static_dim(x, 1)
            attributes["rotary_embedding_dim"] = facts.static_dim(kept, 3)
            return op.RotaryEmbedding(x, position_ids, cos, sin, _domain=MS_DOMAIN, **attributes)
        return op.RotaryEmbedding(
            x,
            cos,
            sin,
            interleaved=0,
            num_heads=facts.static_dim(x, 1),
            rotary_embedding_dim=facts.static_dim(kept, 3),
            _domain=DOMAIN,
        )


class UnfusedRotaryEmbedding(RewriteRuleClassBase):
    """An intermediate RotaryEmbedding left over back to ``x * cos + rotate_half(x) *
    sin`` (on the first ``rotary_embedding_dim`` channels): onnxruntime cannot run it."""

    def __init__(self) -> None:
        super().__init__("UnfusedRotaryEmbedding")

    def pattern(self, op: Any, x: Any, cos: Any, sin: Any) -> Any:
        return op.RotaryEmbedding(x, cos, sin, _domain=DOMAIN, _outputs=["y"])

    def rewrite(self, op: Any, x: ir.Value, cos: ir.Value, sin: ir.Value, y: ir.Value) -> Any:
        width = facts.node_attr_int(y, "rotary_embedding_dim", 0)
        head = facts.static_dim(x, 3)
        if not width or width == head:
            return _rotate(op, x, cos, sin, facts.static_dim(cos, 3) or 0)
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
