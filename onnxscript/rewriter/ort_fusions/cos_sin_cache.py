"""An intermediate RotaryEmbedding whose cos / sin are computed from the position ids, as
transformers' rotary embedding exports them (``Cos|Sin(Concat(f, f))`` of ``f =
Cast(position_ids[..., None]) * inv_freq``, maybe cast again), to onnxruntime's
``com.microsoft::RotaryEmbedding(x, position_ids, cos_cache, sin_cache)`` with the caches
precomputed as initializers (``[max_positions, rotary_dim / 2]``; onnxruntime rejects
position ids past them). Positions ``Range(start, seq, 1)`` (a model without position-id
input) become the contrib op's one-element offset ``[start]``."""

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
from onnxscript.rewriter.ort_fusions import cpu_kernels
from onnxscript.rewriter.ort_fusions._fusion_ops import DOMAIN, MS_DOMAIN

MAX_POSITIONS = 4096
"""Rows of the caches made: the largest position id plus one the fused model accepts."""


class CosSinCacheFusion(RewriteRuleClassBase):
    """``RotaryEmbedding(x, Unsqueeze(Cos(a), 1), Unsqueeze(Sin(a), 1))`` of angles ``a =
    Concat(f, f)`` whose ``f`` comes from position ids and a constant ``inv_freq`` (read
    by :func:`_frequencies`) to the contrib op with caches."""

    def __init__(self, max_positions: int = MAX_POSITIONS) -> None:
        super().__init__("CosSinCache")
        self._max_positions = max_positions

    def pattern(self, op: Any, x: Any, cos: Any, sin: Any) -> Any:
        # Only the rotary embedding is matched (and replaced): the cos / sin computation
        # is usually shared by every layer, and is read by _angles.
        return op.RotaryEmbedding(x, cos, sin, _domain=DOMAIN, _outputs=["y"])

    def check(
        self, context: Any, x: ir.Value, cos: ir.Value, sin: ir.Value, y: ir.Value
    ) -> MatchResult:
        result = MatchResult()
        if value_facts.producer_attr_int(y, "interleaved", 0):
            return result.fail("the rotary embedding is interleaved", y)
        angles = _angles(cos, sin)
        if angles is None:
            return result.fail("cos and sin are not Unsqueeze(Cos|Sin(Concat(f, f)), 1)", cos)
        found = _frequencies(angles)
        if found is None:
            return result.fail("the angles are not positions times a constant inv_freq", cos)
        width = value_facts.static_dim(cos, -1)
        if width is None or 2 * found[1].size != width:
            return result.fail("inv_freq does not have rotary_dim / 2 numbers", cos)
        refused = cpu_kernels.rotary_embedding(
            value_facts.tensor_dtype(x),
            input_rank=value_facts.rank(x),
            position_ids_rank=1 if isinstance(found[0], int) else 2,
            same_batch=True,  # the rewrite expands position ids to the input's batch
        )
        if refused is not None:
            return result.fail(refused, x)
        return result

    def rewrite(self, op: Any, x: ir.Value, cos: ir.Value, sin: ir.Value, y: ir.Value) -> Any:
        freqs = _angles(cos, sin)
        assert freqs is not None
        found = _frequencies(freqs)
        assert found is not None
        positions, inv_freq = found
        if isinstance(positions, int):
            position_ids = op.Constant(value=ir.tensor(np.array([positions], dtype=np.int64)))
        else:
            position_ids = _batched(op, positions, x)
        cos, sin = _caches(op, x, inv_freq, self._max_positions)
        width = value_facts.producer_attr_int(y, "rotary_embedding_dim", 0)
        extra = {"rotary_embedding_dim": width} if width else {}
        heads = value_facts.producer_attr_int(y, "num_heads", 0)
        return op.RotaryEmbedding(
            x, position_ids, cos, sin, interleaved=0, num_heads=heads, _domain=MS_DOMAIN, **extra
        )


def _batched(op: Any, positions: ir.Value | tuple[ir.Value], x: ir.Value) -> Any:
    """The position ids as ``[batch, seq]`` of ``x``'s batch: onnxruntime's kernel does not
    broadcast a batch of 1 (1-D ids are unsqueezed first); Expanded to the batch unless
    it is known to be the input's."""
    if isinstance(positions, tuple):
        ids, same = op.Unsqueeze(positions[0], op.Constant(value_ints=[0])), False
        ones = value_facts.static_dim(x, 0) == 1
    else:
        ids, same = positions, value_facts.same_dim_at(positions, 0, x, 0)
        ones = value_facts.static_dim(x, 0) == 1 == value_facts.static_dim(positions, 0)
    if same or ones:
        return ids
    batch = op.Shape(x, start=0, end=1)
    return op.Expand(ids, op.Concat(batch, op.Shape(ids, start=1, end=2), axis=0))


def _angles(cos: ir.Value, sin: ir.Value) -> ir.Value | None:
    """``f`` when ``cos = Unsqueeze(Cos(Concat(f, f)), [1])`` and ``sin`` the same with
    Sin (of the same Concat), concatenated on the last axis; None otherwise."""
    concats = []
    for value, op_type in ((cos, "Cos"), (sin, "Sin")):
        unsqueeze = _producer(value)
        if unsqueeze is None or unsqueeze.op_type != "Unsqueeze" or len(unsqueeze.inputs) != 2:
            return None
        if value_facts.constant_ints(unsqueeze.inputs[1]) != [1]:
            return None
        trig = _producer(unsqueeze.inputs[0])
        if trig is None or trig.op_type != op_type:
            return None
        concat = _producer(trig.inputs[0])
        if concat is None or concat.op_type != "Concat" or len(concat.inputs) != 2:
            return None
        concats.append(concat)
    concat = concats[0]
    if concats[1] is not concat or concat.inputs[0] is not concat.inputs[1]:
        return None
    if concat.attributes.get_int("axis", 0) not in (2, -1):
        return None
    return concat.inputs[0]


def _frequencies(freqs: ir.Value) -> tuple[Positions, np.ndarray] | None:
    """The positions (the 2-D int64 position ids, or the start of ``Range(start, n, 1)``)
    and inv_freq (as float32) of ``freqs [B, S, rotary_dim / 2]``, maybe cast to float:

    * ``Mul(Cast(positions[..., None]), inv_freq)`` (either operand order), or
    * ``Transpose(MatMul(inv_freq [1, d, 1], Cast(positions[:, None, :])), [0, 2, 1])``
      (transformers' ``inv_freq_expanded @ position_ids_expanded``; the inv_freq maybe
      Expanded to the batch size)."""
    node = freqs.producer()
    if freqs.dtype != ir.DataType.FLOAT:
        return None
    if node is not None and node.op_type == "Cast":
        node = _producer(node.inputs[0])
    if node is not None and node.op_type == "Transpose":
        if list(node.attributes.get_ints("perm", [])) != [0, 2, 1]:
            return None
        product = _producer(node.inputs[0])
        if product is None or product.op_type != "MatMul":
            return None
        inv_freq = _constant_vector(_unexpanded(product.inputs[0]))
        positions = _positions(product.inputs[1], 1)
        return (positions, inv_freq) if inv_freq is not None and positions is not None else None
    if node is None or node.op_type != "Mul":
        return None
    for cast_side, const_side in ((0, 1), (1, 0)):
        inv_freq = _constant_vector(node.inputs[const_side])
        positions = _positions(node.inputs[cast_side], 2)
        if inv_freq is not None and positions is not None:
            return positions, inv_freq
    return None


def _producer(value: ir.Value | None) -> ir.Node | None:
    return value.producer() if value is not None else None


def _is_float_cast(node: ir.Node) -> bool:
    return node.op_type == "Cast" and node.attributes.get_int("to", 0) == ir.DataType.FLOAT


def _unexpanded(value: ir.Value | None) -> ir.Value | None:
    """The input of ``Expand(x, shape)`` computing ``value``, or ``value``."""
    node = _producer(value)
    if node is not None and node.op_type == "Expand":
        return node.inputs[0]
    return value


Positions = ir.Value | int | tuple[ir.Value]
"""2-D position ids, the start of a Range of positions, or 1-D position ids (a 1-tuple)."""


def _positions(value: ir.Value | None, axis: int) -> Positions | None:
    """``Cast(Unsqueeze(position_ids, [axis]))`` (the Cast to float before or after the
    Unsqueeze), the same of 1-D position ids unsqueezed on ``[0, axis]``, or of ``Range(s,
    n, 1)``: the position ids (1-D ones as a 1-tuple) or ``s``."""
    node = _producer(value)
    if node is None or len(node.inputs) < 1:
        return None
    if _is_float_cast(node):
        unsqueeze, source = _producer(node.inputs[0]), None
        if unsqueeze is not None and unsqueeze.op_type == "Unsqueeze":
            source = unsqueeze.inputs[0]
    elif node.op_type == "Unsqueeze":
        unsqueeze, cast = node, _producer(node.inputs[0])
        source = cast.inputs[0] if cast is not None and _is_float_cast(cast) else None
    else:
        return None
    if unsqueeze is None or len(unsqueeze.inputs) != 2:
        return None
    axes = value_facts.constant_ints(unsqueeze.inputs[1])
    if source is None or source.dtype != ir.DataType.INT64:
        return None
    if axes == [axis] and value_facts.rank(source) == 2:
        return source
    steps = source.producer()
    if (
        axes == [0, axis]
        and value_facts.rank(source) == 1
        and (steps is None or steps.op_type != "Range")
    ):
        return (source,)  # 1-D position ids: the batch axis added for the contrib op
    if axes != [0, axis] or steps is None or steps.op_type != "Range":
        return None
    start, step = (
        value_facts.constant_ints(steps.inputs[0]),
        value_facts.constant_ints(steps.inputs[2]),
    )
    return start[0] if start is not None and len(start) == 1 and step == [1] else None


def _constant_vector(value: ir.Value | None) -> np.ndarray | None:
    """A constant float vector (any rank with one non-1 axis) as 1-D float32, or None."""
    array = value_facts.constant_array(value)
    if array is None or array.dtype.kind != "f" or array.size != max(array.shape, default=1):
        return None
    return array.astype(np.float32).ravel()


def _caches(op: Any, x: ir.Value, freqs: np.ndarray, rows: int) -> tuple[ir.Value, ir.Value]:
    """The cos and sin caches for ``freqs`` (computed in float32 as the model does),
    shared by every rotary embedding of the graph with the same frequencies."""
    dtype = x.dtype
    assert dtype is not None
    key = hash((freqs.tobytes(), rows, dtype)) & 0xFFFFFFFF
    names = (f"cos_cache_{key:08x}", f"sin_cache_{key:08x}")
    graph = x.graph
    if graph is not None and all(n in graph.initializers for n in names):
        return graph.initializers[names[0]], graph.initializers[names[1]]
    angles = np.arange(rows, dtype=np.float32)[:, None] * freqs[None, :]
    tables = (np.cos(angles), np.sin(angles))
    made = [
        op.initializer(ir.tensor(t.astype(dtype.numpy()), name=n), name=n)
        for t, n in zip(tables, names)
    ]
    return made[0], made[1]


cos_sin_cache_rules = RewriteRuleSet([CosSinCacheFusion.rule()])


fuse_cos_sin_cache = fuse_function(
    cos_sin_cache_rules,
    """Complete the intermediate rotary embeddings whose cos / sin come from the position
    ids into ``com.microsoft::RotaryEmbedding`` (in place); the number fused.""",
    after=common.RemoveUnusedNodesPass(),
)


__all__ = ["MAX_POSITIONS", "CosSinCacheFusion", "cos_sin_cache_rules", "fuse_cos_sin_cache"]
