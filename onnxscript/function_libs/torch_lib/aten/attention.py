"""Scaled dot-product attention (``aten::scaled_dot_product_attention`` and the fused
kernels' overloads torch decomposes it into) in opset-18 ops.

The graph follows torch's math kernel: ``sqrt(scale)`` multiplies Q and K each (smaller
products than scaling the scores, and torch's own form), one MatMul gives the scores, the
masks are applied once (bool and causal masks combined into one Where, a float mask one
Add), one Softmax, one MatMul with V. Like torch, a query row with every key masked out
gets zero weights where ONNX's Softmax gives NaN: one more Where, only when a mask is
given (a causal mask alone always keeps key 0). Sizes may be symbolic: the causal mask
is built from the run-time lengths of Q and K.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.constants import (
    array_constant,
    int64_constant,
    typed_constant,
)
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.helpers.facts import element_type, is_bool, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import is_static, scalar_like
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TAnyTensor, TFloat
from onnxscript.onnx_types import FLOAT, UINT64

LSE_BLOCK = 32
"""The efficient kernel's logsumexp is padded to a multiple of this many query rows."""


@dataclass
class Weights:
    """The attention probabilities, and the masked, scaled scores they came from (for a
    logsumexp output)."""

    probabilities: Any
    scores: Any


# -- the attention --------------------------------------------------------------------------


def attention_weights(
    query: Any,
    key: Any,
    attn_mask: Any | None,
    is_causal: bool,
    scale: Any | None,
    enable_gqa: bool = False,
) -> Weights:
    """``softmax(Q K^T * scale + masks)``, rows with every key masked out zero; with
    ``enable_gqa`` each key head serves its group of query heads."""
    root = _root_scale(query, scale)
    key_t = op.Mul(op.Transpose(key, perm=_swap_last_two(rank(key))), root)
    if enable_gqa:
        key_t = repeat_heads(query, key, key_t)
    scores = op.MatMul(op.Mul(query, root), key_t)
    keep = _causal_mask(query, key) if is_causal else None
    if attn_mask is not None and is_bool(attn_mask):
        keep = attn_mask if keep is None else op.And(keep, attn_mask)
        return _masked_softmax(scores, keep, query)
    if attn_mask is not None:
        bias = attn_mask if keep is None else op.Where(keep, attn_mask, _minus_inf(query))
        return _biased_softmax(scores, bias, query)
    if keep is not None:  # causal only: every row keeps key 0
        scores = op.Where(keep, scores, _minus_inf(query))
    return Weights(op.Softmax(scores, axis=-1), scores)


def _minus_inf(like: Any) -> Any:
    return scalar_like(-math.inf, like)


def _masked_softmax(scores: Any, keep: Any, query: Any) -> Weights:
    """Softmax over the keys ``keep`` allows; 0 elsewhere, also in rows that allow none
    (where ONNX's Softmax gives NaN and torch gives 0)."""
    scores = op.Where(keep, scores, _minus_inf(query))
    probabilities = op.Softmax(scores, axis=-1)
    return Weights(op.Where(keep, probabilities, scalar_like(0.0, query)), scores)


def _biased_softmax(scores: Any, bias: Any, query: Any) -> Weights:
    """Softmax of ``scores + bias``; a row whose bias is all -inf gets 0 as in torch (a
    -inf weight is 0 anyway, so zeroing every -inf place does it)."""
    scores = op.Add(scores, bias)
    probabilities = op.Softmax(scores, axis=-1)
    masked = op.IsInf(bias, detect_positive=0)
    return Weights(op.Where(masked, scalar_like(0.0, query), probabilities), scores)


def _swap_last_two(count: int) -> list[int]:
    return [*range(count - 2), count - 1, count - 2]


def _root_scale(query: Any, scale: Any | None) -> Any:
    """``sqrt(scale)`` in the query's type; torch's default scale is ``1/sqrt(E)``."""
    if scale is None:
        depth = static_dim(query, -1)
        if depth is None:
            length = op.CastLike(op.Shape(query, start=-1), query)
            return op.Pow(length, scalar_like(-0.25, query))
        return scalar_like(depth**-0.25, query)
    known = _known_number(scale)
    if known is not None:
        return scalar_like(math.sqrt(known), query)
    return op.Sqrt(op.CastLike(scale, query))


def _known_number(value: Any) -> float | None:
    """A scalar known while tracing: a Python number, or the value of the ``Constant``
    torch.onnx makes of a number given for an optional input (``float? scale``)."""
    if is_static(value):
        return float(value)
    producer = value.producer() if isinstance(value, ir.Value) else None
    if producer is None or producer.op_type != "Constant" or producer.domain != "":
        return None
    attribute = producer.attributes.get("value")
    if attribute is None or attribute.type != ir.AttributeType.TENSOR:
        return None
    array = np.asarray(attribute.value.numpy())
    return float(array.item()) if array.size == 1 else None


def _causal_mask(query: Any, key: Any) -> Any:
    """The [L, S] bool mask of torch's ``is_causal``: query i sees keys 0..i (aligned
    top-left when L != S), a constant when both lengths are static."""
    rows, columns = static_dim(query, -2), static_dim(key, -2)
    if rows is not None and columns is not None:
        return array_constant(np.tri(rows, columns, dtype=np.bool_))
    shape = op.Concat(_length(query, rows), _length(key, columns), axis=0)
    ones = op.ConstantOfShape(shape, value=ir.tensor(np.array([True])))
    return op.Trilu(ones, upper=0)


def _length(value: Any, static: int | None) -> Any:
    """Dim -2 of ``value`` as a 1-D INT64 vector."""
    if static is not None:
        return array_constant(np.array([static], dtype=np.int64))
    return op.Shape(value, start=-2, end=-1)


def _dropout(probabilities: Any, dropout_p: Any) -> Any:
    """torch's dropout of the weights (random: zeroes with probability p, scales the rest
    by 1/(1-p)); nothing when p is 0."""
    if is_static(dropout_p) and float(dropout_p) == 0.0:
        return probabilities
    if is_static(dropout_p) and float(dropout_p) >= 1.0:
        return op.Mul(probabilities, scalar_like(0.0, probabilities))
    if is_static(dropout_p):
        ratio = typed_constant(float(dropout_p), ir.DataType.FLOAT)
    else:
        ratio = op.Cast(dropout_p, to=FLOAT.dtype)
    training = array_constant(np.array(True))
    output, _ = op.Dropout(probabilities, ratio, training, _outputs=2)
    return output


def repeat_heads(query: Any, source: Any, kv: Any) -> Any:
    """``kv`` (``source``, the function's input, or a value made from it with the same
    heads) with each head (dim -3) repeated for the query heads sharing it: torch's
    ``enable_gqa``, ``repeat_interleave(Hq // Hkv, -3)``, as one Gather."""
    heads, kv_heads = static_dim(query, -3), static_dim(source, -3)
    if heads is not None and kv_heads is not None:
        if heads == kv_heads:
            return kv
        owners = np.arange(heads, dtype=np.int64) // (heads // kv_heads)
        return op.Gather(kv, array_constant(owners), axis=-3)
    count = op.Gather(op.Shape(query), -3)  # rank 0
    group = op.Div(count, op.Gather(op.Shape(source), -3))
    return op.Gather(kv, op.Div(op.Range(0, count, 1), group), axis=-3)


def _logsumexp(weights: Weights, query: Any, masked: bool) -> Any:
    """torch's logsumexp output: over the keys of the masked, scaled scores, in FLOAT for
    16-bit queries (the computation type), else in the query's type. A row a mask leaves
    no key gets 0 (the CPU kernel's value; the sum is -inf)."""
    lse = op.ReduceLogSumExp(weights.scores, [-1], keepdims=0)
    if masked:
        lse = op.Where(op.IsInf(lse, detect_positive=0), scalar_like(0.0, query), lse)
    if element_type(query) in (ir.DataType.FLOAT16, ir.DataType.BFLOAT16):
        return op.Cast(lse, to=FLOAT.dtype)
    return lse


def _attend(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any | None,
    dropout_p: Any,
    is_causal: bool,
    scale: Any | None,
    enable_gqa: bool = False,
) -> tuple[Any, Weights]:
    weights = attention_weights(query, key, attn_mask, is_causal, scale, enable_gqa)
    if enable_gqa:
        value = repeat_heads(query, value, value)
    return op.MatMul(_dropout(weights.probabilities, dropout_p), value), weights


# -- the overloads --------------------------------------------------------------------------


@aten("aten::scaled_dot_product_attention")
def scaled_dot_product_attention(
    query: TFloat,
    key: TFloat,
    value: TFloat,
    attn_mask: TAnyTensor | None = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
    enable_gqa: bool = False,
) -> TFloat:
    """scaled_dot_product_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0., bool is_causal=False, *, float? scale=None, bool enable_gqa=False) -> Tensor"""
    output, _ = _attend(query, key, value, attn_mask, dropout_p, is_causal, scale, enable_gqa)
    return output


@aten("aten::_scaled_dot_product_flash_attention_for_cpu")
def scaled_dot_product_flash_attention_for_cpu(
    query: TFloat,
    key: TFloat,
    value: TFloat,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    attn_mask: TAnyTensor | None = None,
    scale: float | None = None,
) -> tuple[TFloat, TFloat]:
    """_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, float dropout_p=0., bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor output, Tensor logsumexp)

    The output and the logsumexp [B, H, L] of each query row's scores.
    """
    output, weights = _attend(query, key, value, attn_mask, dropout_p, is_causal, scale)
    return output, _logsumexp(weights, query, attn_mask is not None)


@aten("aten::_scaled_dot_product_efficient_attention")
def scaled_dot_product_efficient_attention(
    query: TFloat,
    key: TFloat,
    value: TFloat,
    attn_bias: TAnyTensor | None,
    compute_log_sumexp: bool,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: float | None = None,
) -> tuple[TFloat, FLOAT, INT64, INT64]:
    """_scaled_dot_product_efficient_attention(Tensor query, Tensor key, Tensor value, Tensor? attn_bias, bool compute_log_sumexp, float dropout_p=0., bool is_causal=False, *, float? scale=None) -> (Tensor output, Tensor log_sumexp, Tensor philox_seed, Tensor philox_offset)

    The output; the logsumexp, its rows padded (with zeros) to a multiple of 32 as the
    CUDA kernel's (or [B, H, 0] when not asked for); the dropout seed and offset torch
    returns (zeros: ONNX's Dropout has no such state)."""
    output, weights = _attend(query, key, value, attn_bias, dropout_p, is_causal, scale)
    if compute_log_sumexp:
        lse = _logsumexp(weights, query, attn_bias is not None)
        lse = _padded_rows(op.Cast(lse, to=FLOAT.dtype), query)
    else:
        lse = op.ConstantOfShape(op.Concat(op.Shape(query, end=2), int64_constant([0]), axis=0))
    seed = array_constant(np.array(0, dtype=np.int64))
    return output, lse, seed, seed


def _padded_rows(lse: Any, query: Any) -> Any:
    """``lse`` [B, H, L] padded with zeros to [B, H, ceil(L / 32) * 32]."""
    rows = static_dim(query, -2)
    if rows is not None:
        return op.Pad(lse, [0, 0, 0, 0, 0, -rows % LSE_BLOCK])
    missing = op.Mod(op.Neg(op.Shape(query, start=-2, end=-1)), int64_constant([LSE_BLOCK]))
    return op.Pad(lse, op.Concat(int64_constant([0] * 5), missing, axis=0))


@aten("aten::_scaled_dot_product_flash_attention")
def scaled_dot_product_flash_attention(
    query: TFloat,
    key: TFloat,
    value: TFloat,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    return_debug_mask: bool = False,
    scale: float | None = None,
) -> tuple[TFloat, FLOAT, INT64, INT64, INT64, INT64, UINT64, UINT64, TFloat]:
    """_scaled_dot_product_flash_attention(Tensor query, Tensor key, Tensor value, float dropout_p=0., bool is_causal=False, bool return_debug_mask=False, *, float? scale=None) -> (Tensor output, Tensor logsumexp, Tensor cum_seq_q, Tensor cum_seq_k, SymInt max_q, SymInt max_k, Tensor rng_state, Tensor unused, Tensor debug_attn_mask)

    The CUDA kernel's nine outputs: the output; the logsumexp [B, H, L] in FLOAT;
    cum_seq_q and cum_seq_k (None in torch: empty here); max_q and max_k (the lengths);
    the dropout state (zeros of torch's types); the debug mask (empty, or refused)."""
    if return_debug_mask:
        raise NotImplementedError(
            "_scaled_dot_product_flash_attention with return_debug_mask=True: the debug "
            "mask encodes the CUDA kernel's dropout and blocking, which ONNX has no form of"
        )
    output, weights = _attend(query, key, value, None, dropout_p, is_causal, scale)
    lse = op.Cast(_logsumexp(weights, query, False), to=FLOAT.dtype)
    nothing = array_constant(np.zeros([0], dtype=np.int64))
    seed = array_constant(np.zeros([2], dtype=np.uint64))
    offset = array_constant(np.array(0, dtype=np.uint64))
    debug = op.CastLike(array_constant(np.zeros([0], dtype=np.float32)), query)
    return (
        output,
        lse,
        nothing,
        nothing,
        _length_scalar(query),
        _length_scalar(key),
        seed,
        offset,
        debug,
    )


def _length_scalar(value: Any) -> Any:
    """Dim -2 (the sequence length) as a rank-0 INT64: torch's SymInt outputs."""
    static = static_dim(value, -2)
    if static is not None:
        return typed_constant(static, ir.DataType.INT64)
    return op.Gather(op.Shape(value), -2)


__all__ = [
    "Weights",
    "attention_weights",
    "repeat_heads",
    "scaled_dot_product_attention",
    "scaled_dot_product_efficient_attention",
    "scaled_dot_product_flash_attention",
    "scaled_dot_product_flash_attention_for_cpu",
]
