"""RotaryEmbedding (opset 23) from transformers' ``apply_rotary_pos_emb`` as torch.onnx
exports it: ``x * cos + rotate_half(x) * sin`` where ``rotate_half(x)`` is
``Concat(-x[..., d/2:], x[..., :d/2])`` and cos / sin are ``Unsqueeze(Cos|Sin(Concat(freqs,
freqs)), [1])`` of the ``[batch, seq, d/2]`` angles; then the partial form (only the first
``rotary_embedding_dim`` channels rotated, the rest concatenated back)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.fusion import facts
from onnxscript.rewriter.rules.fusion.rotary_parts import cut_at, parts, rotate_half


class RotaryEmbedding23Fusion(RewriteRuleClassBase):
    """Full rotation of 4-D ``[batch, heads, seq, head_dim]`` inputs, not interleaved; the
    halves taken by two Slices, or (``split``) by one Split, as the default rules leave
    them."""

    def __init__(self, split: bool = False) -> None:
        # The cos / sin nodes are shared by the query's and the key's rotation: the match
        # keeps every node and the dead ones are removed after fusing.
        super().__init__("RotaryEmbedding23", remove_nodes=False)
        self._split = split

    def pattern(
        self, op: Any, x: Any, freqs: Any, start1: Any, end1: Any, start2: Any, end2: Any
    ) -> Any:
        angles = op.Concat(freqs, freqs, _outputs=["angles"])
        cos = op.Unsqueeze(op.Cos(angles), [1])
        sin = op.Unsqueeze(op.Sin(angles), [1])
        rotated = rotate_half(op, x, (start1, end1, start2, end2), self._split)
        return op.Add(op.Mul(x, cos), op.Mul(rotated, sin))

    def check(
        self,
        context: Any,
        x: ir.Value,
        freqs: ir.Value,
        first: ir.Value,
        second: ir.Value,
        rotated: ir.Value,
        angles: ir.Value,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        if not facts.is_float(x) or facts.rank(x) != 4:
            return result.fail("x is not a 4-D floating-point tensor", x)
        head = facts.static_dim(x, 3)
        if head is None or head % 2:
            return result.fail("the head size is not a known even number", x)
        half = head // 2
        if not cut_at(first, second, half, head, self._split):
            return result.fail("the last axis is not cut in halves", x)
        if not (_last_axis(rotated, 4) and _last_axis(angles, 3)):
            return result.fail("a Concat is not along the last axis", rotated)
        if facts.rank(freqs) != 3 or facts.static_dim(freqs, 2) != half:
            return result.fail("the angles are not [batch, seq, head_size / 2]", freqs)
        if not (facts.same_dim(freqs, 0, x, 0) or facts.static_dim(freqs, 0) == 1):
            return result.fail("the angles' batch is neither the input's nor 1", freqs)
        if not facts.same_dim(freqs, 1, x, 2):
            return result.fail("the angles' sequence is not known to be the input's", freqs)
        return result

    def rewrite(self, op: Any, x: ir.Value, freqs: ir.Value, **_: Any) -> Any:
        angles = freqs if facts.same_dim(freqs, 0, x, 0) else _batched(op, freqs, x)
        return op.RotaryEmbedding(x, op.Cos(angles), op.Sin(angles), interleaved=0)


def _batched(op: Any, freqs: ir.Value, x: ir.Value) -> Any:
    """``freqs`` expanded to the batch of ``x`` (onnxruntime wants cos and sin caches of
    the input's batch; transformers computes them once for a batch of one)."""
    batch = op.Shape(x, start=0, end=1)
    return op.Expand(freqs, op.Concat(batch, op.Constant(value_ints=[1, 1]), axis=0))


class PartialRotaryEmbedding23Fusion(RewriteRuleClassBase):
    """``Concat(RotaryEmbedding(x[..., :k]), x[..., k:])`` to ``RotaryEmbedding(x,
    rotary_embedding_dim=k)``."""

    def __init__(self, split: bool = False) -> None:
        super().__init__(
            "PartialRotaryEmbedding23Split" if split else "PartialRotaryEmbedding23",
            remove_nodes=False,
        )
        self._split = split

    def pattern(
        self, op: Any, x: Any, cos: Any, sin: Any, s1: Any, e1: Any, s2: Any, e2: Any
    ) -> Any:
        kept, passed = parts(op, x, (s1, e1, s2, e2), self._split, ("kept", "passed"))
        rope = op.RotaryEmbedding(kept, cos, sin, _outputs=["rope"])
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
        node = rope.producer()
        assert node is not None
        done = node.attributes.get_int("rotary_embedding_dim", 0)
        if head is None or done or node.attributes.get_int("interleaved", 0):
            return result.fail("x is not 4-D with a known head size, or already partial", x)
        width = facts.static_dim(kept, 3)
        if width is None or not 0 < width < head or width % 2:
            return result.fail("the rotated part is not an even part of the head", kept)
        if not cut_at(kept, passed, width, head, self._split):
            return result.fail("the last axis is not cut in two at one place", x)
        if not _last_axis(joined, 4):
            return result.fail("the Concat is not along the last axis", joined)
        return result

    def rewrite(
        self, op: Any, x: ir.Value, cos: ir.Value, sin: ir.Value, kept: ir.Value, **_: Any
    ) -> Any:
        width = facts.static_dim(kept, 3)
        return op.RotaryEmbedding(x, cos, sin, interleaved=0, rotary_embedding_dim=width)


def _last_axis(value: ir.Value, rank: int) -> bool:
    node = value.producer()
    return node is not None and node.attributes.get_int("axis", 0) in (rank - 1, -1)


rotary_embedding_rules = [RotaryEmbedding23Fusion.rule(), RotaryEmbedding23Fusion.rule(split=True)]
partial_embedding_rules = [
    PartialRotaryEmbedding23Fusion.rule(),
    PartialRotaryEmbedding23Fusion.rule(split=True),
]
rotary_embedding_ruleset = RewriteRuleSet(rotary_embedding_rules, commute=True)
partial_embedding_ruleset = RewriteRuleSet(partial_embedding_rules)


# The rules keep their matched nodes (shared by the query's and the key's rotations);
# those left unused go once the model is rewritten.
fuse_rotary_embedding = fuse_function(
    rotary_embedding_ruleset,
    "Fuse every full rotary embedding of the model (in place); the number fused.",
    after=common.RemoveUnusedNodesPass(),
)
fuse_partial_rotary_embedding = fuse_function(
    partial_embedding_ruleset,
    "Turn rotary embeddings of a slice, concatenated with the rest, into partial ones.",
    after=common.RemoveUnusedNodesPass(),
)


__all__ = [
    "PartialRotaryEmbedding23Fusion",
    "RotaryEmbedding23Fusion",
    "fuse_partial_rotary_embedding",
    "fuse_rotary_embedding",
    "partial_embedding_rules",
    "rotary_embedding_rules",
]
