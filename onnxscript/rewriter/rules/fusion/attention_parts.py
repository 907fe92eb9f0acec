"""What the attention fusions of both targets recognise around an attention (opset 23's
``Attention`` in :mod:`.attention`; the intermediate SDPA, MultiHeadAttention and
GroupQueryAttention of ``ort_fusions``): keys and values repeated for grouped heads
(transformers' ``repeat_kv``) and a KV cache concatenated to the new keys and values."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.ir_utils import value_facts


def grouped_source(x: ir.Value, heads: int) -> tuple[ir.Value, int]:
    """The keys or values ``x`` (``[B, heads, L, D]``) repeat for grouped heads, and its
    number of heads: ``x = Reshape(Expand(Unsqueeze(src, [2]), [B, kv, n, L, D]), [B,
    heads, L, D])`` with ``kv * n == heads`` gives ``(src, kv)``; anything else gives
    ``(x, heads)``. The shapes are read from the values (each dim the source's, or
    ``heads``)."""
    reshape = x.producer()
    if reshape is None or reshape.op_type != "Reshape" or reshape.inputs[0] is None:
        return x, heads
    expanded = reshape.inputs[0]
    expand = expanded.producer()
    if expand is None or expand.op_type != "Expand" or expand.inputs[0] is None:
        return x, heads
    unsqueeze = expand.inputs[0].producer()
    if unsqueeze is None or unsqueeze.op_type != "Unsqueeze" or unsqueeze.inputs[0] is None:
        return x, heads
    source = unsqueeze.inputs[0]
    axes = value_facts.constant_ints(unsqueeze.inputs[1] if len(unsqueeze.inputs) > 1 else None)
    if axes not in ([2], [-3]) or value_facts.rank(source) != 4:
        return x, heads
    kv, repeats = value_facts.static_dim(source, 1), value_facts.static_dim(expanded, 2)
    if kv is None or repeats is None or kv * repeats != heads:
        return x, heads
    if value_facts.rank(expanded) != 5 or value_facts.rank(x) not in (4, None):
        return x, heads
    kept = ((0, 0), (1, 1), (3, 2), (4, 3))
    if not all(value_facts.same_dim_at(expanded, a, source, b) for a, b in kept):
        return x, heads
    # The Reshape's result, when its dims are known, must not say otherwise (a Reshape to
    # [B, L, heads, D] would merge the wrong axes); an unknown or unnamed dim is no word.
    for axis, wanted in ((1, heads), (3, value_facts.dim(source, 3))):
        found = value_facts.dim(x, axis)
        if value_facts.is_known_dim(found) and not value_facts.same_dim(found, wanted):
            return x, heads
    return source, kv


def cache_parts(x: ir.Value | None) -> tuple[ir.Value, ir.Value] | None:
    """``(past, new)`` when ``x = Concat(past, new)`` along the sequence axis of 4-D
    ``[batch, heads, seq, head]`` tensors (a KV cache), else None."""
    node = x.producer() if x is not None else None
    if node is None or node.op_type != "Concat" or len(node.inputs) != 2:
        return None
    if value_facts.attr_int(node, "axis", 0) not in (2, -2):
        return None
    past, new = node.inputs
    if past is None or new is None or value_facts.rank(past) != 4:
        return None
    return past, new


__all__ = ["cache_parts", "grouped_source"]
