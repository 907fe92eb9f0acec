"""Window functions (``torch.hann_window`` and kin), periodic as ATen's default overloads
are. The length may be symbolic; ONNX's window ops take it as an input."""

from __future__ import annotations

import math
from typing import Any

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.constants import typed_constant
from onnxscript.function_libs.torch_lib.helpers.sizes import as_int64, is_static
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.onnx_types import FLOAT, TensorType


def _dtype(dtype: int) -> int:
    return FLOAT.dtype if dtype in (-1, None) else dtype


def _single(window_length: Any, dtype: int) -> Any | None:
    """torch's window of length 1, ``[1]``, whatever the formula gives (None for any
    other length; a symbolic length is at least 2, torch specializes 0 and 1)."""
    if is_static(window_length) and int(window_length) == 1:
        return op.Reshape(typed_constant(1, _ir_type(_dtype(dtype))), [1])
    return None


def _ir_type(dtype: int) -> ir.DataType:
    return ir.DataType(dtype)


@aten("aten::hann_window")
def hann_window(
    window_length: int,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """hann_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    ``0.5 - 0.5 cos(2 pi n / N)``: ONNX HannWindow (periodic).
    """
    single = _single(window_length, dtype)
    if single is not None:
        return single
    return op.HannWindow(as_int64(window_length), output_datatype=_dtype(dtype))


@aten("aten::blackman_window")
def blackman_window(
    window_length: int,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """blackman_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    ``0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)``: ONNX BlackmanWindow.
    """
    single = _single(window_length, dtype)
    if single is not None:
        return single
    return op.BlackmanWindow(as_int64(window_length), output_datatype=_dtype(dtype))


@aten("aten::hamming_window")
def hamming_window(
    window_length: int,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """hamming_window(int window_length, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    ``0.54 - 0.46 cos(2 pi n / N)``. ONNX HammingWindow's coefficients are 25/46 and
    21/46, not torch's 0.54 and 0.46: computed here."""
    single = _single(window_length, dtype)
    if single is not None:
        return single
    target = _dtype(dtype)
    length = as_int64(window_length)
    positions = op.Cast(op.Range(0, length, 1), to=target)
    size = (
        typed_constant(float(length), _ir_type(target))
        if is_static(length)
        else op.Cast(length, to=target)
    )
    angle = op.Div(op.Mul(positions, typed_constant(2 * math.pi, _ir_type(target))), size)
    cosine = op.Mul(op.Cos(angle), typed_constant(0.46, _ir_type(target)))
    return op.Sub(typed_constant(0.54, _ir_type(target)), cosine)
