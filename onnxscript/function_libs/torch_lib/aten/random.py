"""Random tensors shaped like a tensor or a size list: bernoulli, multinomial, normal,
rand_like, randn_like, randint and randint_like. ONNX's random ops draw from their own
generator, so values never match torch's: only shapes, element types and ranges do.

Bounds and moments may be symbolic (a ``SymInt``/``SymFloat`` handed over as a rank-0
value); a static one becomes an attribute or a typed constant."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten.creation import normal_random, uniform_random
from onnxscript.function_libs.torch_lib.helpers.complex_layout import PART_TYPE
from onnxscript.function_libs.torch_lib.helpers.facts import element_type, is_floating, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import (
    as_int64,
    is_static,
    scalar_like,
    sub,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TAnyTensor, TFloat
from onnxscript.onnx_types import DOUBLE, FLOAT, TensorType


def _dtype(dtype: int, default: Any) -> int:
    return int(default) if dtype in (-1, None) else dtype


def _float_type(self: Any) -> int:
    """The element type a random draw like ``self`` is made in: self's own when it is a
    float type, FLOAT otherwise."""
    return int(element_type(self) or FLOAT.dtype) if is_floating(self) else FLOAT.dtype


@aten("aten::bernoulli")
def bernoulli(self: TFloat) -> TFloat:
    """bernoulli(Tensor self, *, Generator? generator=None) -> Tensor

    1 with probability ``self`` (elementwise), else 0: ONNX Bernoulli.
    """
    return op.Bernoulli(self)


@aten("aten::bernoulli.p")
def bernoulli_p(self: TAnyTensor, p: float) -> TAnyTensor:
    """bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor

    ``self``'s shape and type, 1 with probability ``p``.
    """
    uniform = op.RandomUniformLike(self, dtype=_float_type(self))
    drawn = op.Less(uniform, scalar_like(p, uniform) if is_static(p) else op.CastLike(p, uniform))
    return op.CastLike(drawn, self)


@aten("aten::multinomial")
def multinomial(self: TFloat, num_samples: int, replacement: bool = False) -> INT64:
    """multinomial(Tensor self, SymInt num_samples, bool replacement=False, *, Generator? generator=None) -> Tensor

    Indices drawn from the (unnormalized) distributions of ``self``'s last dim (1-D or
    2-D). With replacement and a static count: ONNX Multinomial (on log-probabilities).
    Without replacement: the Gumbel top-k draw (the k largest of ``log p + Gumbel noise``
    are a draw without replacement in order), which also serves a symbolic count with
    replacement as one Gumbel argmax per sample."""
    vector = rank(self) == 1
    probabilities = op.Unsqueeze(self, [0]) if vector else self
    logits = op.Log(op.Cast(probabilities, to=_float_type(self)))
    if replacement and is_static(num_samples):
        drawn = op.Multinomial(logits, sample_size=int(num_samples), dtype=INT64.dtype)
    elif replacement:
        count = op.Reshape(as_int64(num_samples), [1])
        shape = op.Concat(op.Shape(logits, end=1), count, op.Shape(logits, start=1), axis=0)
        many = op.Expand(op.Unsqueeze(logits, [1]), shape)
        drawn = op.ArgMax(op.Add(many, _gumbel(many)), axis=-1, keepdims=0)
    else:
        keys = op.Add(logits, _gumbel(logits))
        count = op.Reshape(as_int64(num_samples), [1])
        _, drawn = op.TopK(keys, count, axis=-1, _outputs=2)
    return op.Squeeze(drawn, [0]) if vector else drawn


def _gumbel(like: Any) -> Any:
    """Standard Gumbel noise shaped like ``like``: ``-log(-log(U))``."""
    uniform = op.RandomUniformLike(like)
    return op.Neg(op.Log(op.Neg(op.Log(uniform))))


def _shifted(noise: Any, mean: Any, std: Any, like: Any) -> Any:
    """``mean + std * noise``, skipping static no-ops (mean and std numbers or tensors);
    ``noise`` has the element type of the input ``like`` (static numbers become typed
    constants of it)."""
    if not (is_static(std) and std == 1):
        noise = op.Mul(noise, scalar_like(std, like) if is_static(std) else op.CastLike(std, like))
    if not (is_static(mean) and mean == 0):
        noise = op.Add(
            noise, scalar_like(mean, like) if is_static(mean) else op.CastLike(mean, like)
        )
    return noise


@aten("aten::normal.Tensor_Tensor")
def normal_tensor_tensor(mean: TFloat, std: TFloat) -> TFloat:
    """normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor

    Normal numbers of elementwise ``mean`` and ``std`` (broadcast together).
    """
    return _shifted(op.RandomNormalLike(op.Add(mean, std)), mean, std, mean)


@aten("aten::normal.Tensor_float")
def normal_tensor_float(mean: TFloat, std: float = 1.0) -> TFloat:
    """normal.Tensor_float(Tensor mean, float std=1., *, Generator? generator=None) -> Tensor"""
    if is_static(std):
        return op.Add(op.RandomNormalLike(mean, scale=float(std)), mean)
    return _shifted(op.RandomNormalLike(mean), mean, std, mean)


@aten("aten::normal.float_Tensor")
def normal_float_tensor(mean: float, std: TFloat) -> TFloat:
    """normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor"""
    return _shifted(op.RandomNormalLike(std), mean, std, std)


@aten("aten::normal.float_float")
def normal_float_float(
    mean: float,
    std: float,
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    Normal numbers of ``size``; static moments are RandomNormal's attributes.
    """
    target = _dtype(dtype, FLOAT.dtype)
    if is_static(mean) and is_static(std):
        return normal_random(list(size), target, float(mean), float(std))
    noise = normal_random(list(size), target)
    return _shifted(noise, mean, std, noise)


@aten("aten::normal_functional")
def normal_functional(self: TFloat, mean: float = 0.0, std: float = 1.0) -> TFloat:
    """normal_functional(Tensor self, float mean=0., float std=1., *, Generator? generator=None) -> Tensor

    Normal numbers shaped and typed like ``self`` (the functional ``normal_``).
    """
    if is_static(mean) and is_static(std):
        return op.RandomNormalLike(self, mean=float(mean), scale=float(std))
    return _shifted(op.RandomNormalLike(self), mean, std, self)


@aten("aten::rand_like")
def rand_like(
    self: TAnyTensor,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"""
    return op.RandomUniformLike(self, dtype=_dtype(dtype, _float_type(self)))


@aten("aten::randn_like")
def randn_like(
    self: TAnyTensor,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"""
    return op.RandomNormalLike(self, dtype=_dtype(dtype, _float_type(self)))


def _integers(uniform: Any, low: Any, high: Any, dtype: int) -> Any:
    """Integers in ``[low, high)`` from DOUBLE uniform numbers in [0, 1):
    ``low + floor(u * (high - low))``, cast to ``dtype``."""
    span = sub(high, low)
    width = float(span) if is_static(span) else op.Cast(span, to=DOUBLE.dtype)
    scaled = op.Floor(op.Mul(uniform, scalar_like(width, uniform) if is_static(width) else width))
    if not (is_static(low) and low == 0):
        start = float(low) if is_static(low) else op.Cast(low, to=DOUBLE.dtype)
        scaled = op.Add(scaled, scalar_like(start, scaled) if is_static(start) else start)
    return op.Cast(scaled, to=dtype)


@aten("aten::randint")
def randint(
    high: int,
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """randint(SymInt high, SymInt[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    Integers in ``[0, high)`` of ``size`` (INT64 unless ``dtype`` says otherwise).
    """
    uniform = uniform_random(list(size), DOUBLE.dtype)
    return _integers(uniform, 0, high, _dtype(dtype, INT64.dtype))


@aten("aten::randint.low")
def randint_low(
    low: int,
    high: int,
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """randint.low(SymInt low, SymInt high, SymInt[] size, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    uniform = uniform_random(list(size), DOUBLE.dtype)
    return _integers(uniform, low, high, _dtype(dtype, INT64.dtype))


@aten("aten::randint_like")
def randint_like(
    self: TAnyTensor,
    high: int,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """randint_like(Tensor self, SymInt high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor

    Integers in ``[0, high)`` shaped like ``self``, in its type unless ``dtype``.
    """
    uniform = op.RandomUniformLike(self, dtype=DOUBLE.dtype)
    return _integers(uniform, 0, high, _dtype(dtype, element_type(self)))


@aten("aten::randint_like.low_dtype")
def randint_like_low(
    self: TAnyTensor,
    low: int,
    high: int,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """randint_like.low_dtype(Tensor self, SymInt low, SymInt high, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"""
    uniform = op.RandomUniformLike(self, dtype=DOUBLE.dtype)
    return _integers(uniform, low, high, _dtype(dtype, element_type(self)))


@aten("aten::rand_like", complex=True)
def rand_like_complex(
    self: TFloat,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TFloat:
    """rand_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor

    A complex tensor's layout: each part uniform in [0, 1), as torch draws them.
    """
    return op.RandomUniformLike(self, dtype=_part_type(self, dtype))


@aten("aten::randn_like", complex=True)
def randn_like_complex(
    self: TFloat,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TFloat:
    """randn_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor

    Each part normal of variance 1/2 (torch's complex standard normal).
    """
    return op.RandomNormalLike(self, dtype=_part_type(self, dtype), scale=math.sqrt(0.5))


def _part_type(self: Any, dtype: int) -> int:
    """The parts' element type of the result: ``self``'s, or that of a complex ``dtype``."""
    if dtype in (-1, None):
        return _float_type(self)
    return PART_TYPE.get(dtype, dtype)
