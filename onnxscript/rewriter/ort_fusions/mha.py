"""An intermediate SDPA with the reshapes around it, ``[batch, seq, heads * head]``
projections made ``[batch, heads, seq, head]`` (Reshape, Transpose) before and back
after, to ``com.microsoft::MultiHeadAttention`` on the projections themselves: the
reshapes go, a rotary embedding between them turns 3-D (``num_heads``), keys and values
concatenated to a KV cache become ``past_key`` / ``past_value`` (the Concat stays for
the model's present outputs), the mask becomes ``attention_bias``.

Grouped heads (fewer key / value heads) are repeated for MultiHeadAttention; the
grouped-query fusion (:mod:`.gqa`) runs first and keeps them grouped where it can."""

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
from onnxscript.rewriter.ort_fusions.sdpa_via_mha import (
    attention_bias,
    repeat_heads,
    scale_attributes,
    zero_masked_rows,
)
from onnxscript.rewriter.rules.fusion.attention_parts import cache_parts


class MultiHeadAttention(RewriteRuleClassBase):
    """``Reshape(Transpose(SDPA(q, k, v[, mask]), [0, 2, 1, 3]), shape)`` to
    ``Reshape(MultiHeadAttention(...), shape)`` (the Reshape dropped when it is
    ``[0, 0, heads * head]``).

    ``has_past_present``: k and v are a KV-cache Concat (True) or not (False).
    ``masked``: the SDPA has a mask. ``is_rotary`` and ``is_cross_attention`` are
    accepted for 0.7's signature: the rule takes queries and keys rotated or not, keys
    and values projected from the query's input or from another."""

    def __init__(
        self,
        name: str | None = None,
        *,
        is_rotary: bool | None = None,
        has_past_present: bool = False,
        is_cross_attention: bool | None = None,
        masked: bool = True,
    ) -> None:
        del is_rotary, is_cross_attention
        default = ("MHA" if masked else "MHANoMask") + ("_Past" if has_past_present else "")
        super().__init__(name or default)
        self._masked = masked
        self._past = has_past_present
        self._presents: list[tuple[ir.Value, ir.Value]] = []

    def cleanup(self) -> None:
        """Each KV-cache Concat replaced by the op's present output (the same values),
        which takes its name when it is a graph output; the Concat is then unused."""
        for concat, present in self._presents:
            if concat.producer() is None or concat.graph is None:
                continue
            name = concat.name if concat.is_graph_output() else None
            concat.replace_all_uses_with(present, replace_graph_outputs=True)
            if name is not None:
                concat.name = None
                present.name = name
        self._presents.clear()

    def pattern(self, op: Any, q: Any, k: Any, v: Any, mask: Any, shape: Any) -> Any:
        inputs = [q, k, v, mask] if self._masked else [q, k, v]
        y = op.SDPA(*inputs, _domain=DOMAIN, _outputs=["y"])
        return op.Reshape(op.Transpose(y, perm=[0, 2, 1, 3]), shape)

    def check(self, context: Any, q: ir.Value, k: ir.Value, v: ir.Value, **_: Any) -> MatchResult:
        result = MatchResult()
        head_size, heads = _dim(q, 3), _dim(q, 1)
        if head_size is None or heads is None:
            return result.fail("the head size or the number of heads of q is not known", q)
        refused = cpu_kernels.multi_head_attention(
            value_facts.tensor_dtype(q),
            num_heads=heads,
            hidden=heads * head_size,
            kv_layout="BNSH",  # 4-D when the keys are not a projection's
            v_head_size=_dim(v, 3),
            past=self._past,
        )
        if refused is not None:
            return result.fail(refused, [q, v])
        split = _split_source(_unrotated(q))
        if split is not None and value_facts.rank(split) not in (3, None):
            return result.fail("q is split into heads from a value that is not 3-D", q)
        cached = cache_parts(k) is not None and cache_parts(v) is not None
        if cached != self._past:
            reason = "k and v are not" if self._past else "k and v are"
            return result.fail(f"{reason} a KV-cache Concat", [k, v])
        return result

    def rewrite(
        self,
        op: Any,
        q: ir.Value,
        k: ir.Value,
        v: ir.Value,
        y: ir.Value,
        shape: ir.Value,
        mask: Any = None,
    ) -> Any:
        node = y.producer()
        assert node is not None
        heads = node.attributes.get_int("num_heads", 0) or _dim(q, 1)
        head_size = _dim(q, 3)
        assert heads is not None and head_size is not None
        query = to_bsd(op, q, heads * head_size)
        key, value, past_key, past_value = _keys_values(op, k, v, heads, head_size)
        bias = attention_bias(op, mask, y) if mask is not None else None
        outputs = op.MultiHeadAttention(
            query,
            key,
            value,
            None,
            None,
            bias,
            past_key,
            past_value,
            num_heads=heads,
            **scale_attributes(y),
            _domain=MS_DOMAIN,
            _outputs=1 if past_key is None else 3,
        )
        if past_key is None:
            out = outputs
        else:  # the op's presents are the cache Concats k and v: they take their place
            out, present_key, present_value = outputs
            self._presents += [(k, present_key), (v, present_value)]
        out = zero_masked_rows(op, out, mask, y, keep_heads_axis=False)
        if value_facts.constant_ints(shape) == [0, 0, heads * head_size]:
            return out
        return op.Reshape(out, shape)


def _split_source(x: ir.Value) -> ir.Value | None:
    """``p`` when ``x = Transpose(Reshape(p, ...), [0, 2, 1, 3])``, else None."""
    transpose = x.producer()
    if transpose is None or transpose.op_type != "Transpose" or transpose.inputs[0] is None:
        return None
    reshape = transpose.inputs[0].producer()
    if reshape is None or reshape.op_type != "Reshape":
        return None
    return reshape.inputs[0]


def _dim(x: ir.Value, axis: int) -> int | None:
    """The static size of ``x``'s ``axis``, or of its rotary embedding's input (shape
    inference does not know the contrib op)."""
    known = value_facts.static_dim(x, axis)
    node = x.producer()
    if known is None and node is not None and node.op_type == "RotaryEmbedding":
        source = node.inputs[0]
        return value_facts.static_dim(source, axis) if source is not None else None
    return known


def _keys_values(
    op: Any, k: ir.Value, v: ir.Value, heads: int, head_size: int
) -> tuple[Any, Any, Any, Any]:
    """MultiHeadAttention's key, value, past_key, past_value for the SDPA's k and v: the
    new 3-D projections and the past when both are a KV-cache Concat of ungrouped heads,
    the 3-D projections themselves without cache, else 4-D keys and values (heads
    repeated when grouped) and no past."""
    k_parts, v_parts = cache_parts(k), cache_parts(v)
    if k_parts is not None and v_parts is not None and _kv_heads(k) == heads:
        v_new = _from_bsd(v_parts[1])
        if projection_of(k_parts[1]) is not None and v_new is not None:
            key, value = to_bsd(op, k_parts[1], heads * head_size), v_new
            return key, value, k_parts[0], v_parts[0]
    ungrouped = _kv_heads(k) == heads and _kv_heads(v) == heads
    if ungrouped and projection_of(k) is not None and _from_bsd(v) is not None:
        hidden = heads * head_size
        return to_bsd(op, k, hidden), to_bsd(op, v, hidden), None, None
    return repeat_heads(op, k, heads), repeat_heads(op, v, heads), None, None


def _kv_heads(x: ir.Value) -> int | None:
    """The heads of ``x [B, H, L, D]``, from its shape or the Reshape it is made by."""
    known = value_facts.static_dim(x, 1)
    if known is not None:
        return known
    source = projection_of(x)
    if source is None:
        return None
    node = _unrotated(x).producer()
    reshape = node.inputs[0].producer() if node is not None and node.inputs[0] else None
    split = _head_split(reshape) if reshape is not None else None
    return split[1] if split is not None else None


def _from_bsd(x: ir.Value) -> ir.Value | None:
    """The ``[B, S, H * D]`` projection ``x [B, H, S, D]`` was made of by
    ``Transpose(Reshape(p, [B, S, H, D]), [0, 2, 1, 3])`` (see :func:`_head_split`), or
    None."""
    transpose = x.producer()
    if transpose is None or transpose.op_type != "Transpose" or transpose.inputs[0] is None:
        return None
    if list(transpose.attributes.get_ints("perm", [])) != [0, 2, 1, 3]:
        return None
    reshape = transpose.inputs[0].producer()
    split = _head_split(reshape) if reshape is not None else None
    return split[0] if split is not None else None


def _head_split(reshape: ir.Node) -> tuple[ir.Value, int, int] | None:
    """``(p, heads, head_size)`` when ``reshape`` is ``Reshape(p [B, S, H * D], shape)``
    to ``[B, S, H, D]``: the shape's first two dims are 0 (copied, unless ``allowzero``)
    or their known sizes, the last two split ``p``'s last dim; one of the sequence and
    the heads may be -1 (the size left)."""
    if reshape.op_type != "Reshape" or reshape.inputs[0] is None or len(reshape.inputs) < 2:
        return None
    source, shape = reshape.inputs[0], value_facts.constant_ints(reshape.inputs[1])
    hidden = value_facts.static_dim(source, 2)
    if value_facts.rank(source) != 3 or shape is None or len(shape) != 4 or hidden is None:
        return None
    head_size = shape[3]
    if head_size <= 0 or hidden % head_size or shape.count(-1) > 1:
        return None
    heads = hidden // head_size
    if shape[2] not in (heads, -1):
        return None
    copies = not reshape.attributes.get_int("allowzero", 0)

    def kept(axis: int, may_be_rest: bool) -> bool:
        size = shape[axis]
        return (
            (size == 0 and copies)
            or (size == -1 and may_be_rest)
            or (size > 0 and value_facts.static_dim(source, axis) == size)
        )

    return (source, heads, head_size) if kept(0, False) and kept(1, True) else None


def _unrotated(x: ir.Value) -> ir.Value:
    """The input of the 4-D contrib RotaryEmbedding (with num_heads) ``x`` comes from,
    or ``x``."""
    node = x.producer()
    if node is None or node.domain != MS_DOMAIN or node.op_type != "RotaryEmbedding":
        return x
    if not node.attributes.get_int("num_heads", 0) or node.inputs[0] is None:
        return x
    return node.inputs[0]


def projection_of(x: ir.Value) -> ir.Value | None:
    """The ``[B, S, H * D]`` projection ``x [B, H, S, D]`` is reshaped from, through a
    4-D rotary embedding, or None."""
    return _from_bsd(_unrotated(x))


def to_bsd(op: Any, x: ir.Value, hidden: int) -> Any:
    """``x [B, H, S, D]`` as ``[B, S, H * D]``: the projection it was made of (through a
    rotary embedding, made 3-D), else a Transpose and a Reshape."""
    source = _from_bsd(x)
    if source is not None:
        return source
    rotated = _unrotated(x)
    node = x.producer()
    if rotated is not x and node is not None:
        source = _from_bsd(rotated)
        if source is not None:
            attrs = {name: attr.value for name, attr in node.attributes.items()}
            return op.RotaryEmbedding(source, *node.inputs[1:], _domain=MS_DOMAIN, **attrs)
    transposed = op.Transpose(x, perm=[0, 2, 1, 3])
    return op.Reshape(transposed, op.Constant(value_ints=[0, 0, hidden]))


mha_rules_with_past = RewriteRuleSet(
    [
        MultiHeadAttention.rule(has_past_present=True, masked=True),
        MultiHeadAttention.rule(has_past_present=True, masked=False),
    ]
)
mha_rules_no_past = RewriteRuleSet(
    [
        MultiHeadAttention.rule(has_past_present=False, masked=True),
        MultiHeadAttention.rule(has_past_present=False, masked=False),
    ]
)
mha_rules = RewriteRuleSet([*mha_rules_with_past, *mha_rules_no_past])
"""Both."""

fuse_mha1 = fuse_function(
    mha_rules_with_past,
    "Fuse the intermediate SDPAs of ``model`` whose keys and values are a KV-cache Concat, "
    "with their projections' reshapes, into MultiHeadAttention with ``past_key`` / "
    "``past_value`` (in place); the number fused.",
)
fuse_mha2 = fuse_function(
    mha_rules_no_past,
    "Fuse the intermediate SDPAs of ``model`` without KV cache, with their projections' "
    "reshapes, into MultiHeadAttention (in place); the number fused.",
)


__all__ = [
    "MultiHeadAttention",
    "fuse_mha1",
    "fuse_mha2",
    "mha_rules",
    "mha_rules_no_past",
    "mha_rules_with_past",
    "projection_of",
    "to_bsd",
]
