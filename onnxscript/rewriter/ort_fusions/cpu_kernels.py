"""What onnxruntime's CPU kernels of the ops the fusions emit accept: element types,
ranks, head sizes, layouts. Measured on onnxruntime 1.32 by building each op alone and
running it (``tests/rewriter/ort_fusions/test_cpu_kernels.py`` runs every limit written
here against the installed onnxruntime, so a release that moves one fails that test).

A fusion asks here before it emits an op. Each function returns None when the CPU kernel
runs the case, else the reason it does not; the fusion's check fails with that reason,
so that a ``MatchingTracer`` shows it. Limits onnxruntime checks only on the sizes of a
run (a GroupQueryAttention with a past and ``batch > 1`` and ``sequence > 1``; position
ids past the rotary caches) are functions of those sizes, for the fusions that know them
statically.
"""

from __future__ import annotations

from typing import Literal

import onnx_ir as ir

_F = ir.DataType.FLOAT
_F16 = ir.DataType.FLOAT16
_BF16 = ir.DataType.BFLOAT16
_F64 = ir.DataType.DOUBLE

ELEMENT_TYPES: dict[str, frozenset[ir.DataType]] = {
    "Attention": frozenset({_F, _F16}),
    "BiasGelu": frozenset({_F, _F16}),
    "FastGelu": frozenset({_F, _F16, _F64}),
    "FusedMatMul": frozenset({_F, _F16, _F64}),
    "Gelu": frozenset({_F, _F16}),
    "GroupQueryAttention": frozenset({_F, _F16}),
    "MultiHeadAttention": frozenset({_F, _F16}),
    "RotaryEmbedding": frozenset({_F, _F16}),
    "SimplifiedLayerNormalization": frozenset({_F, _F16, _F64, _BF16}),
    "SkipLayerNormalization": frozenset({_F, _F16, _BF16}),
    "SkipSimplifiedLayerNormalization": frozenset({_F, _F16, _BF16}),
}
"""The element types of the floating-point tensors each op's CPU kernel takes (its
other inputs: position ids int64, ``seqlens_k`` int32, ...). ``SimplifiedLayerNormalization``
is registered in the default domain; it computes in float32 (double for double) whatever
its ``stash_type``. FastGelu of double runs as a function of ONNX ops; Gelu and BiasGelu
of double do not."""

KVLayout = Literal["BSD", "BNSH"]
"""MultiHeadAttention's keys and values: 3-D ``[batch, kv_seq, heads * head]`` or 4-D
``[batch, heads, kv_seq, head]``."""


def element_type(op_type: str, dtype: ir.DataType | None) -> str | None:
    """None when onnxruntime's CPU ``op_type`` takes ``dtype``, else why not."""
    allowed = ELEMENT_TYPES[op_type]
    if dtype in allowed:
        return None
    names = ", ".join(sorted(t.name.lower() for t in allowed))
    given = dtype.name.lower() if dtype is not None else "an unknown type"
    return f"onnxruntime's CPU {op_type} takes {names}, not {given}"


def multi_head_attention(
    dtype: ir.DataType | None,
    *,
    num_heads: int,
    hidden: int | None,
    kv_layout: KVLayout,
    qk_head_size: int | None = None,
    v_head_size: int | None = None,
    past: bool = False,
) -> str | None:
    """``MultiHeadAttention`` of a 3-D query ``[B, S, hidden]`` with ``num_heads``: the
    hidden size a multiple of the heads; 4-D keys and values of one shape (a value head
    size other than the query's only with 3-D ones, and without a past)."""
    reason = element_type("MultiHeadAttention", dtype)
    if reason is not None:
        return reason
    if num_heads <= 0 or hidden is None or hidden % num_heads:
        return f"the query's hidden size ({hidden}) is not a known multiple of {num_heads} heads"
    head = hidden // num_heads
    if qk_head_size is not None and qk_head_size != head:
        return f"the key's head size ({qk_head_size}) is not the query's ({head})"
    if v_head_size is None or v_head_size == head:
        return None
    if kv_layout == "BNSH":
        return (
            f"4-D keys and values must have one shape: value head size {v_head_size}, "
            f"key head size {head}"
        )
    if past:
        return f"with a past, the value head size ({v_head_size}) must be the key's ({head})"
    return None


def attention(
    dtype: ir.DataType | None,
    *,
    input_rank: int | None,
    num_heads: int,
    qk_hidden: int | None,
    v_hidden: int | None,
    past: bool = False,
) -> str | None:
    """``Attention`` (packed projection of a 3-D input): hidden sizes multiples of the
    heads; with a past, the value's hidden size the key's."""
    reason = element_type("Attention", dtype)
    if reason is not None:
        return reason
    if input_rank != 3:
        return f"the input is {input_rank}-D, not 3-D"
    for what, size in (("query/key", qk_hidden), ("value", v_hidden)):
        if num_heads <= 0 or size is None or size % num_heads:
            return f"the {what} hidden size ({size}) is not a known multiple of {num_heads} heads"
    if past and qk_hidden != v_hidden:
        return f"with a past, the value hidden size ({v_hidden}) must be the key's ({qk_hidden})"
    return None


def group_query_attention(
    dtype: ir.DataType | None,
    *,
    num_heads: int,
    kv_num_heads: int,
    head_size: int | None,
    rotary: bool = False,
) -> str | None:
    """``GroupQueryAttention``: the heads a multiple of the key/value heads, the head
    size a multiple of 8 (16 with the op's own rotation)."""
    reason = element_type("GroupQueryAttention", dtype)
    if reason is not None:
        return reason
    if num_heads <= 0 or kv_num_heads <= 0 or num_heads % kv_num_heads:
        return f"{num_heads} heads are not a multiple of {kv_num_heads} key/value heads"
    multiple = 16 if rotary else 8
    if head_size is None or head_size % multiple:
        return f"the head size ({head_size}) is not a known multiple of {multiple}"
    return None


def group_query_attention_past(batch: int | None, sequence: int | None) -> str | None:
    """``GroupQueryAttention`` with a past for inputs of ``batch`` and new ``sequence``
    (None: not known statically): the kernel rejects ``batch > 1`` with ``sequence > 1``
    when run ("batch_size must be 1 when sequence_length > 1 and past context is
    given"), so one of them must be statically 1."""
    if batch == 1 or sequence == 1:
        return None
    return "a past with batch and new sequence length that may both exceed 1"


def skip_normalization(op_type: str, dtype: ir.DataType | None, rank: int | None) -> str | None:
    """``SkipLayerNormalization`` / ``SkipSimplifiedLayerNormalization``: a 2-D or 3-D
    input (the skip of its shape, or its last two dims), 1-D gamma, beta and bias of the
    hidden size (not checked here: the fusions match them so)."""
    reason = element_type(op_type, dtype)
    if reason is not None:
        return reason
    if rank not in (2, 3):
        return f"the input is {rank}-D, not 2-D or 3-D"
    return None


def rotary_embedding(
    dtype: ir.DataType | None,
    *,
    input_rank: int | None,
    position_ids_rank: int | None,
    same_batch: bool,
) -> str | None:
    """``RotaryEmbedding`` (com.microsoft): a 3-D or 4-D input ``[B, N, S, H]``, int64
    position ids ``[B, S]`` of the input's batch (a batch of 1 is not broadcast) or a
    1-element offset ``[1]``; caches ``[max_position, rotary_dim / 2]`` (position ids
    past them are rejected when run)."""
    reason = element_type("RotaryEmbedding", dtype)
    if reason is not None:
        return reason
    if input_rank not in (3, 4):
        return f"the input is {input_rank}-D, not 3-D or 4-D"
    if position_ids_rank == 2 and not same_batch:
        return "the position ids' batch is not the input's (the kernel does not broadcast it)"
    if position_ids_rank not in (1, 2):
        return f"the position ids are {position_ids_rank}-D, not [batch, seq] or [1]"
    return None


def gelu(op_type: str, dtype: ir.DataType | None, rank: int | None) -> str | None:
    """``Gelu``, ``FastGelu`` (with or without bias) and ``BiasGelu``: FastGelu and
    BiasGelu need an input of rank 1 or more (their bias is 1-D of its last dim)."""
    reason = element_type(op_type, dtype)
    if reason is not None:
        return reason
    if op_type != "Gelu" and (rank is None or rank < 1):
        return f"{op_type} needs an input of known rank 1 or more"
    return None


def fused_matmul(
    dtype: ir.DataType | None,
    *,
    rank_a: int | None,
    rank_b: int | None,
    trans_a: int = 0,
    trans_b: int = 0,
    trans_batch_a: int = 0,
    trans_batch_b: int = 0,
) -> str | None:
    """``FusedMatMul``: ``transBatchA``/``transBatchB`` only with operands of one rank
    (3 or more); ``transA`` with a 1-D ``B`` runs but computes wrong results."""
    reason = element_type("FusedMatMul", dtype)
    if reason is not None:
        return reason
    if rank_a is None or rank_b is None or rank_a < 1 or rank_b < 1:
        return "the operands' ranks are not known (1 or more)"
    if (trans_batch_a or trans_batch_b) and (rank_a != rank_b or rank_a < 3):
        return f"transBatch with operands of ranks {rank_a} and {rank_b}"
    if trans_a and rank_b == 1:
        return "transA with a 1-D B (onnxruntime computes it wrong)"
    return None


__all__ = [
    "ELEMENT_TYPES",
    "KVLayout",
    "attention",
    "element_type",
    "fused_matmul",
    "gelu",
    "group_query_attention",
    "group_query_attention_past",
    "multi_head_attention",
    "rotary_embedding",
    "skip_normalization",
]
