"""Discrete Fourier transforms (``torch.fft``, ``torch.stft``) as ONNX DFT.

torch.onnx carries a complex tensor as a real one with a trailing axis of 2 (real,
imaginary), which is also ONNX DFT's layout. DFT needs a batch axis before the signal
axes, so one is added in front and removed at the end.

ATen's ``normalization`` is the scale applied in the end: 0 none, 1 ``1/sqrt(n)``,
2 ``1/n`` (n: the product of the transformed sizes); ONNX's inverse DFT already divides
by each transformed size, which is undone first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.complex_layout import conjugate, real_part
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.helpers.facts import rank
from onnxscript.function_libs.torch_lib.helpers.sizes import as_int64, vector_input
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import TFloat


def _signal_axes(dims: Sequence[int], signal_rank: int) -> list[int]:
    """ATen dims of a tensor of ``signal_rank`` axes, as axes of it with a batch axis in
    front (and the trailing real/imaginary axis behind)."""
    return [d % signal_rank + 1 for d in dims]


def _sizes(value: Any, axes: Sequence[int]) -> Any:
    """The product of the sizes of ``axes`` of ``value`` (a Python int when static);
    ``value`` is a function's input (the values ops return may have no shape)."""
    sizes = [static_dim(value, axis) for axis in axes]
    if all(size is not None for size in sizes):
        return math.prod(int(size) for size in sizes if size is not None)
    return op.ReduceProd(op.Gather(op.Shape(value), list(axes)), keepdims=0)


def _scaled(value: Any, count: Any, normalization: int, undo_inverse: bool) -> Any:
    """``value`` times ATen's normalization factor for ``count`` points, and times
    ``count`` again when it comes from ONNX's (already divided) inverse DFT."""
    if isinstance(count, int):
        factor = (1.0, 1.0 / math.sqrt(count), 1.0 / count)[normalization]
        if undo_inverse:
            factor *= count
        return value if factor == 1.0 else op.Mul(value, op.CastLike(factor, value))
    points = op.CastLike(count, value)
    if normalization == 0:
        return op.Mul(value, points) if undo_inverse else value
    if normalization == 2:
        return value if undo_inverse else op.Div(value, points)
    root = op.Sqrt(points)
    return op.Mul(value, root) if undo_inverse else op.Div(value, root)


@aten("aten::_fft_r2c")
def fft_r2c(self: TFloat, dim: Sequence[int], normalization: int, onesided: bool) -> TFloat:
    """_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor

    Real to complex; ``onesided`` keeps the first n // 2 + 1 outputs of the last dim.
    """
    signal_rank = rank(self)
    axes = _signal_axes(dim, signal_rank)
    signal = op.Unsqueeze(self, [0, signal_rank + 1])
    count = _sizes(self, [axis - 1 for axis in axes])
    result = op.DFT(signal, axis=axes[-1], onesided=int(onesided))
    for axis in axes[:-1]:
        result = op.DFT(result, axis=axis)
    return op.Squeeze(_scaled(result, count, normalization, False), [0])


@aten("aten::_fft_c2c", complex=True)
def fft_c2c(self: TFloat, dim: Sequence[int], normalization: int, forward: bool) -> TFloat:
    """_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor

    Complex to complex, forward or inverse.
    """
    signal_rank = rank(self) - 1
    axes = _signal_axes(dim, signal_rank)
    result = op.Unsqueeze(self, [0])
    count = _sizes(self, [axis - 1 for axis in axes])
    for axis in axes:
        result = op.DFT(result, axis=axis, inverse=int(not forward))
    return op.Squeeze(_scaled(result, count, normalization, not forward), [0])


@aten("aten::_fft_c2r", complex=True)
def fft_c2r(self: TFloat, dim: Sequence[int], normalization: int, last_dim_size: int) -> TFloat:
    """_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor

    Complex (one-sided along the last dim) to real: the inverse over the other dims,
    then the last dim's full spectrum rebuilt by Hermitian symmetry and inverted."""
    signal_rank = rank(self) - 1
    axes = _signal_axes(dim, signal_rank)
    result = op.Unsqueeze(self, [0])
    others = _sizes(self, [axis - 1 for axis in axes[:-1]])
    for axis in axes[:-1]:
        result = op.DFT(result, axis=axis, inverse=1)
    last, n = axes[-1], as_int64(last_dim_size)
    kept, mirror_start = _hermitian_bounds(n)
    half = op.Slice(result, [0], kept, [last])
    mirrored = op.Slice(half, mirror_start, [0], [last], [-1])
    full = op.Concat(half, conjugate(mirrored), axis=last)
    result = op.DFT(full, axis=last, inverse=1)
    real = op.Squeeze(real_part(result), [0])
    if isinstance(others, int) and isinstance(n, int):
        return _scaled(real, others * n, normalization, True)
    count = op.Mul(op.Constant(value_int=others) if isinstance(others, int) else others, n)
    return _scaled(real, count, normalization, True)


def _hermitian_bounds(n: Any) -> tuple[Any, Any]:
    """For a real signal of ``n`` points (static or symbolic): the one-sided spectrum's
    length n // 2 + 1 and where its mirror starts, n - n // 2 - 1, as Slice bounds."""
    if isinstance(n, int):
        return [n // 2 + 1], [n - n // 2 - 1]
    half = op.Div(n, op.Constant(value_int=2))
    one = op.Constant(value_int=1)
    return vector_input(op.Add(half, one)), vector_input(op.Sub(op.Sub(n, half), one))


@aten("aten::stft")
def stft(
    self: TFloat,
    n_fft: int,
    hop_length: int = 0,
    win_length: int = 0,
    window: TFloat | None = None,
    normalized: bool = False,
    onesided: bool = True,
    return_complex: bool = True,
    align_to_window: bool = False,
) -> TFloat:
    """stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, bool normalized=False, bool? onesided=None, bool? return_complex=None, bool? align_to_window=None) -> Tensor

    The short-time Fourier transform of a real signal (``[length]`` or ``[batch,
    length]``; torch.stft's ``center`` padding happens before this call): ONNX STFT on
    frames of ``n_fft`` every ``hop_length`` points, the window (of ``win_length``, ones
    by default) padded to ``n_fft`` on both sides. torch's ``[..., bins, frames]`` complex
    result (or its real view: the same layout) is STFT's ``[..., frames, bins, 2]``
    transposed. The optional ints and bools are attributes (torch.onnx drops a None, and
    the default, 0 for "not given", applies)."""
    vector = rank(self) == 1
    signal = op.Unsqueeze(self, [0, 2] if vector else [2])
    two_sided = onesided is False  # None (eager) is torch's default for a real signal
    frames = _stft(
        signal,
        self,
        n_fft,
        hop_length,
        win_length,
        window,
        normalized,
        not two_sided,
        align_to_window,
    )
    return op.Squeeze(frames, [0]) if vector else frames


@aten("aten::stft", complex=True)
def stft_complex(
    self: TFloat,
    n_fft: int,
    hop_length: int = 0,
    win_length: int = 0,
    window: TFloat | None = None,
    normalized: bool = False,
    onesided: bool = False,
    return_complex: bool = True,
    align_to_window: bool = False,
) -> TFloat:
    """stft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, bool normalized=False, bool? onesided=None, bool? return_complex=None, bool? align_to_window=None) -> Tensor

    A complex signal (its layout's parts axis is STFT's); two-sided only, as torch
    requires. The window must be real."""
    if window is not None and rank(window) != 1:
        raise NotImplementedError("aten::stft with a complex window")
    vector = rank(self) == 2
    signal = op.Unsqueeze(self, [0]) if vector else self
    frames = _stft(
        signal, self, n_fft, hop_length, win_length, window, normalized, False, align_to_window
    )
    return op.Squeeze(frames, [0]) if vector else frames


def _stft(
    signal: Any,
    like: Any,
    n_fft: int,
    hop_length: int,
    win_length: int,
    window: Any,
    normalized: bool,
    onesided: bool,
    align_to_window: bool,
) -> Any:
    """ONNX STFT of a ``[batch, length, 1 or 2]`` signal, as torch's ``[batch, bins,
    frames, 2]``."""
    if align_to_window:
        raise NotImplementedError("aten::stft with align_to_window=True")
    hop = hop_length or n_fft // 4
    length = win_length or n_fft
    if window is None and length < n_fft:
        window = op.CastLike(op.ConstantOfShape([length], value=ir.tensor([1.0])), like)
    if window is not None and length < n_fft:
        left = (n_fft - length) // 2
        window = op.Pad(window, [left, n_fft - length - left])
    frames = op.STFT(
        signal,
        op.Constant(value_int=hop),
        window,
        op.Constant(value_int=n_fft),
        onesided=int(onesided),
    )
    if normalized:
        frames = op.Mul(frames, op.CastLike(1.0 / math.sqrt(n_fft), frames))
    return op.Transpose(frames, perm=[0, 2, 1, 3])
