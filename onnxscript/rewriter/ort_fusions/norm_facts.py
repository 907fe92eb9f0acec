"""What the skip-normalization rules check on the values and nodes they matched: the
element types onnxruntime's kernels take, equal shapes, the normalized axis, the stash
type, 1-D vectors of the hidden size."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.rewriter.rules.fusion import facts

SKIP_NORM_TYPES = frozenset({ir.DataType.FLOAT, ir.DataType.FLOAT16, ir.DataType.BFLOAT16})
"""The types of SkipLayerNormalization and SkipSimplifiedLayerNormalization (no double)."""


def same_shape(a: ir.Value, b: ir.Value) -> bool:
    """Whether ``a`` and ``b`` are known to have one shape (dims equal or the same
    symbol): the skip ops add without broadcasting."""
    rank = facts.rank(a)
    if rank is None or facts.rank(b) != rank:
        return False
    return all(facts.same_dim(a, i, b, i) for i in range(rank))


def normalizes_last_axis(node: ir.Node, x: ir.Value) -> bool:
    """Whether the normalization ``node`` (``axis`` attribute, default -1) normalizes
    the last axis of ``x`` alone."""
    rank = facts.rank(x)
    axis = node.attributes.get_int("axis", -1)
    return rank is not None and axis in (-1, rank - 1)


def float_stash(node: ir.Node) -> bool:
    """Whether ``node`` computes its statistics in float32 (as the skip kernels do)."""
    return node.attributes.get_int("stash_type", int(ir.DataType.FLOAT)) == ir.DataType.FLOAT


def hidden_vector(vector: ir.Value, x: ir.Value) -> bool:
    """Whether ``vector`` is 1-D, of ``x``'s type and of its last dim."""
    return facts.rank(vector) == 1 and vector.dtype == x.dtype and facts.same_dim(vector, 0, x, -1)


__all__ = [
    "SKIP_NORM_TYPES",
    "float_stash",
    "hidden_vector",
    "normalizes_last_axis",
    "same_shape",
]
