"""Tensors made from sizes and values: full, zeros/ones-like, arange, scalar_tensor."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.ops.complex_layout import (
    complex_constant,
    is_complex_dtype,
)
from onnxscript.function_libs.torch_lib.ops.facts import element_type, is_integer
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


# Each bound has its own type variable: a Python number keeps its own type (0 next to a
# SymInt end stays an int, 0.5 a float) instead of taking a partner's.
TStart = TypeVar("TStart", INT64, FLOAT, DOUBLE)
TEnd = TypeVar("TEnd", INT64, FLOAT, DOUBLE)
TStep = TypeVar("TStep", INT64, FLOAT, DOUBLE)


@aten("aten::arange.start_step")
def arange(
    start: TStart,
    end: TEnd,
    step: TStep | None = None,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """``start, start + step, ...`` below ``end``. The bounds are inputs (static numbers
    become constants, symbolic sizes stay values); without a dtype the result is INT64
    when every bound is an integer, FLOAT otherwise (torch's default dtype)."""
    given: tuple[Any, ...] = (start, end, 1 if step is None else step)  # torch.onnx hands
    # an omitted input over as None
    integral = all(is_integer(v) for v in given)
    target = _dtype(dtype, INT64.dtype if integral else FLOAT.dtype)
    counted = target if target in _RANGE_TYPES else None
    if counted is None or (not integral and counted not in _FLOAT_RANGE_TYPES):
        # Range has no other element types (nor integer ones for fractional bounds):
        # count in int64 (or float) and cast.
        counted = INT64.dtype if integral else FLOAT.dtype
    bounds = [v if element_type(v) == counted else op.Cast(v, to=counted) for v in given]
    values = op.Range(*bounds)
    return values if counted == target else op.Cast(values, to=target)


@aten("aten::arange.start")
def arange_start(
    start: TStart,
    end: TEnd,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    return arange(start, end, 1, dtype=dtype)


@aten("aten::arange")
def arange_end(
    end: TEnd,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    return arange(0, end, 1, dtype=dtype)


_RANGE_TYPES = {t.dtype for t in (FLOAT, DOUBLE, INT16, INT32, INT64)}
"""The element types ONNX Range takes."""

_FLOAT_RANGE_TYPES = {FLOAT.dtype, DOUBLE.dtype}


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
