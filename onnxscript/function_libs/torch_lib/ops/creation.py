"""Tensors made from sizes and values: full, zeros/ones-like, arange, scalar_tensor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.ops.complex_layout import (
    complex_constant,
    is_complex_dtype,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TTensor
from onnxscript.onnx_types import DOUBLE, FLOAT, INT16, INT32, TensorType


def _dtype(dtype: int, default: int) -> int:
    return default if dtype in (-1, None) else dtype


@aten("aten::full")
def full(
    size: Sequence[int],
    fill_value: float,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    shape = op.Cast(size, to=INT64.dtype) if not isinstance(size, (list, tuple)) else list(size)
    if is_complex_dtype(dtype):
        if isinstance(size, (list, tuple)):
            target = [*size, 2]
        else:
            target = op.Concat(shape, op.Constant(value_ints=[2]), axis=0)
        return op.Expand(complex_constant(fill_value, dtype), target)
    return op.Expand(op.Cast(fill_value, to=_dtype(dtype, FLOAT.dtype)), shape)


@aten("aten::full_like")
def full_like(
    self: TTensor,
    fill_value: float,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TTensor:
    if is_complex_dtype(dtype):
        return full(op.Shape(self), fill_value, dtype=dtype)
    value = op.CastLike(fill_value, self) if dtype in (-1, None) else op.Cast(fill_value, to=dtype)
    return op.Expand(value, op.Shape(self))


@aten("aten::zeros_like")
def zeros_like(
    self: TTensor,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TTensor:
    return full_like(self, 0, dtype=dtype)


@aten("aten::ones_like")
def ones_like(
    self: TTensor,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TTensor:
    return full_like(self, 1, dtype=dtype)


@aten("aten::scalar_tensor")
def scalar_tensor(
    s: float, *, dtype: int = -1, layout: str = "", device: str = "", pin_memory: bool = False
) -> TensorType:
    if is_complex_dtype(dtype):
        return complex_constant(s, dtype)
    return op.Cast(s, to=_dtype(dtype, FLOAT.dtype))


@aten("aten::arange.start_step")
def arange(
    start: float,
    end: float,
    step: float = 1.0,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    # torch.onnx hands Scalar bounds over as floats, so whole numbers are taken for
    # integers (torch's arange(-1, 7) is INT64); arange(0.0, 5.0) without a dtype is the
    # one case this gets wrong (INT64 instead of FLOAT).
    integral = all(float(v).is_integer() for v in (start, end, step))
    target = _dtype(dtype, INT64.dtype if integral else FLOAT.dtype)
    bounds = [int(v) if integral else float(v) for v in (start, end, step)]
    if target in _RANGE_TYPES:
        return op.Range(*(_number(v, target) for v in bounds))
    # Range has no other element types: count in int64 (or float) and cast.
    counted = INT64.dtype if integral else FLOAT.dtype
    return op.Cast(op.Range(*(_number(v, counted) for v in bounds)), to=target)


_RANGE_TYPES = {t.dtype for t in (FLOAT, DOUBLE, INT16, INT32, INT64)}
"""The element types ONNX Range takes."""


def _number(value: float, target: int) -> Any:
    """A Python number as a scalar of element type ``target``."""
    if isinstance(value, int):
        return op.Cast(op.Constant(value_int=value), to=target)
    return op.Cast(op.Constant(value_float=value), to=target)


@aten("aten::empty.memory_format")
def empty(
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TensorType:
    """Zeros: an empty tensor's content is undefined, and zeros are one valid content."""
    return full(size, 0, dtype=dtype)


@aten("aten::empty_strided")
def empty_strided(
    size: Sequence[int],
    stride: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    return full(size, 0, dtype=dtype)


@aten("aten::_local_scalar_dense")
def local_scalar_dense(self: TTensor) -> TTensor:
    return op.Reshape(self, [])


@aten("aten::rand")
def rand(
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    return op.RandomUniform(shape=list(size), dtype=_dtype(dtype, FLOAT.dtype))


@aten("aten::randn")
def randn(
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    return op.RandomNormal(shape=list(size), dtype=_dtype(dtype, FLOAT.dtype))


@aten("aten::randperm")
def randperm(
    n: int,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """A random permutation of 0..n-1: the order that sorts n uniform random numbers."""
    keys = op.RandomUniform(shape=[n], dtype=FLOAT.dtype)
    _, order = op.TopK(keys, op.Constant(value_ints=[n]), axis=0, _outputs=2)
    return op.Cast(order, to=_dtype(dtype, INT64.dtype))
