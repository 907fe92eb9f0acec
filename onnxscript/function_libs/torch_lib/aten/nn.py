"""Neural-network ATen operators: convolution, normalization, pooling, softmax,
embedding."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten.reduction import with_dtype
from onnxscript.function_libs.torch_lib.helpers.constants import int64_constant
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.helpers.facts import element_type, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import (
    all_static,
    as_int64,
    dim_size,
    empty_like,
    is_static,
    scalar_like,
    shape_input,
    typed_like,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import BOOL, INT64, TFloat
from onnxscript.onnx_types import FLOAT


def _pads(padding: Sequence[int], rank: int) -> list[int]:
    """torch's symmetric padding per spatial dim as ONNX begins + ends."""
    padding = list(padding) if len(padding) == rank else list(padding) * rank
    return padding + padding


def per_axis(values: Sequence[int] | int, rank: int) -> list[int]:
    """torch's int-or-list argument (kernel, stride, ...) as one value per spatial axis."""
    values = [values] if isinstance(values, int) else list(values)
    return values * rank if len(values) == 1 else values


def conv_attributes(
    spatial: int,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    groups: int,
) -> dict[str, Any]:
    """ONNX Conv's attributes for ATen's arguments over ``spatial`` dims."""
    return {
        "strides": per_axis(stride, spatial),
        "pads": _pads(padding, spatial),
        "dilations": per_axis(dilation, spatial),
        "group": groups,
    }


@aten("aten::convolution")
def convolution(
    input: TFloat,
    weight: TFloat,
    bias: TFloat | None,
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    transposed: bool,
    output_padding: Sequence[int],
    groups: int,
) -> TFloat:
    """convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor"""
    spatial = rank(weight) - 2
    inputs = [input, weight] if bias is None else [input, weight, bias]
    common = conv_attributes(spatial, stride, padding, dilation, groups)
    if transposed:
        return _conv_transpose(inputs, per_axis(output_padding, spatial), common)
    return op.Conv(*inputs, **common)


@aten("aten::conv1d", "aten::conv2d", "aten::conv3d")
def conv(
    input: TFloat,
    weight: TFloat,
    bias: TFloat | None = None,
    stride: Sequence[int] = (1,),
    padding: Sequence[int] = (0,),
    dilation: Sequence[int] = (1,),
    groups: int = 1,
) -> TFloat:
    """conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], SymInt[1] padding=[0], SymInt[1] dilation=[1], SymInt groups=1) -> Tensor

    The non-transposed convolutions (torch keeps them whole when registered, which
    spares the decomposition into ``aten::convolution``); an unbatched input (no batch
    dim, which these take and ``convolution`` does not) gets one for the while."""
    if rank(input) == rank(weight) - 1:
        batched = op.Unsqueeze(input, [0])
        result = convolution(batched, weight, bias, stride, padding, dilation, False, (0,), groups)
        return op.Squeeze(result, [0])
    return convolution(input, weight, bias, stride, padding, dilation, False, (0,), groups)


@aten("aten::dropout")
def dropout(input: TFloat, p: float, train: bool) -> TFloat:
    """dropout(Tensor input, float p, bool train) -> Tensor

    The input itself in inference (``train`` False, or ``p`` 0); else ONNX Dropout
    in training mode (random: zeroes with probability ``p`` and scales the rest)."""
    if not train or p == 0:
        return op.Identity(input)
    ratio = op.Constant(value_float=float(p))
    output, _ = op.Dropout(input, ratio, op.Constant(value=ir.tensor(True)), _outputs=2)
    return output


def _conv_transpose(inputs: list[Any], extra: list[int], common: dict[str, Any]) -> Any:
    """torch's output_padding (extra rows at the end) as less padding removed at the end
    where it can be: onnxruntime refuses an output_padding of stride or more (dilated
    kernels allow it in torch)."""
    spatial = len(extra)
    pads = list(common["pads"])
    remaining = []
    for axis in range(spatial):
        taken = min(extra[axis], pads[spatial + axis])
        pads[spatial + axis] -= taken
        remaining.append(extra[axis] - taken)
    settings = {**common, "pads": pads}
    if any(remaining):
        settings["output_padding"] = remaining
    return op.ConvTranspose(*inputs, **settings)


@aten("aten::_native_batch_norm_legit_no_training")
def batch_norm_no_training(
    input: TFloat,
    weight: TFloat | None,
    bias: TFloat | None,
    running_mean: TFloat,
    running_var: TFloat,
    momentum: float,
    eps: float,
) -> tuple[TFloat, TFloat, TFloat]:
    """_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)"""
    channels = op.Shape(running_mean)
    if weight is None:
        weight = op.Expand(op.CastLike(1.0, input), channels)
    if bias is None:
        bias = op.Expand(op.CastLike(0.0, input), channels)
    out = _first(
        op.BatchNormalization(
            input,
            weight,
            bias,
            running_mean,
            running_var,
            epsilon=eps,
            momentum=1 - momentum,
            training_mode=0,  # said explicitly: torch's recorder then makes one output
        )
    )
    empty = empty_like(input)
    return out, empty, empty


def _first(result: Any) -> Any:
    """The first output of an op whose optional outputs a recorder may also return
    (torch's recorder gives BatchNormalization's three)."""
    return result[0] if isinstance(result, (tuple, list)) else result


@aten("aten::native_layer_norm")
def native_layer_norm(
    input: TFloat,
    normalized_shape: Sequence[int],
    weight: TFloat | None,
    bias: TFloat | None,
    eps: float,
) -> tuple[TFloat, TFloat, TFloat]:
    """native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)"""
    axis = -len(normalized_shape)
    if weight is None:
        weight = op.Expand(op.CastLike(1.0, input), op.Shape(input, start=axis))
    inputs = [input, weight] if bias is None else [input, weight, bias]
    out, mean, inv_std = op.LayerNormalization(*inputs, axis=axis, epsilon=eps, _outputs=3)
    return out, mean, inv_std


@aten("aten::layer_norm")
def layer_norm(
    input: TFloat,
    normalized_shape: Sequence[int],
    weight: TFloat | None = None,
    bias: TFloat | None = None,
    eps: float = 1e-5,
    cudnn_enable: bool = True,
) -> TFloat:
    """layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enable=True) -> Tensor"""
    out, _, _ = native_layer_norm(input, normalized_shape, weight, bias, eps)
    return out


@aten("aten::_softmax")
def softmax(self: TFloat, dim: int, half_to_float: bool = False) -> TFloat:
    """_softmax(Tensor self, int dim, bool half_to_float) -> Tensor"""
    return op.Softmax(_float_if(self, half_to_float), axis=dim)


@aten("aten::softmax.int")
def softmax_int(self: TFloat, dim: int, dtype: int = -1) -> TFloat:
    """softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor"""
    return op.Softmax(with_dtype(self, dtype), axis=dim)


@aten("aten::_log_softmax")
def log_softmax(self: TFloat, dim: int, half_to_float: bool = False) -> TFloat:
    """_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor"""
    return op.LogSoftmax(_float_if(self, half_to_float), axis=dim)


@aten("aten::log_softmax.int")
def log_softmax_int(self: TFloat, dim: int, dtype: int = -1) -> TFloat:
    """log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor"""
    return op.LogSoftmax(with_dtype(self, dtype), axis=dim)


def _float_if(self: Any, half_to_float: bool) -> Any:
    """half_to_float: a float16 input gives a float32 result."""
    return op.Cast(self, to=FLOAT.dtype) if half_to_float else self


def _max_pool(
    self: Any,
    spatial: int,
    kernel_size: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    ceil_mode: bool,
    with_indices: bool,
) -> Any:
    """max_pool1d/2d/3d as one MaxPool (an input without a batch dim is given one). The
    indices count within each (N, C) plane, as torch's do (ONNX's count across the whole
    tensor)."""
    unbatched = rank(self) == spatial + 1
    x = op.Unsqueeze(self, [0]) if unbatched else self
    kernel = per_axis(kernel_size, spatial)
    settings = {
        "kernel_shape": kernel,
        "strides": per_axis(stride, spatial) if stride else kernel,
        "pads": _pads(per_axis(padding, spatial), spatial),
        "dilations": per_axis(dilation, spatial),
        "ceil_mode": int(ceil_mode),
    }
    if not with_indices:
        pooled = _first(op.MaxPool(x, **settings))  # a recorder may also give the Indices
        return op.Squeeze(pooled, [0]) if unbatched else pooled
    pooled, flat = op.MaxPool(x, **settings, _outputs=2)
    plane = op.ReduceProd(op.Shape(self, start=-spatial), keepdims=1)
    indices = op.Mod(flat, plane)
    if unbatched:
        return op.Squeeze(pooled, [0]), op.Squeeze(indices, [0])
    return pooled, indices


@aten("aten::max_pool1d_with_indices")
def max_pool1d_with_indices(
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Sequence[int] = (0,),
    dilation: Sequence[int] = (1,),
    ceil_mode: bool = False,
) -> tuple[TFloat, INT64]:
    """max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> (Tensor, Tensor)"""
    return _max_pool(self, 1, kernel_size, stride, padding, dilation, ceil_mode, True)


@aten("aten::max_pool1d")
def max_pool1d(
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Sequence[int] = (0,),
    dilation: Sequence[int] = (1,),
    ceil_mode: bool = False,
) -> TFloat:
    """max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], int[1] dilation=[1], bool ceil_mode=False) -> Tensor"""
    return _max_pool(self, 1, kernel_size, stride, padding, dilation, ceil_mode, False)


@aten("aten::max_pool2d_with_indices")
def max_pool2d_with_indices(
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Sequence[int] = (0, 0),
    dilation: Sequence[int] = (1, 1),
    ceil_mode: bool = False,
) -> tuple[TFloat, INT64]:
    """max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"""
    return _max_pool(self, 2, kernel_size, stride, padding, dilation, ceil_mode, True)


@aten("aten::max_pool2d")
def max_pool2d(
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Sequence[int] = (0, 0),
    dilation: Sequence[int] = (1, 1),
    ceil_mode: bool = False,
) -> TFloat:
    """max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor"""
    return _max_pool(self, 2, kernel_size, stride, padding, dilation, ceil_mode, False)


@aten("aten::max_pool3d_with_indices")
def max_pool3d_with_indices(
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Sequence[int] = (0, 0, 0),
    dilation: Sequence[int] = (1, 1, 1),
    ceil_mode: bool = False,
) -> tuple[TFloat, INT64]:
    """max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"""
    return _max_pool(self, 3, kernel_size, stride, padding, dilation, ceil_mode, True)


@aten("aten::max_pool3d")
def max_pool3d(
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Sequence[int] = (0, 0, 0),
    dilation: Sequence[int] = (1, 1, 1),
    ceil_mode: bool = False,
) -> TFloat:
    """max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> Tensor"""
    return _max_pool(self, 3, kernel_size, stride, padding, dilation, ceil_mode, False)


@aten("aten::avg_pool2d")
def avg_pool2d(
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Sequence[int] = (0, 0),
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int = 0,
) -> TFloat:
    """avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor"""
    return _avg_pool(
        self, 2, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
    )


@aten("aten::avg_pool1d")
def avg_pool1d(
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Sequence[int] = (0,),
    ceil_mode: bool = False,
    count_include_pad: bool = True,
) -> TFloat:
    """avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=[0], bool ceil_mode=False, bool count_include_pad=True) -> Tensor"""
    return _avg_pool(self, 1, kernel_size, stride, padding, ceil_mode, count_include_pad, 0)


def _avg_pool(
    self: Any,
    spatial: int,
    kernel_size: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: int,
) -> Any:
    """avg_pool1d/2d/3d (an input without a batch dim is given one for AveragePool)."""
    unbatched = rank(self) == spatial + 1
    x = op.Unsqueeze(self, [0]) if unbatched else self
    kernel = per_axis(kernel_size, spatial)
    if divisor_override:
        lengths = [static_dim(self, axis - spatial) for axis in range(spatial)]
        windows = _Windows(kernel, stride or kernel, padding, ceil_mode)
        pooled = _window_sums(x, lengths, windows, divisor_override)
    else:
        pooled = op.AveragePool(
            x,
            kernel_shape=kernel,
            strides=per_axis(stride, spatial) if stride else kernel,
            pads=_pads(per_axis(padding, spatial), spatial),
            ceil_mode=int(ceil_mode),
            count_include_pad=int(count_include_pad),
        )
    return op.Squeeze(pooled, [0]) if unbatched else pooled


@dataclass(frozen=True)
class _Windows:
    """A pooling's kernel, stride, padding (int or per spatial axis) and ceil_mode."""

    kernel: Sequence[int]
    stride: Sequence[int] | int
    padding: Sequence[int] | int
    ceil_mode: bool


def _window_sums(self: Any, lengths: Sequence[int | None], windows: _Windows, divisor: int) -> Any:
    """Each window's sum over ``divisor`` (avg_pool's divisor_override): an average that
    counts padding, times the window size. Windows that ceil_mode lets overhang the input
    (``lengths``: the spatial sizes, None when dynamic) are made whole by zeros padded at
    the end."""
    kernel = list(windows.kernel)
    spatial = len(kernel)
    strides, pads = per_axis(windows.stride, spatial), per_axis(windows.padding, spatial)
    pooling = {"kernel_shape": kernel, "strides": strides, "count_include_pad": 1}
    if windows.ceil_mode and any(length is None for length in lengths):
        padded = _pad_whole_windows(self, windows, strides, pads)
        pooled = op.AveragePool(padded, **pooling)
    else:
        ends = [
            pads[axis] + _overhang(length, kernel[axis], strides[axis], pads[axis])
            if windows.ceil_mode and length is not None
            else pads[axis]
            for axis, length in enumerate(lengths)
        ]
        pooled = op.AveragePool(self, pads=pads + ends, **pooling)
    return op.Mul(pooled, op.CastLike(math.prod(kernel) / divisor, self))


def _overhang(length: int, kernel: int, stride: int, pad: int) -> int:
    """How far ceil_mode's last window reaches past the padded input (torch drops a last
    window that starts in the right padding)."""
    span = length + 2 * pad - kernel
    count = -(-span // stride) + 1
    if (count - 1) * stride >= length + pad:
        count -= 1
    return max(0, (count - 1) * stride + kernel - (length + 2 * pad))


def _pad_whole_windows(
    self: Any, windows: _Windows, strides: Sequence[int], pads: Sequence[int]
) -> Any:
    """The input zero-padded as ceil_mode pools it: ``pads`` before each spatial axis, and
    after it ``pads`` plus the last window's overhang, computed from the run-time size."""
    kernel = list(windows.kernel)
    spatial = len(kernel)
    ends = []
    for axis in range(spatial):
        length = op.Gather(op.Shape(self), axis - spatial, axis=0)
        ends.append(_overhang_at_run_time(length, kernel[axis], strides[axis], pads[axis]))
    amounts = op.Concat(int64_constant(list(pads)), *ends, axis=0)
    zero = op.CastLike(0.0, self)
    return op.Pad(self, amounts, zero, int64_constant(list(range(-spatial, 0))))


def _overhang_at_run_time(length: Any, kernel: int, stride: int, pad: int) -> Any:
    """:func:`_overhang` plus ``pad`` for a symbolic length, as a 1-element INT64 vector."""

    def c(value: int) -> Any:
        return op.Constant(value_int=value)

    span = op.Add(length, c(2 * pad - kernel))
    count = op.Add(op.Div(op.Add(span, c(stride - 1)), c(stride)), c(1))
    starts_in_padding = op.GreaterOrEqual(
        op.Mul(op.Sub(count, c(1)), c(stride)), op.Add(length, c(pad))
    )
    count = op.Sub(count, op.Cast(starts_in_padding, to=INT64.dtype))
    reach = op.Sub(
        op.Add(op.Mul(op.Sub(count, c(1)), c(stride)), c(kernel)), op.Add(length, c(2 * pad))
    )
    return op.Reshape(op.Add(op.Max(reach, c(0)), c(pad)), int64_constant([1]))


@aten("aten::adaptive_avg_pool1d")
def adaptive_avg_pool1d(self: TFloat, output_size: Sequence[int]) -> TFloat:
    """adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor"""
    return _adaptive_avg_pool(self, output_size)


@aten("aten::_adaptive_avg_pool2d", "aten::adaptive_avg_pool2d")
def adaptive_avg_pool2d(self: TFloat, output_size: Sequence[int]) -> TFloat:
    """_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor"""
    return _adaptive_avg_pool(self, output_size)


@aten("aten::_adaptive_avg_pool3d", "aten::adaptive_avg_pool3d")
def adaptive_avg_pool3d(self: TFloat, output_size: Sequence[int]) -> TFloat:
    """_adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor"""
    return _adaptive_avg_pool(self, output_size)


def _adaptive_avg_pool(self: Any, output_size: Sequence[int]) -> Any:
    """torch's adaptive average pooling: output cell i of a dim of length L averages
    [floor(i*L/n), ceil((i+1)*L/n)). Done one spatial dim at a time (averaging a box is
    averaging its rows, then those averages); with dynamic sizes by a matrix of the
    cells' weights built at run time."""
    spatial = len(output_size)
    unbatched = rank(self) == spatial + 1
    result = op.Unsqueeze(self, [0]) if unbatched else self
    lengths = [static_dim(self, axis - spatial) for axis in range(spatial)]
    if all_static(output_size) and all(int(size) == 1 for size in output_size):
        result = op.GlobalAveragePool(result)
    elif all_static(output_size) and all(length is not None for length in lengths):
        result = _pool_cells(result, output_size, [int(n) for n in lengths if n is not None])
    else:
        for offset, size in enumerate(output_size):
            axis = 2 + offset
            length = op.Gather(op.Shape(result), axis, axis=0)
            cells = adaptive_cells(length, _int64_scalar(size), result)
            result = matmul_along(result, op.Transpose(cells, perm=[1, 0]), axis, spatial + 2)
    return op.Squeeze(result, [0]) if unbatched else result


def _int64_scalar(value: Any) -> Any:
    """A static or symbolic int as a rank-0 INT64 value."""
    return op.Constant(value_int=int(value)) if is_static(value) else as_int64(value)


def adaptive_cells(length: Any, cells: Any, like: Any) -> Any:
    """The [cells, length] matrix of adaptive average pooling along one dim (both sizes
    rank-0 INT64 values): row i weighs its window [floor(i*L/n), ceil((i+1)*L/n)) by one
    over the window's size, in the element type of ``like``."""
    one = op.Constant(value_int=1)
    index = op.Range(op.Constant(value_int=0), cells, one)
    begin = op.Div(op.Mul(index, length), cells)
    end = op.Div(op.Add(op.Mul(op.Add(index, one), length), op.Sub(cells, one)), cells)
    weight = op.Reciprocal(op.CastLike(op.Sub(end, begin), like))
    return window_matrix(begin, end, weight, length)


def window_matrix(begin: Any, end: Any, weight: Any, length: Any) -> Any:
    """The [n, length] matrix whose row i is ``weight[i]`` on [begin[i], end[i]) and zero
    elsewhere (``begin``, ``end``: INT64 [n]; ``length``: rank-0 INT64)."""
    positions = op.Range(op.Constant(value_int=0), length, op.Constant(value_int=1))
    inside = op.And(
        op.GreaterOrEqual(positions, op.Unsqueeze(begin, [1])),
        op.Less(positions, op.Unsqueeze(end, [1])),
    )
    return op.Where(inside, op.Unsqueeze(weight, [1]), op.CastLike(0.0, weight))


def matmul_along(x: Any, matrix: Any, axis: int, x_rank: int) -> Any:
    """``x`` with dim ``axis`` (of ``x_rank`` dims) mapped by ``matrix`` [old, new]."""
    perm = list(range(x_rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return op.Transpose(op.MatMul(op.Transpose(x, perm=perm), matrix), perm=perm)


def _pool_cells(x: Any, output_size: Sequence[int], lengths: Sequence[int]) -> Any:
    """Uneven dims by slices averaged one cell at a time; even dims by one AveragePool."""
    spatial = len(output_size)
    for offset, (size, length) in enumerate(zip(output_size, lengths)):
        if length % size == 0:
            continue
        axis = 2 + offset
        cells = [
            op.ReduceMean(
                op.Slice(x, [i * length // size], [-(-(i + 1) * length // size)], [axis]),
                [axis],
                keepdims=1,
            )
            for i in range(size)
        ]
        x = op.Concat(*cells, axis=axis)
    kernel = [
        length // size if length % size == 0 else 1 for size, length in zip(output_size, lengths)
    ]
    if all(k == 1 for k in kernel) or spatial == 0:
        return x
    return op.AveragePool(x, kernel_shape=kernel, strides=kernel)


@aten("aten::native_group_norm")
def native_group_norm(
    input: TFloat,
    weight: TFloat | None,
    bias: TFloat | None,
    N: int,
    C: int,
    HxW: int,
    group: int,
    eps: float,
) -> tuple[TFloat, TFloat, TFloat]:
    """native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)

    Normalize each group of C/group channels over its channels and positions.
    """
    grouped = op.Reshape(input, [N, group, -1])
    mean = op.ReduceMean(grouped, [2], keepdims=1)
    centered = op.Sub(grouped, mean)
    variance = op.ReduceMean(op.Mul(centered, centered), [2], keepdims=1)
    inv_std = op.Reciprocal(op.Sqrt(op.Add(variance, scalar_like(eps, input))))
    out = op.Reshape(op.Mul(centered, inv_std), op.Shape(input))
    channel_shape = [1, C] + [1] * (rank(input) - 2)
    if weight is not None:
        out = op.Mul(out, op.Reshape(weight, channel_shape))
    if bias is not None:
        out = op.Add(out, op.Reshape(bias, channel_shape))
    return out, op.Reshape(mean, [N, group]), op.Reshape(inv_std, [N, group])


@aten("aten::col2im")
def col2im(
    self: TFloat,
    output_size: Sequence[int],
    kernel_size: Sequence[int],
    dilation: Sequence[int],
    padding: Sequence[int],
    stride: Sequence[int],
) -> TFloat:
    """col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor

    Sums sliding blocks [N, C*kh*kw, L] back into an image [N, C, H, W] (F.fold).
    """
    unbatched = rank(self) == 2
    blocks = op.Unsqueeze(self, [0]) if unbatched else self
    image = op.Col2Im(
        blocks,
        shape_input(list(output_size)),  # sizes that may be symbolic
        op.Constant(value_ints=per_axis(kernel_size, 2)),
        dilations=per_axis(dilation, 2),
        pads=_pads(padding, 2),
        strides=per_axis(stride, 2),
    )
    return op.Squeeze(image, [0]) if unbatched else image


@aten("aten::avg_pool3d")
def avg_pool3d(
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int] = (),
    padding: Sequence[int] = (0, 0, 0),
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int = 0,
) -> TFloat:
    """avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor"""
    return _avg_pool(
        self, 3, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override
    )


@aten("aten::grid_sampler_2d")
def grid_sampler_2d(
    input: TFloat, grid: TFloat, interpolation_mode: int, padding_mode: int, align_corners: bool
) -> TFloat:
    """grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor"""
    modes = ("bilinear", "nearest", "bicubic")
    paddings = ("zeros", "border", "reflection")
    return op.GridSample(
        input,
        grid,
        mode=modes[interpolation_mode],
        padding_mode=paddings[padding_mode],
        align_corners=int(align_corners),
    )


def _batch_statistics(input: Any, eps: float) -> tuple[Any, Any, Any]:
    """Per-channel mean and 1/sqrt(var + eps) over every dim but 1 (biased variance), and
    the axes reduced."""
    axes = [0, *range(2, rank(input))]
    mean = op.ReduceMean(input, axes, keepdims=1)
    centered = op.Sub(input, mean)
    variance = op.ReduceMean(op.Mul(centered, centered), axes, keepdims=1)
    inv_std = op.Reciprocal(op.Sqrt(op.Add(variance, scalar_like(eps, input))))
    return mean, inv_std, axes


def _normalized(input: Any, mean: Any, inv_std: Any, weight: Any, bias: Any) -> Any:
    out = op.Mul(op.Sub(input, mean), inv_std)
    return _affine(out, rank(input), weight, bias)


def _affine(out: Any, out_rank: int, weight: Any, bias: Any) -> Any:
    """The per-channel (dim 1) weight and bias of a normalization, where given."""
    channel_shape = [1, -1] + [1] * (out_rank - 2)
    if weight is not None:
        out = op.Mul(out, op.Reshape(weight, channel_shape))
    if bias is not None:
        out = op.Add(out, op.Reshape(bias, channel_shape))
    return out


@aten("aten::_native_batch_norm_legit.no_stats")
def batch_norm_training_no_stats(
    input: TFloat,
    weight: TFloat | None,
    bias: TFloat | None,
    training: bool,
    momentum: float,
    eps: float,
) -> tuple[TFloat, TFloat, TFloat]:
    """_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)

    Batch norm with the batch's own statistics (there are no running ones).
    """
    mean, inv_std, axes = _batch_statistics(input, eps)
    out = _normalized(input, mean, inv_std, weight, bias)
    return out, op.Squeeze(mean, axes), op.Squeeze(inv_std, axes)


@aten("aten::_native_batch_norm_legit")
def batch_norm_training(
    input: TFloat,
    weight: TFloat | None,
    bias: TFloat | None,
    running_mean: TFloat,
    running_var: TFloat,
    training: bool,
    momentum: float,
    eps: float,
) -> tuple[TFloat, TFloat, TFloat]:
    """_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)

    Batch norm in training mode normalizes with the batch's statistics (the running
    statistics' update is a side effect an inference graph does not keep)."""
    if not training:
        out, _, _ = batch_norm_no_training(
            input, weight, bias, running_mean, running_var, momentum, eps
        )
        empty = empty_like(input)
        return out, empty, empty
    return batch_norm_training_no_stats(input, weight, bias, training, momentum, eps)


@aten("aten::batch_norm")
def batch_norm(
    input: TFloat,
    weight: TFloat | None,
    bias: TFloat | None,
    running_mean: TFloat | None,
    running_var: TFloat | None,
    training: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool = True,
) -> TFloat:
    """batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor

    ``F.batch_norm`` kept whole (torch would decompose it through three overloads):
    the running statistics when given and not training, else the batch's own."""
    if training or running_mean is None or running_var is None:
        out, _, _ = batch_norm_training_no_stats(input, weight, bias, True, momentum, eps)
        return out
    out, _, _ = batch_norm_no_training(
        input, weight, bias, running_mean, running_var, momentum, eps
    )
    return out


@aten("aten::native_batch_norm")
def native_batch_norm(
    input: TFloat,
    weight: TFloat | None,
    bias: TFloat | None,
    running_mean: TFloat | None,
    running_var: TFloat | None,
    training: bool,
    momentum: float,
    eps: float,
) -> tuple[TFloat, TFloat, TFloat]:
    """native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)

    ``(out, save_mean, save_invstd)``: the batch's statistics when training (or when
    there are no running ones), else the running ones and two empty vectors (as torch)."""
    if training or running_mean is None or running_var is None:
        return batch_norm_training_no_stats(input, weight, bias, True, momentum, eps)
    return batch_norm_no_training(input, weight, bias, running_mean, running_var, momentum, eps)


@aten("aten::group_norm")
def group_norm(
    input: TFloat,
    num_groups: int,
    weight: TFloat | None = None,
    bias: TFloat | None = None,
    eps: float = 1e-5,
    cudnn_enabled: bool = True,
) -> TFloat:
    """group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1.0000000000000001e-05, bool cudnn_enabled=True) -> Tensor

    Each group of C/num_groups channels normalized over its channels and positions:
    the input seen as [N, num_groups, rest] is instance-normalized (one op; ONNX's
    GroupNormalization is opset 21 with per-channel affine, 18's is per group), then the
    per-channel weight and bias applied."""
    grouped = typed_like(op.Reshape(input, [0, num_groups, -1]), input)
    normalized = _instance_normalized(grouped, num_groups, 3, eps)
    return _affine(op.Reshape(normalized, op.Shape(input)), rank(input), weight, bias)


def _instance_normalized(input: Any, channels: Any, input_rank: int, eps: float) -> Any:
    """Each (n, c) plane of ``input`` normalized over its positions (biased variance):
    InstanceNormalization, which onnxruntime has for float and float16; moments
    otherwise. ``channels``: dim 1, an int when static."""
    if element_type(input) in (ir.DataType.FLOAT, ir.DataType.FLOAT16):
        count = [channels] if is_static(channels) else op.Shape(input, start=1, end=2)
        ones = op.Expand(scalar_like(1.0, input), count)
        zeros = op.Expand(scalar_like(0.0, input), count)
        return op.InstanceNormalization(input, ones, zeros, epsilon=eps)
    axes = list(range(2, input_rank))
    mean = op.ReduceMean(input, axes, keepdims=1)
    centered = op.Sub(input, mean)
    variance = op.ReduceMean(op.Mul(centered, centered), axes, keepdims=1)
    inv_std = op.Reciprocal(op.Sqrt(op.Add(variance, scalar_like(eps, input))))
    return op.Mul(centered, inv_std)


@aten("aten::instance_norm")
def instance_norm(
    input: TFloat,
    weight: TFloat | None,
    bias: TFloat | None,
    running_mean: TFloat | None,
    running_var: TFloat | None,
    use_input_stats: bool,
    momentum: float,
    eps: float,
    cudnn_enabled: bool,
) -> TFloat:
    """instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor

    Each (n, c) plane normalized over its positions (``use_input_stats``; updating
    the running statistics is a side effect an inference graph does not keep), else with
    the running statistics as batch norm in inference."""
    if not use_input_stats and running_mean is not None and running_var is not None:
        out, _, _ = batch_norm_no_training(
            input, weight, bias, running_mean, running_var, momentum, eps
        )
        return out
    normalized = _instance_normalized(input, dim_size(input, 1), rank(input), eps)
    return _affine(normalized, rank(input), weight, bias)


@aten("aten::grid_sampler")
def grid_sampler(
    input: TFloat, grid: TFloat, interpolation_mode: int, padding_mode: int, align_corners: bool
) -> TFloat:
    """grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor

    ``F.grid_sample`` kept whole: 4-D input as GridSample (opset 18's GridSample takes
    4-D input only; torch's volumetric sampling has no opset-18 equivalent)."""
    if rank(input) != 4:
        raise NotImplementedError(
            "aten::grid_sampler: only 4-D input (opset 18's GridSample); "
            "volumetric (5-D) sampling needs opset 20"
        )
    return grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)


@aten("aten::_cdist_forward")
def cdist(x1: TFloat, x2: TFloat, p: float, compute_mode: int = 0) -> TFloat:
    """_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor

    Pairwise p-norm distances between the rows of x1 [..., P, M] and x2 [..., R, M].
    """
    difference = op.Sub(op.Unsqueeze(x1, [-2]), op.Unsqueeze(x2, [-3]))
    magnitude = op.Abs(difference)
    if p == 0:
        return op.ReduceSum(
            op.Cast(op.Cast(magnitude, to=BOOL.dtype), to=FLOAT.dtype), [-1], keepdims=0
        )
    if p == float("inf"):
        return op.ReduceMax(magnitude, [-1], keepdims=0)
    if p == 1:
        return op.ReduceSum(magnitude, [-1], keepdims=0)
    if p == 2:
        return op.Sqrt(op.ReduceSum(op.Mul(magnitude, magnitude), [-1], keepdims=0))
    power = op.CastLike(p, x1)
    total = op.ReduceSum(op.Pow(magnitude, power), [-1], keepdims=0)
    return op.Pow(total, op.Reciprocal(power))


@aten("aten::_native_batch_norm_legit_functional")
def batch_norm_functional(
    input: TFloat,
    weight: TFloat | None,
    bias: TFloat | None,
    running_mean: TFloat,
    running_var: TFloat,
    training: bool,
    momentum: float,
    eps: float,
) -> tuple[TFloat, TFloat, TFloat, TFloat, TFloat]:
    """_native_batch_norm_legit_functional(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor running_mean_out, Tensor running_var_out)

    Training-mode batch norm that also returns the updated running statistics
    (``(1 - momentum) * running + momentum * batch``, with the unbiased batch variance)."""
    if not training:
        out, mean, inv_std = batch_norm_training(
            input, weight, bias, running_mean, running_var, training, momentum, eps
        )
        return out, mean, inv_std, op.Identity(running_mean), op.Identity(running_var)
    mean, inv_std, axes = _batch_statistics(input, eps)
    out = _normalized(input, mean, inv_std, weight, bias)
    batch_mean = op.Squeeze(mean, axes)
    centered = op.Sub(input, mean)
    count = op.CastLike(op.ReduceProd(op.Gather(op.Shape(input), axes), keepdims=0), input)
    unbiased = op.Div(
        op.ReduceSum(op.Mul(centered, centered), axes, keepdims=0),
        op.Sub(count, op.CastLike(1.0, input)),
    )
    keep = op.CastLike(1.0 - momentum, input)
    new = op.CastLike(momentum, input)
    new_mean = op.Add(op.Mul(running_mean, keep), op.Mul(batch_mean, new))
    new_var = op.Add(op.Mul(running_var, keep), op.Mul(unbiased, new))
    return out, batch_mean, op.Squeeze(inv_std, axes), new_mean, new_var


@aten("aten::_pdist_forward")
def pdist(input: TFloat, p: float = 2.0) -> TFloat:
    """_pdist_forward(Tensor self, float p=2.) -> Tensor

    Distances between every pair of rows i < j, in row-major order of (i, j).
    """
    rows = static_dim(input, 0)
    if rows is None:
        return _upper_pairs(cdist(input, input, p), op.Gather(op.Shape(input), 0, axis=0))
    pairs = [i * rows + j for i in range(rows) for j in range(i + 1, rows)]
    if not pairs:
        return op.Slice(op.Reshape(input, [-1]), [0], [0], [0])  # no pairs: empty
    distances = cdist(input, input, p)
    return op.Gather(op.Reshape(distances, [-1]), op.Constant(value_ints=pairs), axis=0)


def _upper_pairs(distances: Any, rows: Any) -> Any:
    """The entries (i, j) with i < j of a [rows, rows] matrix, in row-major order, for a
    number of rows known at run time only."""
    index = op.Range(op.Constant(value_int=0), rows, op.Constant(value_int=1))
    upper = op.Less(op.Unsqueeze(index, [1]), op.Unsqueeze(index, [0]))
    return op.Compress(op.Reshape(distances, [-1]), op.Reshape(upper, [-1]), axis=0)
