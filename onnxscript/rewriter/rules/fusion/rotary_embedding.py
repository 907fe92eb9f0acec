"""Rotary embeddings from transformers' ``apply_rotary_pos_emb`` as torch.onnx exports
it: ``x * cos + rotate_half(x) * sin`` where ``rotate_half(x)`` is ``Concat(-x[...,
d/2:], x[..., :d/2])`` (halves by two Slices or one Split) on 4-D ``[batch, heads, seq,
head_dim]`` inputs; then the partial form (only the first ``rotary_embedding_dim``
channels rotated, the rest concatenated back).

Written once for both targets (:mod:`.targets`); the pattern and the checks of ``x`` are
shared, the replacement (and what it needs of cos and sin) is the target's:

* ``"onnx"``: opset 23's ``RotaryEmbedding(x, cos_cache, sin_cache)`` takes the
  ``[batch, seq, head_dim / 2]`` tables, so cos and sin must be ``Unsqueeze(Cos|Sin(
  Concat(freqs, freqs)), [1])`` of the angles ``freqs`` (as transformers computes them);
* ``"onnxruntime"``: the intermediate ``ai.onnxruntime._fusion::RotaryEmbedding(x, cos,
  sin)`` on any ``[batch or 1, heads or 1, seq, head_dim]`` cos and sin, with the heads
  known; ``ort_fusions.cos_sin_cache`` completes it into onnxruntime's op."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.fusion.rotary_parts import cut_at, last_axis, parts, rotate_half
from onnxscript.rewriter.rules.fusion.targets import (
    INTERMEDIATE_DOMAIN,
    MS_DOMAIN,
    ONNX,
    FusionTarget,
)


class RotaryEmbeddingFusion(RewriteRuleClassBase):
    """Full rotation of 4-D ``[batch, heads, seq, head_dim]`` inputs, not interleaved, to
    ``target``'s RotaryEmbedding (the class's ``target`` unless given); ``split``: the
    halves are taken by one Split (as the default rules leave them) instead of two
    Slices."""

    target: FusionTarget = ONNX

    def __init__(self, split: bool = False, target: FusionTarget | None = None) -> None:
        if target is not None:
            self.target = target
        kind = "RotaryEmbedding23" if self.target == ONNX else "RotaryEmbedding"
        super().__init__(kind + ("Split" if split else ""))
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
        if not value_facts.is_float(x) or value_facts.rank(x) != 4:
            return result.fail("x is not a 4-D floating-point tensor", x)
        head = value_facts.static_dim(x, 3)
        if head is None or head % 2:
            return result.fail("the head size is not a known even number", x)
        if not cut_at(first, second, head // 2, head, self._split):
            return result.fail("the last axis is not cut in halves", x)
        if not last_axis(rotated, 4):
            return result.fail("the Concat is not along the last axis", rotated)
        if self.target == ONNX:
            if half_angles(cos, sin, x) is None:
                return result.fail(
                    "cos / sin are not Unsqueeze(Cos / Sin(Concat(a, a)), [1]) of angles "
                    "[batch or 1, seq, head_size / 2]",
                    [cos, sin],
                )
            return result
        if value_facts.static_dim(x, 1) is None:
            return result.fail("the number of heads is not known", x)
        for table in (cos, sin):
            if not _per_position(table, x):
                return result.fail(
                    "cos / sin are not [batch or 1, heads or 1, seq, head_dim]", table
                )
        return result

    def rewrite(self, op: Any, x: ir.Value, cos: ir.Value, sin: ir.Value, **_: Any) -> Any:
        if self.target == ONNX:
            freqs = half_angles(cos, sin, x)
            assert freqs is not None
            angles = freqs if value_facts.same_dim_at(freqs, 0, x, 0) else _batched(op, freqs, x)
            return op.RotaryEmbedding(x, op.Cos(angles), op.Sin(angles), interleaved=0)
        heads = value_facts.static_dim(x, 1)
        return op.RotaryEmbedding(
            x, cos, sin, interleaved=0, num_heads=heads, _domain=INTERMEDIATE_DOMAIN
        )


def half_angles(cos: ir.Value, sin: ir.Value, x: ir.Value) -> ir.Value | None:
    """The angles ``a`` (``[batch or 1, seq, head_size / 2]`` for ``x``) when ``cos`` and
    ``sin`` are ``Unsqueeze(Cos(Concat(a, a)), [1])`` and ``Unsqueeze(Sin(...), [1])`` of
    one ``a``; else None."""
    found = [_unsqueezed_of(table, op_type) for table, op_type in ((cos, "Cos"), (sin, "Sin"))]
    if found[0] is None or found[1] is None or found[0] is not found[1]:
        return None
    concat = found[0].producer()
    if concat is None or concat.op_type != "Concat" or len(concat.inputs) != 2:
        return None
    freqs = concat.inputs[0]
    if freqs is None or concat.inputs[1] is not freqs or not last_axis(found[0], 3):
        return None
    head, width = value_facts.static_dim(x, 3), value_facts.static_dim(freqs, 2)
    if value_facts.rank(freqs) != 3 or head is None or width is None or 2 * width != head:
        return None
    same_batch = value_facts.same_dim_at(freqs, 0, x, 0) or value_facts.static_dim(freqs, 0) == 1
    if not same_batch or not value_facts.same_dim_at(freqs, 1, x, 2):
        return None
    return freqs


def _unsqueezed_of(table: ir.Value, op_type: str) -> ir.Value | None:
    """``a`` when ``table`` is ``Unsqueeze(<op_type>(a), [1])``, else None."""
    unsqueeze = table.producer()
    if unsqueeze is None or unsqueeze.op_type != "Unsqueeze" or len(unsqueeze.inputs) != 2:
        return None
    if value_facts.constant_ints(unsqueeze.inputs[1]) != [1] or unsqueeze.inputs[0] is None:
        return None
    trig = unsqueeze.inputs[0].producer()
    if trig is None or trig.op_type != op_type or trig.domain not in ("", "ai.onnx"):
        return None
    return trig.inputs[0]


def _batched(op: Any, freqs: ir.Value, x: ir.Value) -> Any:
    """``freqs`` expanded to the batch of ``x`` (opset 23's op wants cos and sin caches
    of the input's batch; transformers computes them once for a batch of one)."""
    batch = op.Shape(x, start=0, end=1)
    return op.Expand(freqs, op.Concat(batch, op.Constant(value_ints=[1, 1]), axis=0))


def _per_position(table: ir.Value, x: ir.Value) -> bool:
    """Whether ``table`` is ``[batch or 1, heads or 1, seq, head_dim]`` for ``x``."""
    if value_facts.rank(table) != 4:
        return False
    if value_facts.static_dim(table, 1) != 1 and not value_facts.same_dim_at(table, 1, x, 1):
        return False
    batch = value_facts.same_dim_at(table, 0, x, 0) or value_facts.static_dim(table, 0) == 1
    return (
        batch
        and value_facts.same_dim_at(table, 2, x, 2)
        and value_facts.same_dim_at(table, 3, x, 3)
    )


class PartialRotaryEmbeddingFusion(RewriteRuleClassBase):
    """``Concat(RotaryEmbedding(x[..., :k], cos, sin), x[..., k:])`` to
    ``RotaryEmbedding(x, cos, sin, rotary_embedding_dim=k)``, of ``target``'s
    RotaryEmbedding (the class's ``target`` unless given); ``contrib`` (onnxruntime
    only): the same of ``com.microsoft``'s RotaryEmbedding with its position ids and
    caches (when the caches were made first, as 0.7's order of the fusions does)."""

    target: FusionTarget = ONNX

    def __init__(
        self, split: bool = False, contrib: bool = False, target: FusionTarget | None = None
    ) -> None:
        if target is not None:
            self.target = target
        kind = "PartialRotaryEmbedding" + ("23" if self.target == ONNX else "")
        super().__init__(kind + ("Split" if split else "") + ("MS" if contrib else ""))
        assert not (contrib and self.target == ONNX), "contrib ops are onnxruntime's"
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
        elif self.target == ONNX:
            rope = op.RotaryEmbedding(kept, cos, sin, _outputs=["rope"])
        else:
            rope = op.RotaryEmbedding(
                kept, cos, sin, _domain=INTERMEDIATE_DOMAIN, _outputs=["rope"]
            )
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
        head = value_facts.static_dim(x, 3) if value_facts.rank(x) == 4 else None
        done = value_facts.producer_attr_int(rope, "rotary_embedding_dim", 0)
        interleaved = value_facts.producer_attr_int(rope, "interleaved", 0)
        if head is None or done or interleaved:
            return result.fail("x is not 4-D with a known head size, or already partial", x)
        width = value_facts.static_dim(kept, 3)
        if width is None or not 0 < width < head or width % 2:
            return result.fail("the rotated part is not an even part of the head", kept)
        if not cut_at(kept, passed, width, head, self._split):
            return result.fail("the last axis is not cut in two at one place", x)
        if not last_axis(joined, 4):
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
        width = value_facts.static_dim(kept, 3)
        if self.target == ONNX:
            return op.RotaryEmbedding(x, cos, sin, interleaved=0, rotary_embedding_dim=width)
        heads = value_facts.static_dim(x, 1)
        if self._contrib:
            node = rope.producer()
            assert node is not None
            attributes = {name: attr.value for name, attr in node.attributes.items()}
            attributes.update(num_heads=heads, rotary_embedding_dim=width)
            return op.RotaryEmbedding(x, position_ids, cos, sin, _domain=MS_DOMAIN, **attributes)
        return op.RotaryEmbedding(
            x,
            cos,
            sin,
            interleaved=0,
            num_heads=heads,
            rotary_embedding_dim=width,
            _domain=INTERMEDIATE_DOMAIN,
        )


class RotaryEmbedding23Fusion(RotaryEmbeddingFusion):
    """:class:`RotaryEmbeddingFusion` to opset 23's RotaryEmbedding (0.7.2's name)."""

    target: FusionTarget = ONNX


class PartialRotaryEmbedding23Fusion(PartialRotaryEmbeddingFusion):
    """:class:`PartialRotaryEmbeddingFusion` of opset 23's RotaryEmbedding (0.7.2's name)."""

    target: FusionTarget = ONNX


rotary_embedding_rules = [RotaryEmbedding23Fusion.rule(), RotaryEmbedding23Fusion.rule(split=True)]
partial_embedding_rules = [
    PartialRotaryEmbedding23Fusion.rule(),
    PartialRotaryEmbedding23Fusion.rule(split=True),
]
rotary_embedding_ruleset = RewriteRuleSet(rotary_embedding_rules, commute=True)
partial_embedding_ruleset = RewriteRuleSet(partial_embedding_rules)


# The cos / sin tables of the query's and the key's rotation are shared: the nodes
# computing them go once both are fused, with the rest of the dead nodes.
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
    "PartialRotaryEmbeddingFusion",
    "RotaryEmbedding23Fusion",
    "RotaryEmbeddingFusion",
    "fuse_partial_rotary_embedding",
    "fuse_rotary_embedding",
    "half_angles",
    "partial_embedding_rules",
    "rotary_embedding_rules",
]
