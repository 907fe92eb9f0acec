"""The intermediate SDPA ops no projection-aware fusion completed, to
``com.microsoft::MultiHeadAttention`` on their ``[batch, heads, seq, head]`` tensors: the
query made ``[batch, seq, heads * head]``, keys and values passed as 4-D (repeated for
grouped heads), the mask as an additive ``attention_bias``, and the output made 4-D
again. onnxruntime cannot run the intermediate op; after this no SDPA is left."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.rewriter.ort_fusions._fusion_ops import DOMAIN, MS_DOMAIN, apply_once
from onnxscript.rewriter.rule_class import RewriteRuleClassBase
from onnxscript.rewriter.rule_set import RewriteRuleSet
from onnxscript.rewriter.rules.fusion import facts


class SDPAViaMHA(RewriteRuleClassBase):
    """``SDPA(q, k, v[, mask])`` to MultiHeadAttention between reshapes."""

    def __init__(self, masked: bool) -> None:
        super().__init__("SDPAViaMHA" if masked else "SDPAViaMHANoMask")
        self._masked = masked

    def pattern(self, op: Any, q: Any, k: Any, v: Any, mask: Any) -> Any:
        inputs = [q, k, v, mask] if self._masked else [q, k, v]
        return op.SDPA(*inputs, _domain=DOMAIN, _outputs=["y"])

    def rewrite(
        self, op: Any, q: ir.Value, k: ir.Value, v: ir.Value, y: ir.Value, mask: Any = None
    ) -> Any:
        heads = facts.node_attr_int(y, "num_heads", 0)
        head_size = facts.static_dim(q, 3)
        assert head_size is not None
        query = op.Reshape(
            op.Transpose(q, perm=[0, 2, 1, 3]), op.Constant(value_ints=[0, 0, heads * head_size])
        )
        key, value = repeat_heads(op, k, heads), repeat_heads(op, v, heads)
        bias = attention_bias(op, mask, y) if mask is not None else None
        out = op.MultiHeadAttention(
            query,
            key,
            value,
            None,
            None,
            bias,
            num_heads=heads,
            scale=_scale_attr(y),
            _domain=MS_DOMAIN,
        )
        out4 = op.Transpose(
            op.Reshape(out, op.Constant(value_ints=[0, 0, heads, head_size])), perm=[0, 2, 1, 3]
        )
        return zero_masked_rows(op, out4, mask, y, keep_heads_axis=True)


def _scale_attr(y: ir.Value) -> float:
    node = y.producer()
    assert node is not None
    return node.attributes.get_float("scale", 1.0)


def repeat_heads(op: Any, x: ir.Value, heads: int) -> Any:
    """``x [B, kv, L, D]`` with each head repeated to ``heads`` (transformers'
    ``repeat_kv``); ``x`` itself when it has them already."""
    kv = facts.static_dim(x, 1)
    if kv is None or kv == heads:
        return x
    head_size = facts.static_dim(x, 3) or -1
    ones = op.Constant(value_ints=[1, 1, heads // kv, 1, 1])
    expanded = op.Expand(op.Unsqueeze(x, op.Constant(value_ints=[2])), ones)
    return op.Reshape(expanded, op.Constant(value_ints=[0, heads, -1, head_size]))


def attention_bias(op: Any, mask: ir.Value, y: ir.Value) -> Any:
    """The SDPA's mask as MultiHeadAttention's additive bias: a boolean mask to 0 where
    attending, -inf elsewhere (in the output's element type)."""
    node = y.producer()
    assert node is not None
    if node.attributes.get_string("mask_type", "none") != "bool":
        return mask
    dtype = y.dtype or ir.DataType.FLOAT
    zero = op.Constant(value=ir.tensor(np.array(0, dtype=dtype.numpy())))
    minus_inf = op.Constant(value=ir.tensor(np.array(-np.inf, dtype=dtype.numpy())))
    return op.Where(mask, zero, minus_inf)


def zero_masked_rows(
    op: Any, out: Any, mask: ir.Value | None, y: ir.Value, keep_heads_axis: bool
) -> Any:
    """``out`` with the rows of fully masked queries zeroed when the SDPA had the second
    Where (MultiHeadAttention makes NaN there); ``out`` is ``[B, H, S, D]``
    (``keep_heads_axis``) or ``[B, S, H * D]`` and the mask ``[B, 1, S, L]``."""
    node = y.producer()
    assert node is not None
    if mask is None or not node.attributes.get_int("zero_masked_rows", 0):
        return out
    seen = op.ReduceMax(
        op.Cast(mask, to=ir.DataType.INT32), op.Constant(value_ints=[-1]), keepdims=1
    )
    rows = op.Cast(seen, to=ir.DataType.BOOL)
    if not keep_heads_axis:
        rows = op.Squeeze(rows, op.Constant(value_ints=[1]))
    dtype = y.dtype or ir.DataType.FLOAT
    zero = op.Constant(value=ir.tensor(np.array(0, dtype=dtype.numpy())))
    return op.Where(rows, out, zero)


sdpa_via_mha_rules = RewriteRuleSet([SDPAViaMHA.rule(masked=True), SDPAViaMHA.rule(masked=False)])


def replace_sdpa_by_mha(model: ir.Model, *, debug: bool = False) -> int:
    """Replace every intermediate SDPA left in ``model`` by MultiHeadAttention (in place);
    the number replaced. Run it last among the attention fusions."""
    return apply_once(sdpa_via_mha_rules, model, debug)


__all__ = [
    "SDPAViaMHA",
    "attention_bias",
    "repeat_heads",
    "replace_sdpa_by_mha",
    "sdpa_via_mha_rules",
    "zero_masked_rows",
]
