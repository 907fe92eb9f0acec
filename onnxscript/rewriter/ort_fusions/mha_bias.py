"""The projection biases of MultiHeadAttention's 3-D query, key and value (``Add(x @ W,
b)``, as BERT-like models have them) into the op's ``bias`` input
(``[3 * hidden]``), which its kernels add themselves."""

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


class FuseBiasMHA(RewriteRuleClassBase):
    """``MultiHeadAttention(q + bq, k + bk, v + bv, <no bias>, ...)`` with constant 1-D
    biases to ``MultiHeadAttention(q, k, v, concat(bq, bk, bv), ...)``."""

    def __init__(self) -> None:
        super().__init__("MHABias")

    def pattern(self, op: Any, q: Any, k: Any, v: Any, bq: Any, bk: Any, bv: Any) -> Any:
        return op.MultiHeadAttention(
            op.Add(q, bq),
            op.Add(k, bk),
            op.Add(v, bv),
            _allow_other_inputs=True,
            _domain=MS_DOMAIN,
            _outputs=["out"],
        )

    def check(
        self, context: Any, q: ir.Value, k: ir.Value, v: ir.Value, out: ir.Value, **biases: Any
    ) -> MatchResult:
        result = MatchResult()
        node = out.producer()
        assert node is not None
        if len(node.inputs) > 3 and node.inputs[3] is not None:
            return result.fail("the op has a bias already", out)
        if len(node.outputs) != 1 or not all(facts.rank(x) == 3 for x in (q, k, v)):
            return result.fail("present outputs, or q, k, v not 3-D", out)
        arrays = [_vector(biases[name]) for name in ("bq", "bk", "bv")]
        if any(a is None for a in arrays):
            return result.fail("the biases are not constant vectors", list(biases.values()))
        if any(
            a is not None and a.size != facts.static_dim(x, 2) for a, x in zip(arrays, (q, k, v))
        ):
            return result.fail("a bias does not have the projection's width", [q, k, v])
        return result

    def rewrite(
        self,
        op: Any,
        q: ir.Value,
        k: ir.Value,
        v: ir.Value,
        bq: ir.Value,
        bk: ir.Value,
        bv: ir.Value,
        out: ir.Value,
    ) -> Any:
        node = out.producer()
        assert node is not None
        arrays = [_vector(b) for b in (bq, bk, bv)]
        joined = np.concatenate([a for a in arrays if a is not None])
        name = f"{bq.name}_qkv_bias"
        bias = op.initializer(ir.tensor(joined, name=name), name=name)
        attrs = {key: attr.value for key, attr in node.attributes.items()}
        rest = list(node.inputs[4:])
        return op.MultiHeadAttention(q, k, v, bias, *rest, _domain=MS_DOMAIN, **attrs)


def _vector(value: ir.Value) -> np.ndarray | None:
    """A constant 1-D floating-point tensor's numbers, or None."""
    tensor = ir.convenience.get_const_tensor(value)
    if tensor is None:
        return None
    array = np.asarray(tensor.numpy())
    return array if array.ndim == 1 and array.dtype.kind == "f" else None


mha_bias_rules = RewriteRuleSet([FuseBiasMHA.rule()], commute=True)


fuse_mha_bias = fuse_function(
    mha_bias_rules,
    "Move the projection biases of MultiHeadAttention's inputs into its ``bias`` (in "
    "place); the number of ops changed. Run it after the MultiHeadAttention fusions; the "
    "nodes they left unused are removed first (they still read the biased projections).",
    before=common.RemoveUnusedNodesPass(),
)


__all__ = ["FuseBiasMHA", "fuse_mha_bias", "mha_bias_rules"]
