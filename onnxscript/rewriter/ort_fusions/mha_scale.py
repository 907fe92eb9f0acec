"""A query scaled before MultiHeadAttention (``MultiHeadAttention(q * c, ...)``, as
Whisper scales its queries by ``head_size ** -0.5`` before the product) with the
constant folded into the op's ``scale`` attribute: ``scale * c``, the default scale
being ``1 / sqrt(head_size)``."""

from __future__ import annotations

import math
from typing import Any

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.ort_fusions._fusion_ops import MS_DOMAIN
from onnxscript.rewriter.pattern import MatchResult, RewriteRuleClassBase, RewriteRuleSet


class FuseMHAScale(RewriteRuleClassBase):
    """``MultiHeadAttention(Mul(query, c), ...)`` with ``c`` a nonzero scalar constant to
    ``MultiHeadAttention(query, ..., scale=scale * c)``; ``outputs``: the op's outputs (3
    with a KV cache's presents)."""

    def __init__(self, name: str | None = None, *, outputs: int = 1) -> None:
        super().__init__(name or ("FuseMHAScale" if outputs == 1 else f"FuseMHAScale{outputs}"))
        self._outputs = outputs

    def pattern(self, op: Any, query: Any, scale: Any) -> Any:
        return op.MultiHeadAttention(
            op.Mul(query, scale),
            _allow_other_inputs=True,
            _domain=MS_DOMAIN,
            _outputs=["mha_output", "present_key", "present_value"][: self._outputs],
        )

    def check(
        self, context: Any, query: ir.Value, scale: ir.Value, mha_output: ir.Value, **_: Any
    ) -> MatchResult:
        result = MatchResult()
        factor = value_facts.constant_float(scale)
        if factor is None or factor == 0 or not math.isfinite(factor):
            return result.fail("the query is not scaled by a nonzero scalar constant", scale)
        if value_facts.rank(query) != 3:
            return result.fail("the query is not 3-D (a packed or 5-D query)", query)
        if _new_scale(mha_output, query, factor) is None:
            return result.fail("the head size (for the default scale) is not known", query)
        return result

    def rewrite(
        self, op: Any, query: ir.Value, scale: ir.Value, mha_output: ir.Value, **_: Any
    ) -> Any:
        node = mha_output.producer()
        assert node is not None
        factor = value_facts.constant_float(scale)
        assert factor is not None
        attributes = {name: attr.value for name, attr in node.attributes.items()}
        attributes["scale"] = _new_scale(mha_output, query, factor)
        return op.MultiHeadAttention(
            query,
            *node.inputs[1:],
            _domain=MS_DOMAIN,
            _outputs=len(node.outputs),
            **attributes,
        )


def _new_scale(mha_output: ir.Value, query: ir.Value, factor: float) -> float | None:
    """The op's scale (``1 / sqrt(head_size)`` when not given; the head size from the
    unscaled ``query [B, S, heads * head_size]``) times ``factor``; None when the head size
    is needed and not known. 0 is the op's "default" and never results."""
    node = mha_output.producer()
    assert node is not None
    given = node.attributes.get_float("scale", 0.0)
    if given == 0.0:
        heads = node.attributes.get_int("num_heads", 0)
        hidden = value_facts.static_dim(query, 2)
        if not heads or hidden is None or hidden % heads:
            return None
        given = 1.0 / math.sqrt(hidden // heads)
    return given * factor


mha_scale_rules = RewriteRuleSet(
    [FuseMHAScale.rule(outputs=1), FuseMHAScale.rule(outputs=3)], commute=True
)

fuse_mha_scale = fuse_function(
    mha_scale_rules,
    "Fold a query's scalar scale into its MultiHeadAttention's ``scale`` (in place); the "
    "number folded. Run it after the MultiHeadAttention fusions and before the bias one; "
    "the nodes they left unused are removed first (they may still read the scaled query).",
    before=common.RemoveUnusedNodesPass(),
    after=common.RemoveUnusedNodesPass(),
)

__all__ = ["FuseMHAScale", "fuse_mha_scale", "mha_scale_rules"]
