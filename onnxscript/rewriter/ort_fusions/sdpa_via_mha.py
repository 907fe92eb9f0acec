"""The intermediate SDPA ops no projection-aware fusion completed, to
``com.microsoft::MultiHeadAttention`` on their ``[batch, heads, seq, head]`` tensors: the
query made ``[batch, seq, heads * head]``, keys and values passed as 4-D (repeated for
grouped heads), the mask as an additive ``attention_bias``, and the output made 4-D
again. onnxruntime cannot run the intermediate op; after this no SDPA is left."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions._fusion_ops import DOMAIN, MS_DOMAIN


class SDPAImplementation(RewriteRuleClassBase):
    """``SDPA(q, k, v[, mask])`` to MultiHeadAttention between reshapes."""

    def __init__(self, name: str | None = None, *, masked: bool = True) -> None:
        super().__init__(name or ("SDPAViaMHA" if masked else "SDPAViaMHANoMask"))
        self._masked = masked

    def pattern(self, op: Any, q: Any, k: Any, v: Any, mask: Any) -> Any:
        inputs = [q, k, v, mask] if self._masked else [q, k, v]
        return op.SDPA(*inputs, _domain=DOMAIN, _outputs=["y"])

    def rewrite(
        self, op: Any, q: ir.Value, k: ir.Value, v: ir.Value, y: ir.Value, mask: Any = None
    ) -> Any:
        heads = value_facts.producer_attr_int(y, "num_heads", 0)
        head_size = value_facts.static_dim(q, 3)
        assert head_size is not None
        query = op.Reshape(
            op.Transpose(q, perm=[0, 2, 1, 3]), op.Constant(value_ints=[0, 0, heads * head_size])
        )
        key, value = repeat_heads(op, k, heads), repeat_heads(op, v, heads)
        v_head = value_facts.static_dim(v, 3) or head_size
        if v_head != head_size:  # 4-D keys and values must have one shape: both 3-D
            key = _to_bsd(op, key, heads * head_size)
            value = _to_bsd(op, value, heads * v_head)
        bias = attention_bias(op, mask, y) if mask is not None else None
        out = op.MultiHeadAttention(
            query,
            key,
            value,
            None,
            None,
            bias,
            num_heads=heads,
            **scale_attributes(y),
            _domain=MS_DOMAIN,
        )
        out4 = op.Transpose(
            op.Reshape(out, op.Constant(value_ints=[0, 0, heads, v_head])), perm=[0, 2, 1, 3]
        )
        return zero_masked_rows(op, out4, mask, y, keep_heads_axis=True)


def _to_bsd(op: Any, x: Any, hidden: int) -> Any:
    """``x [B, H, L, D]`` as ``[B, L, H * D]``."""
    return op.Reshape(op.Transpose(x, perm=[0, 2, 1, 3]), op.Constant(value_ints=[0, 0, hidden]))


def scale_attributes(y: ir.Value) -> dict[str, float]:
    """``{"scale": s}`` when the SDPA computing ``y`` has a scale, else ``{}``: its
    default, ``1 / sqrt(head_size)``, is the fused ops' default too."""
    node = y.producer()
    assert node is not None
    if "scale" not in node.attributes:
        return {}
    return {"scale": node.attributes.get_float("scale", 1.0)}


def repeat_heads(op: Any, x: ir.Value, heads: int) -> Any:
    """``x [B, kv, L, D]`` with each head repeated to ``heads`` (transformers'
    ``repeat_kv``); ``x`` itself when it has them already."""
    kv = value_facts.static_dim(x, 1)
    if kv is None or kv == heads:
        return x
    head_size = value_facts.static_dim(x, 3) or -1
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
    made = _consumer(mask, "Where", lambda n: _is_bias(n, dtype))
    if made is not None:  # an earlier layer's, for the same mask
        return made
    zero = op.Constant(value=ir.tensor(np.array(0, dtype=dtype.numpy())))
    minus_inf = op.Constant(value=ir.tensor(np.array(-np.inf, dtype=dtype.numpy())))
    return op.Where(mask, zero, minus_inf)


def _is_bias(node: ir.Node, dtype: ir.DataType) -> bool:
    """Whether ``node`` is ``Where(mask, 0, -inf)`` in ``dtype``."""
    if node.outputs[0].dtype not in (None, dtype) or len(node.inputs) != 3:
        return False
    zero, minus_inf = (value_facts.constant_float(x) for x in node.inputs[1:])
    return zero == 0.0 and minus_inf == -np.inf


def _consumer(value: ir.Value, op_type: str, wanted: Callable[[ir.Node], bool]) -> ir.Value | None:
    """The first output of a node reading ``value`` as its first input, of ``op_type``
    and ``wanted``: what an earlier rewrite made from the same value."""
    for node, index in value.uses():
        if index == 0 and node.op_type == op_type and node.domain == "" and wanted(node):
            return node.outputs[0]
    return None


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
    rows = _attended_rows(op, mask, keep_heads_axis)
    dtype = y.dtype or ir.DataType.FLOAT
    zero = op.Constant(value=ir.tensor(np.array(0, dtype=dtype.numpy())))
    return op.Where(rows, out, zero)


def _is_last_axis_max(node: ir.Node) -> bool:
    axes = value_facts.constant_ints(node.inputs[1]) if len(node.inputs) > 1 else None
    return axes == [-1] and node.attributes.get_int("keepdims", 1) == 1


def _attended_rows(op: Any, mask: ir.Value, keep_heads_axis: bool) -> Any:
    """Whether each query may attend any key: ``Cast(ReduceMax(Cast(mask, int32), -1),
    bool)`` (``[B, 1, S, 1]``, squeezed to ``[B, S, 1]`` unless ``keep_heads_axis``),
    reusing an earlier layer's."""
    rows: Any = None
    as_int = _consumer(mask, "Cast", lambda n: n.attributes.get_int("to", 0) == ir.DataType.INT32)
    seen = _consumer(as_int, "ReduceMax", _is_last_axis_max) if as_int is not None else None
    if seen is not None:
        rows = _consumer(seen, "Cast", lambda n: n.attributes.get_int("to", 0) == ir.DataType.BOOL)
    if rows is None:
        as_int = op.Cast(mask, to=ir.DataType.INT32)
        seen = op.ReduceMax(as_int, op.Constant(value_ints=[-1]), keepdims=1)
        rows = op.Cast(seen, to=ir.DataType.BOOL)
    if keep_heads_axis:
        return rows
    if isinstance(rows, ir.Value):
        squeezed = _consumer(rows, "Squeeze", lambda n: True)
        if squeezed is not None:
            return squeezed
    return op.Squeeze(rows, op.Constant(value_ints=[1]))


sdpa_via_mha_rules = RewriteRuleSet(
    [SDPAImplementation.rule(masked=True), SDPAImplementation.rule(masked=False)]
)


replace_sdpa_by_mha = fuse_function(
    sdpa_via_mha_rules,
    "Replace every intermediate SDPA left in ``model`` by MultiHeadAttention (in place); "
    "the number replaced. Run it last among the attention fusions.",
)


__all__ = [
    "SDPAImplementation",
    "attention_bias",
    "repeat_heads",
    "replace_sdpa_by_mha",
    "scale_attributes",
    "sdpa_via_mha_rules",
    "zero_masked_rows",
]
