"""Tensors made from sizes and values: full, zeros/ones-like, arange, scalar_tensor."""

from __future__ import annotations

from collections.abc import Sequence

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TTensor
from onnxscript.onnx_types import FLOAT, TensorType


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
    value = op.Cast(fill_value, to=_dtype(dtype, FLOAT.dtype))
    return op.Expand(
        value, op.Cast(size, to=INT64.dtype) if not isinstance(size, (list, tuple)) else list(size)
    )


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
    return op.Cast(s, to=_dtype(dtype, FLOAT.dtype))


@aten("aten::arange.start_step")
def arange(
    start: float,
    end: float,
    step: float = 1,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    integral = all(isinstance(v, int) for v in (start, end, step))
    target = _dtype(dtype, INT64.dtype if integral else FLOAT.dtype)
    return op.Range(op.Cast(start, to=target), op.Cast(end, to=target), op.Cast(step, to=target))
