"""Attention (opset 23) with grouped-query heads and a KV cache, from what torch.onnx
writes for transformers' attention: keys and values repeated to the query's heads
(``repeat_kv``: Unsqueeze, Expand, Reshape) before ``Attention`` are passed with their own
heads (Attention-23 groups the query heads itself), and past keys and values concatenated
to the new ones become Attention's ``past_key`` / ``past_value`` inputs with the
concatenations as its ``present_key`` / ``present_value`` outputs.

onnxruntime's attention fusions (``ort_fusions.sdpa``, ``gqa``, ``mha``) start from the
decomposed attention (MatMul, Softmax) rather than from this op, so they are fusions of
another pattern; what both recognise around an attention, ``repeat_kv`` and a KV-cache
Concat, is written once in :mod:`.attention_parts`."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.fusion.attention_parts import cache_parts, grouped_source


def _repeated(op: Any, kv: Any, name: str) -> Any:
    """``repeat_kv(kv)``: ``[B, Hkv, S, D]`` to ``[B, Hkv * n, S, D]`` (the pattern of
    what :func:`.attention_parts.grouped_source` recognises, so that the match removes
    these nodes)."""
    expanded = op.Expand(
        op.Unsqueeze(kv, f"{name}_axes"), _outputs=[f"{name}_expanded"], _allow_other_inputs=True
    )
    return op.Reshape(expanded, _allow_other_inputs=True, _outputs=[f"{name}_repeated"])


class OnnxGroupQueryAttention(RewriteRuleClassBase):
    """``Attention(q, repeat_kv(k), repeat_kv(v), ...)`` to ``Attention(q, k, v, ...)``."""

    def __init__(self) -> None:
        super().__init__("ONNXGQA")

    def pattern(self, op: Any, q: Any, k: Any, v: Any) -> Any:
        return op.Attention(
            q,
            _repeated(op, k, "k"),
            _repeated(op, v, "v"),
            _allow_other_inputs=True,
            _outputs=["y"],
        )

    def check(
        self, context: Any, q: ir.Value, k: ir.Value, v: ir.Value, **bindings: Any
    ) -> MatchResult:
        result = MatchResult()
        node = bindings["y"].producer()
        if any(x is not None for x in node.inputs[4:]):
            return result.fail("the attention has past keys or values already", node)
        heads = value_facts.static_dim(q, 1) if value_facts.rank(q) == 4 else None
        if heads is None:
            return result.fail("the query's heads are not known", q)
        for kv, name in ((k, "k"), (v, "v")):
            source, groups = grouped_source(bindings[f"{name}_repeated"], heads)
            if source is not kv or heads % groups:
                return result.fail("the kv heads are not repeated to the query's", kv)
        return result

    def rewrite(self, op: Any, q: ir.Value, k: ir.Value, v: ir.Value, y: ir.Value, **_: Any) -> Any:
        node = y.producer()
        assert node is not None
        rest = list(node.inputs[3:4])
        return op.Attention(q, k, v, *rest, **dict(node.attributes))


class KeyValueCacheFusion(RewriteRuleClassBase):
    """``Attention(q, Concat(past_k, k), Concat(past_v, v), mask)`` whose concatenations
    are the model's present keys and values to ``Attention(q, k, v, mask, past_k,
    past_v)`` with those as its ``present_key`` / ``present_value`` outputs."""

    def __init__(self) -> None:
        super().__init__("AttentionKVCache23")

    def pattern(self, op: Any, q: Any, k: Any, v: Any, past_k: Any, past_v: Any) -> Any:
        all_k = op.Concat(past_k, k, _outputs=["all_k"])
        all_v = op.Concat(past_v, v, _outputs=["all_v"])
        y = op.Attention(q, all_k, all_v, _allow_other_inputs=True, _outputs=["y"])
        return y, all_k, all_v

    def check(
        self,
        context: Any,
        q: ir.Value,
        k: ir.Value,
        v: ir.Value,
        past_k: ir.Value,
        past_v: ir.Value,
        all_k: ir.Value,
        all_v: ir.Value,
        y: ir.Value,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        node = y.producer()
        assert node is not None
        if any(x is not None for x in node.inputs[4:]):
            return result.fail("the attention has past keys or values already", node)
        if node.attributes.get_int("is_causal", 0):
            # Causal masking is aligned to the end of the past: it would change meaning.
            return result.fail("a causal attention cannot take the cache as its past", node)
        for value in (q, k, v, past_k, past_v):
            if value_facts.rank(value) != 4:
                return result.fail("the attention's inputs are not 4-D", value)
        for concat in (all_k, all_v):
            if cache_parts(concat) is None:
                return result.fail("the cache is not concatenated along the sequence", concat)
        if value_facts.static_dim(k, 1) is None or not value_facts.same_dim_at(k, 1, past_k, 1):
            return result.fail("past and new keys do not have the same known heads", past_k)
        return result

    def rewrite(
        self,
        op: Any,
        q: ir.Value,
        k: ir.Value,
        v: ir.Value,
        past_k: ir.Value,
        past_v: ir.Value,
        y: ir.Value,
        **_: Any,
    ) -> Any:
        node = y.producer()
        assert node is not None
        mask = node.inputs[3] if len(node.inputs) > 3 else None
        return op.Attention(q, k, v, mask, past_k, past_v, _outputs=3, **dict(node.attributes))


gqa_rules = [OnnxGroupQueryAttention.rule()]
kv_cache_rules = [KeyValueCacheFusion.rule()]
gqa_ruleset = RewriteRuleSet(gqa_rules)
kv_cache_ruleset = RewriteRuleSet(kv_cache_rules)


fuse_gqa = fuse_function(
    [gqa_ruleset, kv_cache_ruleset],
    "Pass grouped keys and values to Attention unrepeated, then fold the KV-cache "
    "concatenations into it (in place); the number of rewrites.",
)


__all__ = [
    "KeyValueCacheFusion",
    "OnnxGroupQueryAttention",
    "fuse_gqa",
    "gqa_rules",
    "kv_cache_rules",
]
