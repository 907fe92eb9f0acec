"""An intermediate SDPA of grouped heads (fewer key / value heads) under a causal mask,
with its projections' reshapes, to ``com.microsoft::GroupQueryAttention``, which keeps
the heads grouped instead of repeating them.

GroupQueryAttention is always causal and reads padding as right padding from
``seqlens_k``; here every row is given its full length (``seqlens_k = total - 1``) and the
model's own mask (padding on either side and causality) goes in as ``attention_bias``,
so left-padded batches give the same outputs. The fusion is refused:

* when the mask is not recognisably causal (``LessOrEqual`` of key positions ``[..., 1,
  L]`` and query positions ``[..., S, 1]`` under Ands): the op would add causality;
* with a KV cache unless the batch or the new sequence length is statically 1:
  onnxruntime's CPU kernel rejects a past with ``batch > 1`` and ``sequence > 1``
  (measured with onnxruntime 1.32), which the tiny Llama's test inputs have.

The rotary embedding stays a separate op (``do_rotary=0``): the op's own rotation takes
positions from ``seqlens_k``, not from the model's position ids."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions import cpu_kernels
from onnxscript.rewriter.ort_fusions._fusion_ops import DOMAIN, MS_DOMAIN
from onnxscript.rewriter.ort_fusions.mha import projection_of, to_bsd
from onnxscript.rewriter.ort_fusions.sdpa_via_mha import (
    attention_bias,
    scale_attributes,
    zero_masked_rows,
)
from onnxscript.rewriter.rules.fusion.attention_parts import cache_parts


class GroupQueryAttention(RewriteRuleClassBase):
    """``Reshape(Transpose(SDPA(q, k, v, mask), [0, 2, 1, 3]), shape)`` of grouped heads
    to GroupQueryAttention (with ``past_key`` / ``past_value`` for a KV cache)."""

    def __init__(self) -> None:
        super().__init__("GQA")

    def pattern(self, op: Any, q: Any, k: Any, v: Any, mask: Any, shape: Any) -> Any:
        y = op.SDPA(q, k, v, mask, _domain=DOMAIN, _outputs=["y"])
        return op.Reshape(op.Transpose(y, perm=[0, 2, 1, 3]), shape)

    def check(
        self, context: Any, q: ir.Value, k: ir.Value, v: ir.Value, mask: ir.Value, y: ir.Value
    ) -> MatchResult:
        result = MatchResult()
        heads = value_facts.producer_attr_int(y, "num_heads", 0)
        kv_heads = value_facts.producer_attr_int(y, "kv_num_heads", 0)
        if not 0 < kv_heads < heads:
            return result.fail("the heads are not grouped", y)
        head_size = value_facts.static_dim(q, 3)
        if head_size is None or value_facts.static_dim(v, 3) != head_size:
            return result.fail("q and v do not have the same known head size", [q, v])
        refused = cpu_kernels.group_query_attention(
            value_facts.tensor_dtype(q), num_heads=heads, kv_num_heads=kv_heads, head_size=head_size
        )
        if refused is not None:
            return result.fail(refused, q)
        if not is_causal(mask):
            return result.fail("the mask is not recognisably causal", mask)
        parts = _new_keys_values(k, v)
        if parts is None:
            return result.fail("k and v are not projections, or a KV cache of them", [k, v])
        if parts[2] is not None:
            batch, sequence = value_facts.static_dim(q, 0), value_facts.static_dim(q, 2)
            refused = cpu_kernels.group_query_attention_past(batch, sequence)
            if refused is not None:
                return result.fail(refused, q)
        return result

    def rewrite(
        self,
        op: Any,
        q: ir.Value,
        k: ir.Value,
        v: ir.Value,
        mask: ir.Value,
        y: ir.Value,
        shape: ir.Value,
    ) -> Any:
        heads = value_facts.producer_attr_int(y, "num_heads", 0)
        kv_heads = value_facts.producer_attr_int(y, "kv_num_heads", 0)
        head_size = value_facts.static_dim(q, 3)
        assert head_size is not None
        parts = _new_keys_values(k, v)
        assert parts is not None
        new_k, new_v, past_k, past_v = parts
        query = to_bsd(op, q, heads * head_size)
        key = to_bsd(op, new_k, kv_heads * head_size)
        value = to_bsd(op, new_v, kv_heads * head_size)
        # lengths from values that stay (the cache Concat, the 3-D projections)
        total = (
            op.Shape(k, start=2, end=3) if past_k is not None else op.Shape(value, start=1, end=2)
        )
        batch = op.Shape(query, start=0, end=1)
        seqlens = op.Expand(op.Sub(total, op.Constant(value_ints=[1])), batch)
        seqlens = op.Cast(seqlens, to=ir.DataType.INT32)
        total = op.Cast(op.Squeeze(total, op.Constant(value_ints=[0])), to=ir.DataType.INT32)
        node = y.producer()
        assert node is not None
        out, _, _ = op.GroupQueryAttention(
            query,
            key,
            value,
            past_k,
            past_v,
            seqlens,
            total,
            None,
            None,
            None,
            attention_bias(op, mask, y),
            num_heads=heads,
            kv_num_heads=kv_heads,
            **scale_attributes(y),
            _domain=MS_DOMAIN,
            _outputs=3,
        )
        out = zero_masked_rows(op, out, mask, y, keep_heads_axis=False)
        if value_facts.constant_ints(shape) == [0, 0, heads * head_size]:
            return out
        return op.Reshape(out, shape)


def _new_keys_values(
    k: ir.Value, v: ir.Value
) -> tuple[ir.Value, ir.Value, ir.Value | None, ir.Value | None] | None:
    """The new keys and values (4-D projections, keys maybe rotated) and the past ones
    when ``k`` and ``v`` are a KV-cache Concat of them; None for anything else."""
    k_parts, v_parts = cache_parts(k), cache_parts(v)
    if k_parts is not None and v_parts is not None:
        (past_k, new_k), (past_v, new_v) = k_parts, v_parts
        if projection_of(new_k) is None or projection_of(new_v) is None:
            return None
        return new_k, new_v, past_k, past_v
    if projection_of(k) is None or projection_of(v) is None:
        return None
    return k, v, None, None


def is_causal(mask: ir.Value, depth: int = 3) -> bool:
    """Whether ``mask`` is a boolean ``LessOrEqual(key_positions [..., 1, L],
    query_positions [..., S, 1])``, maybe under Ands with other masks (padding)."""
    node = mask.producer()
    if node is None or depth < 0:
        return False
    if node.op_type == "LessOrEqual":
        keys, queries = node.inputs
        if keys is None or queries is None:
            return False
        return value_facts.static_dim(keys, -2) == 1 and value_facts.static_dim(queries, -1) == 1
    if node.op_type == "And":
        return any(x is not None and is_causal(x, depth - 1) for x in node.inputs)
    return False


gqa_rules = RewriteRuleSet([GroupQueryAttention.rule()])


fuse_gqa = fuse_function(
    gqa_rules,
    "Fuse the intermediate SDPAs of grouped heads under a causal mask into "
    "GroupQueryAttention (in place); the number fused. Run it before the "
    "MultiHeadAttention fusions.",
)


__all__ = ["GroupQueryAttention", "fuse_gqa", "gqa_rules", "is_causal"]
