"""The projection biases of MultiHeadAttention's 3-D query, key and value (``Add(x @ W,
b)``, as BERT-like models have them) into the op's ``bias`` input
(``[3 * hidden]``), which its kernels add themselves."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions._fusion_ops import MS_DOMAIN


class FuseBiasMHA(RewriteRuleClassBase):
    """``MultiHeadAttention(q [+ bq], k [+ bk], v [+ bv], <no bias>, ...)`` with 1-D
    biases of the projections' width (at least one; Whisper's key projection has none)
    to ``MultiHeadAttention(q, k, v, concat(bq, bk, bv), ...)``, a missing bias as
    zeros; ``outputs``: the op's outputs (3 with a KV cache's presents)."""

    def __init__(self, name: str | None = None, *, outputs: int = 1) -> None:
        super().__init__(name or ("FuseBiasMHA" if outputs == 1 else f"FuseBiasMHA{outputs}"))
        self._outputs = outputs

    def pattern(self, op: Any, q: Any, k: Any, v: Any) -> Any:
        names = ["out", "present_key", "present_value"][: self._outputs]
        return op.MultiHeadAttention(
            q, k, v, _allow_other_inputs=True, _domain=MS_DOMAIN, _outputs=names
        )

    def check(
        self, context: Any, q: ir.Value, k: ir.Value, v: ir.Value, out: ir.Value, **_: Any
    ) -> MatchResult:
        result = MatchResult()
        node = out.producer()
        assert node is not None
        if len(node.inputs) > 3 and node.inputs[3] is not None:
            return result.fail("the op has a bias already", out)
        if not all(value_facts.rank(x) == 3 and value_facts.static_dim(x, 2) for x in (q, k, v)):
            return result.fail("q, k, v are not 3-D with a known width", [q, k, v])
        if not value_facts.is_float(q) or not all(x.dtype == q.dtype for x in (k, v)):
            return result.fail("q, k, v are not of one floating-point type", [q, k, v])
        if all(_biased(x) is None for x in (q, k, v)):
            return result.fail("none of q, k, v adds a bias vector", [q, k, v])
        return result

    def rewrite(
        self, op: Any, q: ir.Value, k: ir.Value, v: ir.Value, out: ir.Value, **_: Any
    ) -> Any:
        node = out.producer()
        assert node is not None
        assert q.dtype is not None
        inputs: list[ir.Value] = []
        biases: list[ir.Value | np.ndarray] = []
        for value in (q, k, v):
            part = _biased(value)
            width = value_facts.static_dim(value, 2)
            assert width is not None
            inputs.append(part[0] if part is not None else value)
            if part is None:
                biases.append(np.zeros(width, dtype=q.dtype.numpy()))
            else:
                known = _vector(part[1])
                biases.append(known if known is not None else part[1])
        name = f"{out.name}_qkv_bias"
        if all(isinstance(b, np.ndarray) for b in biases):
            joined = np.concatenate([b for b in biases if isinstance(b, np.ndarray)])
            bias = op.initializer(ir.tensor(joined, name=name), name=name)
        else:
            parts = [
                op.Constant(value=ir.tensor(b)) if isinstance(b, np.ndarray) else b for b in biases
            ]
            bias = op.Concat(*parts, axis=0)
        attrs = {key: attr.value for key, attr in node.attributes.items()}
        rest = list(node.inputs[4:])
        return op.MultiHeadAttention(
            *inputs, bias, *rest, _domain=MS_DOMAIN, _outputs=self._outputs, **attrs
        )


def _biased(value: ir.Value) -> tuple[ir.Value, ir.Value] | None:
    """``(x, b)`` when ``value = x + b`` (either order) with ``b`` a vector of
    ``value``'s width and type and ``x`` 3-D; None otherwise."""
    node = value.producer()
    if node is None or node.op_type != "Add" or node.domain not in ("", "ai.onnx"):
        return None
    width = value_facts.static_dim(value, 2)
    for x, b in (node.inputs, reversed(node.inputs)):
        if x is None or b is None or value_facts.rank(x) != 3 or b.dtype != value.dtype:
            continue
        if value_facts.rank(b) == 1 and value_facts.static_dim(b, 0) == width:
            return x, b
    return None


def _vector(value: ir.Value) -> np.ndarray | None:
    """A constant 1-D floating-point tensor's numbers, or None."""
    array = value_facts.constant_array(value, max_size=None)  # a bias, read to be packed
    return array if array is not None and array.ndim == 1 and array.dtype.kind == "f" else None


mha_bias_rules = RewriteRuleSet([FuseBiasMHA.rule(outputs=1), FuseBiasMHA.rule(outputs=3)])


fuse_mha_bias = fuse_function(
    mha_bias_rules,
    "Move the projection biases of MultiHeadAttention's inputs into its ``bias`` (in "
    "place); the number of ops changed. Run it after the MultiHeadAttention fusions; the "
    "nodes they left unused are removed first (they still read the biased projections).",
    before=common.RemoveUnusedNodesPass(),
    after=common.RemoveUnusedNodesPass(),
)


__all__ = ["FuseBiasMHA", "fuse_mha_bias", "mha_bias_rules"]
