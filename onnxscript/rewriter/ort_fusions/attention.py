"""MultiHeadAttention whose query, key and value are the three equal parts of one packed
projection (GPT-2's ``c_attn``: ``Split(x @ W [+ b], 3, axis=-1)``, maybe computed as a
2-D Gemm between Reshapes) to ``com.microsoft::Attention(x, W, b)``, which projects
itself. Only self-attention without KV cache is fused (no past / present)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions._fusion_ops import MS_DOMAIN
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.rules.fusion import facts


class AttentionFusion(RewriteRuleClassBase):
    """``MultiHeadAttention(*Split(packed, 3), <no bias>, <no key mask>, bias)`` with
    ``packed`` a projection of ``x`` (read by :func:`packed_projection`) to Attention."""

    def __init__(self) -> None:
        super().__init__("Attention")

    def pattern(self, op: Any, packed: Any) -> Any:
        q, k, v = op.Split(packed, _allow_other_inputs=True, _outputs=["q", "k", "v"])
        return op.MultiHeadAttention(
            q, k, v, _allow_other_inputs=True, _domain=MS_DOMAIN, _outputs=["out"]
        )

    def check(
        self, context: Any, packed: ir.Value, q: ir.Value, out: ir.Value, **_: Any
    ) -> MatchResult:
        result = MatchResult()
        node, split = out.producer(), q.producer()
        assert node is not None and split is not None
        extra = list(node.inputs[3:5]) + list(node.inputs[6:])
        if any(x is not None for x in extra) or len(node.outputs) != 1:
            return result.fail("the op has a bias, key mask, past or present", out)
        if split.attributes.get_int("axis", 0) not in (2, -1) or facts.rank(packed) != 3:
            return result.fail("the Split is not along the last axis of a 3-D value", q)
        hidden = facts.static_dim(packed, 2)
        sizes = facts.constant_ints(split.inputs[1]) if len(split.inputs) > 1 else None
        if hidden is None or hidden % 3 or (sizes is not None and sizes != [hidden // 3] * 3):
            return result.fail("the Split does not make three equal parts", q)
        if packed_projection(packed) is None:
            return result.fail("the packed value is not a projection of a 3-D input", packed)
        return result

    def rewrite(self, op: Any, packed: ir.Value, out: ir.Value, **_: Any) -> Any:
        node = out.producer()
        assert node is not None
        found = packed_projection(packed)
        assert found is not None
        x, weight, bias = found
        if bias is None:
            width = facts.static_dim(packed, 2)
            assert width is not None and weight.dtype is not None
            zeros = np.zeros(width, dtype=weight.dtype.numpy())
            bias = op.Constant(value=ir.tensor(zeros))
        attention_bias = node.inputs[5] if len(node.inputs) > 5 else None
        attrs = {key: attr.value for key, attr in node.attributes.items()}
        return op.Attention(x, weight, bias, None, None, attention_bias, _domain=MS_DOMAIN, **attrs)


def packed_projection(packed: ir.Value) -> tuple[ir.Value, ir.Value, ir.Value | None] | None:
    """``(x, W, b)`` when ``packed [B, S, n]`` is ``x @ W [+ b]`` with ``x [B, S, m]``
    and constant ``W [m, n]`` (``b [n]``), directly or as ``Reshape(Gemm(Reshape(x,
    [-1, m]), W[, b]), [B, S, n])``."""
    node = packed.producer()
    bias = None
    if node is not None and node.op_type == "Add" and node.inputs[1] is not None:
        bias, node = node.inputs[1], _producer(node.inputs[0])
        if ir.convenience.get_const_tensor(bias) is None or facts.rank(bias) != 1:
            return None
    if node is not None and node.op_type == "Reshape":
        return _flattened_gemm(packed, node) if bias is None else None
    if node is None or node.op_type != "MatMul" or node.inputs[0] is None:
        return None
    x, weight = node.inputs[0], node.inputs[1]
    if weight is None or ir.convenience.get_const_tensor(weight) is None:
        return None
    same_rows = facts.same_dim(x, 0, packed, 0) and facts.same_dim(x, 1, packed, 1)
    return (x, weight, bias) if facts.rank(x) == 3 and same_rows else None


def _flattened_gemm(
    packed: ir.Value, reshape: ir.Node
) -> tuple[ir.Value, ir.Value, ir.Value | None] | None:
    """``Reshape(Gemm(Reshape(x, [-1, m]), W[, b]), [B, S, n])`` as ``(x, W, b)``."""
    gemm = _producer(reshape.inputs[0])
    if gemm is None or gemm.op_type != "Gemm" or gemm.inputs[0] is None:
        return None
    attrs = gemm.attributes
    plain = attrs.get_int("transA", 0) == 0 and attrs.get_int("transB", 0) == 0
    if not plain or attrs.get_float("alpha", 1.0) != 1.0 or attrs.get_float("beta", 1.0) != 1.0:
        return None
    weight = gemm.inputs[1]
    bias = gemm.inputs[2] if len(gemm.inputs) > 2 else None
    if weight is None or ir.convenience.get_const_tensor(weight) is None:
        return None
    if bias is not None and (
        ir.convenience.get_const_tensor(bias) is None or facts.rank(bias) != 1
    ):
        return None
    flatten = _producer(gemm.inputs[0])
    if flatten is None or flatten.op_type != "Reshape" or flatten.inputs[0] is None:
        return None
    x = flatten.inputs[0]
    same_rows = facts.same_dim(x, 0, packed, 0) and facts.same_dim(x, 1, packed, 1)
    if facts.rank(x) != 3 or not same_rows:
        return None
    return x, weight, bias


def _producer(value: ir.Value | None) -> ir.Node | None:
    return value.producer() if value is not None else None


attention_rules = RewriteRuleSet([AttentionFusion.rule()])


fuse_attention = fuse_function(
    attention_rules,
    "Fuse MultiHeadAttention on a packed QKV projection into Attention (in place); the "
    "number fused. Run it after the MultiHeadAttention fusions; the nodes they left "
    "unused are removed first (they still read the Split).",
    before=common.RemoveUnusedNodesPass(),
)


__all__ = ["AttentionFusion", "attention_rules", "fuse_attention", "packed_projection"]
