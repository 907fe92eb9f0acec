"""Scaled-dot-product attention as torch.onnx exports it (transformers' eager and sdpa
attention): ``Softmax(scale * q @ kᵀ masked) @ v`` with the scale on the product
(``Mul`` / ``Div``) or split as ``√scale`` on both q and kᵀ, the mask a boolean ``Where(m,
·, -inf)`` or an additive ``Add``, an optional ``Where(m, ·, 0)`` after the Softmax (it
zeroes rows no key may be attended from), and keys / values maybe repeated for grouped
heads (``repeat_kv``: Unsqueeze, Expand, Reshape). All of it becomes one intermediate
``ai.onnxruntime._fusion::SDPA(q, k, v[, mask])`` on ``[batch, heads, seq, head]`` inputs,
k and v with their own (fewer, grouped) heads. Attributes: ``scale`` (left out when it is
the default ``1 / sqrt(head_size)``), ``key_format``
(``"BHSd"``), ``num_heads``, ``kv_num_heads``, ``mask_type`` (``"none"``, ``"bool"``,
``"add"``), ``zero_masked_rows``. :mod:`.mha` and :mod:`.gqa` complete it;
:mod:`.sdpa_via_mha` makes what they leave runnable."""

from __future__ import annotations

import itertools
import math
from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions import cpu_kernels
from onnxscript.rewriter.ort_fusions._fusion_ops import DOMAIN
from onnxscript.rewriter.rules.fusion.attention_parts import grouped_source

SCALE_FORMS = ("split", "split_div", "mul", "div", "none")
"""Where the scale is: ``√scale`` on q and on kᵀ (multiplied, or divided by
``1/√scale``), a Mul or Div of the product, none."""

MASK_FORMS = ("bool", "add", "none")


class SDPA(RewriteRuleClassBase):
    """One form of the attention (``scale_form`` of :data:`SCALE_FORMS`, ``mask_form`` of
    :data:`MASK_FORMS`, ``zero_rows``: the second Where) to the intermediate SDPA."""

    def __init__(
        self, scale_form: str, mask_form: str, zero_rows: bool, key_bshd: bool = False
    ) -> None:
        suffix = ("_zero_rows" if zero_rows else "") + ("_key_bshd" if key_bshd else "")
        super().__init__(f"SDPA_{scale_form}_{mask_form}{suffix}")
        self._key_bshd = key_bshd
        self._scale_form, self._mask_form, self._zero_rows = scale_form, mask_form, zero_rows

    def pattern(
        self, op: Any, q: Any, k: Any, v: Any, mask: Any, s1: Any, s2: Any, fill: Any
    ) -> Any:
        key_t = op.Transpose(k, perm=[0, 2, 3, 1] if self._key_bshd else [0, 1, 3, 2])
        if self._scale_form == "split":
            scores = op.MatMul(op.Mul(q, s1), op.Mul(key_t, s2))
        elif self._scale_form == "split_div":
            scores = op.MatMul(op.Div(q, s1), op.Div(key_t, s2))
        elif self._scale_form == "mul":
            scores = op.Mul(op.MatMul(q, key_t), s1)
        elif self._scale_form == "div":
            scores = op.Div(op.MatMul(q, key_t), s1)
        else:
            scores = op.MatMul(q, key_t)
        if self._mask_form == "bool":
            scores = op.Where(mask, scores, fill)
        elif self._mask_form == "add":
            scores = op.Add(scores, mask)
        probs = op.Softmax(scores, _outputs=["probs"])
        if self._zero_rows:
            probs = op.Where(mask, probs, 0.0)
        return op.MatMul(probs, v)

    def check(
        self,
        context: Any,
        q: ir.Value,
        k: ir.Value,
        v: ir.Value,
        probs: ir.Value,
        fill: ir.Value | None = None,
        **values: Any,
    ) -> MatchResult:
        result = MatchResult()
        if not all(value_facts.rank(x) == 4 and value_facts.is_float(x) for x in (q, k, v)):
            return result.fail("q, k, v are not 4-D floating-point tensors", [q, k, v])
        if value_facts.producer_attr_int(probs, "axis", -1) not in (-1, 3):
            return result.fail("the Softmax is not over the last axis", probs)
        mask = values.get("mask")
        if mask is not None and value_facts.rank(mask) != 4:
            return result.fail("the mask is not 4-D", mask)
        if self._mask_form == "bool":
            filler = value_facts.constant_float(fill)
            if filler is None or not (math.isinf(filler) and filler < 0):
                return result.fail("the masked scores are not set to -inf", fill)
        if self._scale(values) is None:
            return result.fail("the scale is not a positive constant number", q)
        heads, head_size = value_facts.static_dim(q, 1), value_facts.static_dim(q, 3)
        if heads is None or head_size is None or value_facts.static_dim(v, 3) is None:
            return result.fail("the heads or head sizes are not known", q)
        kv_k = (k, heads) if self._key_bshd else grouped_source(k, heads)
        kv_heads = value_facts.static_dim(kv_k[0], 2 if self._key_bshd else 1)
        if kv_heads != value_facts.static_dim(grouped_source(v, heads)[0], 1):
            return result.fail("keys and values do not have the same heads", [k, v])
        # sdpa_via_mha completes whatever SDPA no other fusion takes, as MultiHeadAttention
        # without past (keys and values 3-D when the value head size is not the key's):
        # onnxruntime's CPU kernel must run that
        refused = cpu_kernels.multi_head_attention(
            value_facts.tensor_dtype(q),
            num_heads=heads,
            hidden=heads * head_size,
            kv_layout="BSD",
            v_head_size=value_facts.static_dim(v, 3),
        )
        if refused is not None:
            return result.fail(refused, [q, v])
        return result

    def _scale(self, values: dict[str, Any]) -> float | None:
        """The product's scale from the matched constants, or None."""
        s1, s2 = (
            value_facts.constant_float(values.get("s1")),
            value_facts.constant_float(values.get("s2")),
        )
        if self._scale_form == "none":
            return 1.0
        if s1 is None or s1 <= 0:
            return None
        if self._scale_form in ("split", "split_div"):
            if s2 is None or s2 <= 0:
                return None
            return s1 * s2 if self._scale_form == "split" else 1.0 / (s1 * s2)
        return s1 if self._scale_form == "mul" else 1.0 / s1

    def rewrite(
        self, op: Any, q: ir.Value, k: ir.Value, v: ir.Value, mask: Any = None, **values: Any
    ) -> Any:
        heads = value_facts.static_dim(q, 1)
        assert heads is not None
        if self._key_bshd:
            key, kv_heads = op.Transpose(k, perm=[0, 2, 1, 3]), heads
        else:
            key, kv_heads = grouped_source(k, heads)
        value, _ = grouped_source(v, heads)
        inputs = [q, key, value] + ([mask] if self._mask_form != "none" else [])
        scale = self._scale(values)
        assert scale is not None
        head_size = value_facts.static_dim(q, 3)
        assert head_size is not None
        # the default scale is left out (0.7's SDPA has it only when it differs)
        given = {} if math.isclose(scale, head_size**-0.5, rel_tol=1e-6) else {"scale": scale}
        return op.SDPA(
            *inputs,
            **given,
            key_format="BHSd",
            num_heads=heads,
            kv_num_heads=kv_heads,
            mask_type=self._mask_form,
            zero_masked_rows=int(self._zero_rows),
            _domain=DOMAIN,
        )


def _rules() -> list[Any]:
    rules = []
    for scale, mask in itertools.product(SCALE_FORMS, MASK_FORMS):
        for zero_rows in (False, True) if mask == "bool" else (False,):
            for key_bshd in (False, True):
                rules.append(SDPA.rule(scale, mask, zero_rows, key_bshd))
    return rules


sdpa_rules = RewriteRuleSet(_rules(), commute=True)


fuse_sdpa = fuse_function(
    sdpa_rules,
    "Fuse every scaled-dot-product attention of ``model`` into an intermediate SDPA (in "
    "place); the number fused.",
)


__all__ = ["MASK_FORMS", "SCALE_FORMS", "SDPA", "fuse_sdpa", "sdpa_rules"]
