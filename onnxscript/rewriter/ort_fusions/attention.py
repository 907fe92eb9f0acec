"""MultiHeadAttention whose query, key and value are projections of one input ``x`` to
``com.microsoft::Attention(x, W, b)``, which projects itself: the three equal parts of
one packed projection (GPT-2's ``c_attn``: ``x @ W [+ b]`` cut by a Split or three
Slices of the last axis, maybe computed as a 2-D Gemm between Reshapes), or three
projections ``x @ Wq``, ``x @ Wk``, ``x @ Wv`` by constant weights of one width (their
weights concatenated). The projection bias is the Add before the cut or
MultiHeadAttention's own ``bias`` (after :mod:`.mha_bias`).

With a KV cache, MultiHeadAttention's ``past_key`` / ``past_value`` must be the two
halves of one stacked ``past [2, B, H, P, D]`` (``Squeeze(Slice(past, i, i + 1, axis
0), 0)`` or ``Gather(past, i, axis 0)``), which becomes Attention's ``past``; its
``present`` is cut back into ``present_key`` / ``present_value``."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.ort_fusions import cpu_kernels
from onnxscript.rewriter.ort_fusions._fusion_ops import MS_DOMAIN
from onnxscript.rewriter.pattern import MatchResult, RewriteRuleClassBase, RewriteRuleSet

Projection = tuple[ir.Value, ir.Value | np.ndarray | list[ir.Value], ir.Value | None]
"""``(x, W, b)``: the input, the packed weight (a value, the concatenated constants, or
the three weights to concatenate) and the packed bias (None: none)."""


class AttentionFusion(RewriteRuleClassBase):
    """``MultiHeadAttention(q, k, v, [bias], <no key mask>, [attention_bias], [past_key,
    past_value])`` of projections of one input (see the module) to Attention;
    ``has_past``: the op has a KV cache (and present outputs). ``no_slice`` is accepted
    for 0.7's signature: the rule takes a packed projection or three projections."""

    def __init__(self, name: str | None = None, *, has_past: bool = False, no_slice: bool = False):
        del no_slice
        super().__init__(name or ("attention_with_past" if has_past else "attention"))
        self._has_past = has_past

    def pattern(self, op: Any, q: Any, k: Any, v: Any) -> Any:
        outputs = ["out", "present_key", "present_value"] if self._has_past else ["out"]
        return op.MultiHeadAttention(
            q, k, v, _allow_other_inputs=True, _domain=MS_DOMAIN, _outputs=outputs
        )

    def check(
        self, context: Any, q: ir.Value, k: ir.Value, v: ir.Value, out: ir.Value, **_: Any
    ) -> MatchResult:
        result = MatchResult()
        node = out.producer()
        assert node is not None
        inputs = list(node.inputs) + [None] * (8 - len(node.inputs))
        if len(node.inputs) > 8 or inputs[4] is not None:
            return result.fail("the op has a key padding mask or extra inputs", out)
        if self._has_past and _stacked_past(inputs[6], inputs[7]) is None:
            return result.fail("past_key and past_value are not halves of one past", out)
        if not self._has_past and (inputs[6] is not None or inputs[7] is not None):
            return result.fail("the op has a past but no present outputs", out)
        found = qkv_projection(q, k, v)
        if found is None:
            return result.fail("q, k, v are not equal projections of one 3-D input", [q, k, v])
        if found[2] is not None and inputs[3] is not None:
            return result.fail("the projections and the op both add a bias", out)
        hidden = value_facts.static_dim(q, 2)
        refused = cpu_kernels.attention(
            value_facts.tensor_dtype(found[0]),
            input_rank=value_facts.rank(found[0]),
            num_heads=node.attributes.get_int("num_heads", 0),
            qk_hidden=hidden,
            v_hidden=hidden,
            past=self._has_past,
        )
        if refused is not None:
            return result.fail(refused, q)
        return result

    def rewrite(
        self, op: Any, q: ir.Value, k: ir.Value, v: ir.Value, out: ir.Value, **_: Any
    ) -> Any:
        node = out.producer()
        assert node is not None
        inputs = list(node.inputs) + [None] * (8 - len(node.inputs))
        found = qkv_projection(q, k, v)
        assert found is not None
        x, weight, bias = found
        if isinstance(weight, np.ndarray):
            weight = op.initializer(ir.tensor(weight), name=f"{q.name}_qkv_weight")
        elif isinstance(weight, list):
            weight = op.Concat(*weight, axis=1)
        if bias is None:
            bias = inputs[3]
        if bias is None:
            width = 3 * (value_facts.static_dim(q, 2) or 0)
            dtype = q.dtype or ir.DataType.FLOAT
            bias = op.Constant(value=ir.tensor(np.zeros(width, dtype=dtype.numpy())))
        attrs = {key: attr.value for key, attr in node.attributes.items()}
        if not self._has_past:
            return op.Attention(x, weight, bias, None, None, inputs[5], _domain=MS_DOMAIN, **attrs)
        past = _stacked_past(inputs[6], inputs[7])
        result, present = op.Attention(
            x, weight, bias, None, past, inputs[5], _domain=MS_DOMAIN, _outputs=2, **attrs
        )
        halves = [
            op.Squeeze(
                op.Slice(
                    present,
                    op.Constant(value_ints=[i]),
                    op.Constant(value_ints=[i + 1]),
                    op.Constant(value_ints=[0]),
                ),
                op.Constant(value_ints=[0]),
            )
            for i in (0, 1)
        ]
        return result, halves[0], halves[1]


def _stacked_past(past_key: ir.Value | None, past_value: ir.Value | None) -> ir.Value | None:
    """``past`` when ``past_key`` and ``past_value`` are its halves 0 and 1 on axis 0."""
    if past_key is None or past_value is None:
        return None
    key, value = _half_of(past_key), _half_of(past_value)
    if key is None or value is None or key[0] is not value[0] or (key[1], value[1]) != (0, 1):
        return None
    return key[0] if value_facts.rank(key[0]) in (5, None) else None


def _half_of(x: ir.Value) -> tuple[ir.Value, int] | None:
    """``(past, i)`` when ``x`` is ``Squeeze(Slice(past, [i], [i + 1], [0]), [0])`` or
    ``Gather(past, i, axis=0)``."""
    node = x.producer()
    if node is None or not node.inputs or node.inputs[0] is None:
        return None
    if node.op_type == "Gather" and len(node.inputs) == 2:
        index = value_facts.constant_ints(node.inputs[1])
        scalar = node.inputs[1] is not None and value_facts.rank(node.inputs[1]) == 0
        if node.attributes.get_int("axis", 0) == 0 and index is not None and scalar:
            return node.inputs[0], index[0]
        return None
    if node.op_type != "Squeeze" or len(node.inputs) != 2:
        return None
    if value_facts.constant_ints(node.inputs[1]) != [0]:
        return None
    sliced = node.inputs[0].producer()
    if sliced is None or sliced.op_type != "Slice" or len(sliced.inputs) < 4:
        return None
    starts, ends, axes = (value_facts.constant_ints(sliced.inputs[i]) for i in (1, 2, 3))
    steps = value_facts.constant_ints(sliced.inputs[4]) if len(sliced.inputs) > 4 else [1]
    if axes != [0] or steps != [1] or starts is None or ends is None or sliced.inputs[0] is None:
        return None
    if len(starts) != 1 or ends != [starts[0] + 1]:
        return None
    return sliced.inputs[0], starts[0]


def qkv_projection(q: ir.Value, k: ir.Value, v: ir.Value) -> Projection | None:
    """``(x, W, b)`` when q, k and v are equal-width projections of one 3-D ``x`` (see
    the module), else None."""
    width = value_facts.static_dim(q, 2)
    if (
        width is None
        or value_facts.static_dim(k, 2) != width
        or value_facts.static_dim(v, 2) != width
    ):
        return None
    packed = _packed_source(q, k, v, width)
    if packed is not None:
        return packed_projection(packed)
    return _separate_projections(q, k, v)


def _packed_source(q: ir.Value, k: ir.Value, v: ir.Value, width: int) -> ir.Value | None:
    """The packed value q, k and v are consecutive thirds of (last axis), by one Split or
    three Slices; None otherwise."""
    nodes = [x.producer() for x in (q, k, v)]
    if any(n is None for n in nodes):
        return None
    first = nodes[0]
    assert first is not None
    if first.op_type == "Split" and all(n is first for n in nodes):
        if [first.outputs.index(x) for x in (q, k, v)] != [0, 1, 2] or len(first.outputs) != 3:
            return None
        packed = first.inputs[0]
        if packed is None or first.attributes.get_int("axis", 0) not in (2, -1):
            return None
        sizes = value_facts.constant_ints(first.inputs[1]) if len(first.inputs) > 1 else None
        if sizes is not None and sizes != [width] * 3:
            return None
        return packed if value_facts.static_dim(packed, 2) == 3 * width else None
    packed = first.inputs[0] if first.inputs else None
    for index, node in enumerate(nodes):
        assert node is not None
        if node.op_type != "Slice" or not node.inputs or node.inputs[0] is not packed:
            return None
        if _last_axis_slice(node) != (index * width, (index + 1) * width):
            return None
    if packed is None or value_facts.static_dim(packed, 2) != 3 * width:
        return None
    return packed


def _last_axis_slice(node: ir.Node) -> tuple[int, int] | None:
    """``(start, end)`` of a Slice of the last axis of a 3-D value with step 1."""
    inputs = list(node.inputs) + [None] * (5 - len(node.inputs))
    starts, ends = value_facts.constant_ints(inputs[1]), value_facts.constant_ints(inputs[2])
    axes = value_facts.constant_ints(inputs[3]) if inputs[3] is not None else None
    steps = value_facts.constant_ints(inputs[4]) if inputs[4] is not None else [1]
    if starts is None or ends is None or len(starts) != 1 or len(ends) != 1:
        return None
    if axes not in ([2], [-1]) or steps != [1]:
        return None
    return starts[0], ends[0]


def _separate_projections(q: ir.Value, k: ir.Value, v: ir.Value) -> Projection | None:
    """``(x, [Wq | Wk | Wv], None)`` when q, k, v are ``MatMul(x, W)`` of one 3-D ``x``
    with 2-D weights of one shape and type (concatenated now when constants, by a
    Concat otherwise)."""
    weights: list[ir.Value] = []
    source = None
    for value in (q, k, v):
        node = value.producer()
        if node is None or node.op_type != "MatMul" or node.inputs[0] is None:
            return None
        if source is None:
            source = node.inputs[0]
        weight = node.inputs[1]
        if node.inputs[0] is not source or weight is None or value_facts.rank(weight) != 2:
            return None
        weights.append(weight)
    if source is None or value_facts.rank(source) != 3:
        return None
    shapes = {tuple(value_facts.static_dim(w, axis) for axis in (0, 1)) for w in weights}
    if len(shapes) != 1 or None in next(iter(shapes)) or len({w.dtype for w in weights}) != 1:
        return None
    found = [value_facts.constant_array(w, max_size=None) for w in weights]  # to be packed
    arrays = [a for a in found if a is not None]
    if len(arrays) == len(found):
        return source, np.concatenate(arrays, axis=1), None
    return source, weights, None


def packed_projection(packed: ir.Value) -> tuple[ir.Value, ir.Value, ir.Value | None] | None:
    """``(x, W, b)`` when ``packed [B, S, n]`` is ``x @ W [+ b]`` with ``x [B, S, m]``,
    ``W [m, n]`` and ``b [n]`` (constants or not), directly or as
    ``Reshape(Gemm(Reshape(x, [-1, m]), W[, b]), [B, S, n])``."""
    node = packed.producer()
    bias = None
    if node is not None and node.op_type == "Add" and node.inputs[1] is not None:
        bias, node = node.inputs[1], _producer(node.inputs[0])
        if value_facts.rank(bias) != 1:
            return None
    if node is not None and node.op_type == "Reshape":
        return _flattened_gemm(packed, node) if bias is None else None
    if node is None or node.op_type != "MatMul" or node.inputs[0] is None:
        return None
    x, weight = node.inputs[0], node.inputs[1]
    if weight is None or value_facts.rank(weight) != 2:
        return None
    same_rows = value_facts.same_dim_at(x, 0, packed, 0) and value_facts.same_dim_at(
        x, 1, packed, 1
    )
    return (x, weight, bias) if value_facts.rank(x) == 3 and same_rows else None


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
    if weight is None or value_facts.rank(weight) != 2:
        return None
    if bias is not None and value_facts.rank(bias) != 1:
        return None
    flatten = _producer(gemm.inputs[0])
    if flatten is None or flatten.op_type != "Reshape" or flatten.inputs[0] is None:
        return None
    x = flatten.inputs[0]
    same_rows = value_facts.same_dim_at(x, 0, packed, 0) and value_facts.same_dim_at(
        x, 1, packed, 1
    )
    if value_facts.rank(x) != 3 or not same_rows:
        return None
    return x, weight, bias


def _producer(value: ir.Value | None) -> ir.Node | None:
    return value.producer() if value is not None else None


attention_rules = RewriteRuleSet(
    [AttentionFusion.rule(has_past=False), AttentionFusion.rule(has_past=True)]
)


fuse_attention = fuse_function(
    attention_rules,
    "Fuse MultiHeadAttention on projections of one input into Attention (in place); the "
    "number fused. Run it after the MultiHeadAttention and bias fusions; the nodes they "
    "left unused are removed first (they still read the projections).",
    before=common.RemoveUnusedNodesPass(),
    after=common.RemoveUnusedNodesPass(),
)


__all__ = [
    "AttentionFusion",
    "attention_rules",
    "fuse_attention",
    "packed_projection",
    "qkv_projection",
]
