"""GroupQueryAttention whose query, key and value are three consecutive slices of one
packed projection (``packed[..., :Hq*D]``, ``packed[..., Hq*D:(Hq+Hkv)*D]``, the rest;
Phi-3's ``qkv_proj``) to GroupQueryAttention on the packed tensor itself (key and value
omitted), which its kernels split."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.ort_fusions._fusion_ops import MS_DOMAIN
from onnxscript.rewriter.pattern import MatchResult, RewriteRuleClassBase, RewriteRuleSet

_OUTPUTS = ["gqa_output", "present_key", "present_value"]


class PackedQKVForGQAFusion(RewriteRuleClassBase):
    """``GroupQueryAttention(packed[q], packed[k], packed[v], ...)`` to
    ``GroupQueryAttention(packed, None, None, ...)`` (same attributes and other inputs)."""

    def __init__(self) -> None:
        super().__init__("PackedQKVForGQA")

    def pattern(self, op: Any, packed_qkv: Any) -> Any:
        query = op.Slice(packed_qkv, _allow_other_inputs=True, _outputs=["query_sliced"])
        key = op.Slice(packed_qkv, _allow_other_inputs=True, _outputs=["key_sliced"])
        value = op.Slice(packed_qkv, _allow_other_inputs=True, _outputs=["value_sliced"])
        return op.GroupQueryAttention(
            query,
            key,
            value,
            _allow_other_inputs=True,
            _domain=MS_DOMAIN,
            _outputs=list(_OUTPUTS),
        )

    def check(
        self,
        context: Any,
        packed_qkv: ir.Value,
        query_sliced: ir.Value,
        key_sliced: ir.Value,
        value_sliced: ir.Value,
        gqa_output: ir.Value,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        node = gqa_output.producer()
        assert node is not None
        heads = node.attributes.get_int("num_heads", 0)
        kv_heads = node.attributes.get_int("kv_num_heads", 0)
        width = value_facts.static_dim(packed_qkv, -1)
        if value_facts.rank(packed_qkv) != 3 or width is None or heads <= 0 or kv_heads <= 0:
            return result.fail("the packed value's width or the heads are not known", packed_qkv)
        if width % (heads + 2 * kv_heads):
            return result.fail("the packed width is not (heads + 2 kv_heads) * head", packed_qkv)
        head = width // (heads + 2 * kv_heads)
        q_end, k_end = heads * head, (heads + kv_heads) * head
        parts = ((query_sliced, 0, q_end), (key_sliced, q_end, k_end), (value_sliced, k_end, width))
        for sliced, start, end in parts:
            if _last_axis_range(sliced, width) != (start, end):
                return result.fail(f"not the slice [{start}:{end}] of the last axis", sliced)
        return result

    def rewrite(self, op: Any, packed_qkv: ir.Value, gqa_output: ir.Value, **_: Any) -> Any:
        node = gqa_output.producer()
        assert node is not None
        attributes = {name: attr.value for name, attr in node.attributes.items()}
        return op.GroupQueryAttention(
            packed_qkv,
            None,
            None,
            *node.inputs[3:],
            _domain=MS_DOMAIN,
            _outputs=len(_OUTPUTS),
            **attributes,
        )


def _last_axis_range(sliced: ir.Value, width: int) -> tuple[int, int] | None:
    """``(start, end)`` (clamped to ``width``) of the Slice computing ``sliced`` when it
    slices only the last axis of a 3-D value, with step 1; None otherwise."""
    node = sliced.producer()
    assert node is not None
    inputs = list(node.inputs) + [None] * (5 - len(node.inputs))
    starts, ends = value_facts.constant_ints(inputs[1]), value_facts.constant_ints(inputs[2])
    axes = value_facts.constant_ints(inputs[3]) if inputs[3] is not None else [0, 1, 2]
    steps = value_facts.constant_ints(inputs[4]) if inputs[4] is not None else None
    if starts is None or ends is None or axes is None or len(starts) != 1 or len(ends) != 1:
        return None
    if axes not in ([2], [-1]) or (inputs[4] is not None and steps != [1]):
        return None

    def clamp(index: int) -> int:
        return max(0, min(width, index + width if index < 0 else index))

    return clamp(starts[0]), clamp(ends[0])


packed_qkv_for_gqa_rule = PackedQKVForGQAFusion.rule()
fuse_qkv_gqa_rules = RewriteRuleSet([packed_qkv_for_gqa_rule])

fuse_qkv_gqa = fuse_function(
    fuse_qkv_gqa_rules,
    "Give GroupQueryAttention the packed projection its query, key and value are sliced "
    "from (in place); the number of ops changed.",
    after=common.RemoveUnusedNodesPass(),
)

__all__ = [
    "PackedQKVForGQAFusion",
    "fuse_qkv_gqa",
    "fuse_qkv_gqa_rules",
    "packed_qkv_for_gqa_rule",
]
