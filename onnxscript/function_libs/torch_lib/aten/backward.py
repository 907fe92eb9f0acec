"""Gradients of the forward ATen operators that the Core ATen IR keeps as operators of their
own (what a traced training step or ``torch.func.grad`` leaves in a graph).

Pooling gradients with static sizes are linear maps that factor per spatial axis, so they
are two matmuls with constant matrices; the normalization gradients follow their closed
forms; convolution's are convolutions again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from onnxscript import dtypes
from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten.nn import adaptive_cells, per_axis, window_matrix
from onnxscript.function_libs.torch_lib.helpers.constants import array_constant, int64_constant
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.helpers.facts import rank
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TFloat


def _spread(windows: Sequence[tuple[int, int, float]], length: int, dtype: Any) -> Any:
    """The [len(windows), length] matrix whose row i spreads output cell i's gradient over
    its window [begin, end) with the given weight."""
    matrix = np.zeros((len(windows), length), dtype=dtype)
    for row, (begin, end, weight) in enumerate(windows):
        matrix[row, begin:end] = weight
    return array_constant(matrix)


def _separable_adjoint(grad_output: Any, rows: Any, columns: Any) -> Any:
    """rows^T @ grad @ columns over the last two axes: the gradient of a 2-D pooling whose
    windows and divisors factor into a per-row and a per-column part."""
    return op.MatMul(op.MatMul(op.Transpose(rows, perm=[1, 0]), grad_output), columns)


def _dtype_of(value: Any) -> Any:
    """The numpy dtype matching a value's element type (float32 for unknown)."""
    element = getattr(value, "dtype", None)
    if element is None:
        return np.float32
    if isinstance(element, np.dtype):
        return element
    return dtypes.numpy_dtype(int(element))


@aten("aten::_adaptive_avg_pool2d_backward")
def adaptive_avg_pool2d_backward(grad_output: TFloat, self: TFloat) -> TFloat:
    """_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor

    Output cell i of a dim of length L averaged [floor(i*L/n), ceil((i+1)*L/n)).
    """
    matrices = []
    for axis in (-2, -1):
        length, cells = static_dim(self, axis), static_dim(grad_output, axis)
        if length is None or cells is None:
            matrices.append(
                adaptive_cells(_size(self, axis), _size(grad_output, axis), grad_output)
            )
            continue
        windows = []
        for i in range(cells):
            begin, end = i * length // cells, -(-(i + 1) * length // cells)
            windows.append((begin, end, 1.0 / (end - begin)))
        matrices.append(_spread(windows, length, _dtype_of(grad_output)))
    return _separable_adjoint(grad_output, *matrices)


@aten("aten::avg_pool2d_backward")
def avg_pool2d_backward(
    grad_output: TFloat,
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    ceil_mode: bool,
    count_include_pad: bool,
    divisor_override: int = 0,
) -> TFloat:
    """avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor

    Each output cell's gradient over its divisor, spread over its window's inputs.
    """
    kernel, strides, pads = (
        per_axis(kernel_size, 2),
        per_axis(stride or kernel_size, 2),
        per_axis(padding, 2),
    )
    matrices = []
    for axis in range(2):
        length, cells = static_dim(self, axis - 2), static_dim(grad_output, axis - 2)
        if length is None or cells is None:
            pooling = _Pooling(kernel[axis], strides[axis], pads[axis], count_include_pad)
            divisor = divisor_override if axis == 0 else 1
            matrices.append(_pooling_matrix(self, grad_output, axis - 2, pooling, divisor))
            continue
        windows = []
        for i in range(cells):
            start = i * strides[axis] - pads[axis]
            end = min(start + kernel[axis], length + pads[axis])
            begin, stop = max(start, 0), min(end, length)
            if divisor_override:
                weight = 1.0 / divisor_override if axis == 0 else 1.0
            else:
                weight = 1.0 / ((end - start) if count_include_pad else (stop - begin))
            windows.append((begin, stop, weight))
        matrices.append(_spread(windows, length, _dtype_of(grad_output)))
    return _separable_adjoint(grad_output, *matrices)


def _size(value: Any, axis: int) -> Any:
    """Dim ``axis`` of ``value`` at run time (rank-0 INT64)."""
    return op.Gather(op.Shape(value), axis, axis=0)


@dataclass(frozen=True)
class _Pooling:
    """One spatial axis of an average pooling."""

    kernel: int
    stride: int
    pad: int
    count_include_pad: bool


def _pooling_matrix(self: Any, grad_output: Any, axis: int, pooling: _Pooling, divisor: int) -> Any:
    """avg_pool2d_backward's matrix for one axis whose sizes are known at run time only:
    output cell i's window [i*stride - pad, +kernel) clipped to the input, weighted by
    one over ``divisor`` (when not 0) or over the window's size (padding counted or
    not)."""

    def c(value: int) -> Any:
        return op.Constant(value_int=value)

    length = _size(self, axis)
    cells = op.Range(c(0), _size(grad_output, axis), c(1))
    start = op.Sub(op.Mul(cells, c(pooling.stride)), c(pooling.pad))
    end = op.Min(op.Add(start, c(pooling.kernel)), op.Add(length, c(pooling.pad)))
    begin, stop = op.Max(start, c(0)), op.Min(end, length)
    if divisor:
        weight = op.Expand(op.CastLike(1.0 / divisor, grad_output), op.Shape(cells))
    else:
        counted = op.Sub(end, start) if pooling.count_include_pad else op.Sub(stop, begin)
        weight = op.Reciprocal(op.CastLike(counted, grad_output))
    return window_matrix(begin, stop, weight, length)


@aten("aten::max_pool2d_with_indices_backward")
def max_pool2d_with_indices_backward(
    grad_output: TFloat,
    self: TFloat,
    kernel_size: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    ceil_mode: bool,
    indices: INT64,
) -> TFloat:
    """max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor

    Each output's gradient added at the input position its index names (indices count
    within each (N, C) plane, as max_pool2d_with_indices gives them)."""
    planes = op.Concat(op.Shape(self, end=-2), op.Constant(value_ints=[-1]), axis=0)
    zeros = op.Expand(op.CastLike(0.0, grad_output), op.Shape(self))
    summed = op.ScatterElements(
        op.Reshape(zeros, planes),
        op.Reshape(indices, planes),
        op.Reshape(grad_output, planes),
        axis=-1,
        reduction="add",
    )
    return op.Reshape(summed, op.Shape(self))


@aten("aten::embedding_dense_backward")
def embedding_dense_backward(
    grad_output: TFloat,
    indices: INT64,
    num_weights: int,
    padding_idx: int,
    scale_grad_by_freq: bool,
) -> TFloat:
    """embedding_dense_backward(Tensor grad_output, Tensor indices, SymInt num_weights, SymInt padding_idx, bool scale_grad_by_freq) -> Tensor

    Rows of grad_output summed into the weight rows their indices name; the padding
    row gets nothing; with scale_grad_by_freq each row is divided by its index's count."""
    width = op.Shape(grad_output, start=-1)
    rows = op.Reshape(grad_output, op.Concat(op.Constant(value_ints=[-1]), width, axis=0))
    flat = op.Reshape(indices, [-1])
    if scale_grad_by_freq:
        ones = op.Expand(op.CastLike(1.0, grad_output), op.Shape(flat))
        counts = op.ScatterElements(
            op.Expand(op.CastLike(0.0, grad_output), op.Reshape(num_weights, [1])),
            flat,
            ones,
            reduction="add",
        )
        rows = op.Div(rows, op.Unsqueeze(op.Gather(counts, flat), [1]))
    if padding_idx >= 0:
        keep = op.Unsqueeze(op.Not(op.Equal(flat, op.Constant(value_int=padding_idx))), [1])
        rows = op.Where(keep, rows, op.CastLike(0.0, grad_output))
    size = op.Concat(op.Reshape(num_weights, [1]), width, axis=0)
    zeros = op.Expand(op.CastLike(0.0, grad_output), size)
    return op.ScatterND(zeros, op.Unsqueeze(flat, [1]), rows, reduction="add")


def _closed_form(g: Any, x_hat: Any, axes: Sequence[int]) -> Any:
    """The normalization gradient without its 1/std factor: g - mean(g) - x̂ mean(g x̂)."""
    mean_g = op.ReduceMean(g, list(axes), keepdims=1)
    mean_gx = op.ReduceMean(op.Mul(g, x_hat), list(axes), keepdims=1)
    return op.Sub(op.Sub(g, mean_g), op.Mul(x_hat, mean_gx))


@aten("aten::native_layer_norm_backward")
def native_layer_norm_backward(
    grad_out: TFloat,
    input: TFloat,
    normalized_shape: Sequence[int],
    mean: TFloat,
    rstd: TFloat,
    weight: TFloat | None,
    bias: TFloat | None,
    output_mask: Sequence[bool],
) -> tuple[TFloat, TFloat, TFloat]:
    """native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)

    Gradients of input, weight and bias (all three are computed: a recorder needs a
    value for every output; the ones output_mask leaves out go unused)."""
    inner = len(normalized_shape)
    axes = list(range(rank(input) - inner, rank(input)))
    outer = list(range(rank(input) - inner))
    x_hat = op.Mul(op.Sub(input, mean), rstd)
    g = grad_out if weight is None else op.Mul(grad_out, weight)
    grad_input = op.Mul(rstd, _closed_form(g, x_hat, axes))
    grad_weight = _sum_over(op.Mul(grad_out, x_hat), outer)
    grad_bias = _sum_over(grad_out, outer)
    return grad_input, grad_weight, grad_bias


def _sum_over(value: Any, axes: Sequence[int]) -> Any:
    if not axes:
        return op.Identity(value)
    return op.ReduceSum(value, list(axes), keepdims=0)


@aten("aten::native_group_norm_backward")
def native_group_norm_backward(
    grad_out: TFloat,
    input: TFloat,
    mean: TFloat,
    rstd: TFloat,
    weight: TFloat | None,
    N: int,
    C: int,
    HxW: int,
    group: int,
    output_mask: Sequence[bool],
) -> tuple[TFloat, TFloat, TFloat]:
    """native_group_norm_backward(Tensor grad_out, Tensor input, Tensor mean, Tensor rstd, Tensor? weight, SymInt N, SymInt C, SymInt HxW, int group, bool[3] output_mask) -> (Tensor, Tensor, Tensor)

    Gradients of input, weight ([C]) and bias ([C]); mean and rstd are [N, group].
    """
    grouped = [N, group, -1]
    stats = [N, group, 1]
    x_hat = op.Mul(
        op.Sub(op.Reshape(input, grouped), op.Reshape(mean, stats)), op.Reshape(rstd, stats)
    )
    channels = [1, C] + [1] * (rank(input) - 2)
    g = grad_out if weight is None else op.Mul(grad_out, op.Reshape(weight, channels))
    grad_grouped = op.Mul(op.Reshape(rstd, stats), _closed_form(op.Reshape(g, grouped), x_hat, [2]))
    grad_input = op.Reshape(grad_grouped, op.Shape(input))
    per_channel = [N, C, -1]
    x_hat_channels = op.Reshape(x_hat, per_channel)
    grad_channels = op.Reshape(grad_out, per_channel)
    grad_weight = op.ReduceSum(op.Mul(grad_channels, x_hat_channels), [0, 2], keepdims=0)
    grad_bias = op.ReduceSum(grad_channels, [0, 2], keepdims=0)
    return grad_input, grad_weight, grad_bias


def _batch_and_spatial(spatial: int) -> list[int]:
    return [0, *range(2, 2 + spatial)]


@dataclass(frozen=True)
class _Geometry:
    """A convolution's strides, pads (one per spatial axis), dilations and groups."""

    strides: list[int]
    pads: list[int]
    dilations: list[int]
    groups: int

    def attributes(self) -> dict[str, Any]:
        return {
            "strides": self.strides,
            "pads": self.pads + self.pads,
            "dilations": self.dilations,
            "group": self.groups,
        }


@aten("aten::convolution_backward")
def convolution_backward(
    grad_output: TFloat,
    input: TFloat,
    weight: TFloat,
    bias_sizes: Sequence[int],
    stride: Sequence[int],
    padding: Sequence[int],
    dilation: Sequence[int],
    transposed: bool,
    output_padding: Sequence[int],
    groups: int,
    output_mask: Sequence[bool],
) -> tuple[TFloat, TFloat, TFloat]:
    """convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)

    Gradients of input, weight and bias of a (transposed) convolution. The input's
    gradient is the adjoint convolution; the weight's is a convolution of the input with
    the output's gradient as its kernel (batch and channel axes swapped)."""
    spatial = rank(weight) - 2
    geometry = _Geometry(
        per_axis(stride, spatial), per_axis(padding, spatial), per_axis(dilation, spatial), groups
    )
    kernel = [static_dim(weight, axis) for axis in range(2, 2 + spatial)]
    ends = [int(k) for k in kernel if k is not None]
    kernel_ends = ends if len(ends) == spatial else op.Shape(weight, start=2)
    if transposed:
        # A conv_transpose's output_padding may exceed its stride: crop the extra rows.
        grad_input = op.Slice(
            op.Conv(grad_output, weight, **geometry.attributes()),
            [0] * spatial,
            op.Shape(input, start=2),
            list(range(2, 2 + spatial)),
        )
        grad_weight = _weight_gradient(grad_output, input, kernel_ends, geometry)
    else:
        grad_input = _input_gradient(grad_output, input, weight, geometry)
        grad_weight = _weight_gradient(input, grad_output, kernel_ends, geometry)
    grad_bias = op.ReduceSum(grad_output, _batch_and_spatial(spatial), keepdims=0)
    return grad_input, grad_weight, grad_bias


def _input_gradient(grad_output: Any, input: Any, weight: Any, geometry: _Geometry) -> Any:
    """ConvTranspose of the output's gradient, with the output padding that gives back the
    input's size (the rows a strided convolution skipped at the end get zero)."""
    spatial = len(geometry.strides)
    extra = []
    for axis in range(spatial):
        length = static_dim(input, 2 + axis)
        cells = static_dim(grad_output, 2 + axis)
        k = static_dim(weight, 2 + axis)
        if length is None or cells is None or k is None:
            return _fitted_input_gradient(grad_output, input, weight, geometry)
        covered = (
            (cells - 1) * geometry.strides[axis]
            - 2 * geometry.pads[axis]
            + geometry.dilations[axis] * (k - 1)
            + 1
        )
        extra.append(length - covered)
    return op.ConvTranspose(grad_output, weight, output_padding=extra, **geometry.attributes())


def _fitted_input_gradient(grad_output: Any, input: Any, weight: Any, geometry: _Geometry) -> Any:
    """:func:`_input_gradient` when sizes are known at run time only: ConvTranspose with
    only the leading pads cropped, then cut at the end to the input's size, or zeros
    added for the rows a strided convolution skipped."""
    spatial = len(geometry.strides)
    settings = {**geometry.attributes(), "pads": geometry.pads + [0] * spatial}
    full = op.ConvTranspose(grad_output, weight, **settings)
    target = op.Shape(input, start=2)
    axes = int64_constant(list(range(2, 2 + spatial)))
    cut = op.Slice(full, int64_constant([0] * spatial), target, axes)
    missing = op.Sub(target, op.Shape(cut, start=2))
    amounts = op.Concat(int64_constant([0] * spatial), missing, axis=0)
    return op.Pad(cut, amounts, op.CastLike(0.0, grad_output), axes)


def _weight_gradient(source: Any, grad: Any, kernel_ends: Any, geometry: _Geometry) -> Any:
    """d(weight)[o, i, k] = sum over batch and positions of grad[n, o, p] *
    source[n, i, p * stride + k * dilation - pad], for each group: a convolution with the
    batch as channels, ``grad`` as the kernel, strides and dilations swapped."""
    groups, spatial = geometry.groups, len(geometry.strides)
    # [N, G*Ci, *S] -> [Ci, G*N, *S]: each group's N channels per input channel of it.
    by_group = op.Reshape(
        source,
        op.Concat(
            op.Shape(source, end=1),
            op.Constant(value_ints=[groups, -1]),
            op.Shape(source, start=2),
            axis=0,
        ),
    )
    moved = op.Transpose(by_group, perm=[2, 1, 0, *range(3, 3 + spatial)])
    stacked = op.Reshape(
        moved, op.Concat(op.Constant(value_ints=[0, -1]), op.Shape(source, start=2), axis=0)
    )
    kernel_from_grad = op.Transpose(grad, perm=[1, 0, *range(2, 2 + spatial)])
    swapped = _Geometry(geometry.dilations, geometry.pads, geometry.strides, groups)
    full = op.Conv(stacked, kernel_from_grad, **swapped.attributes())
    trimmed = op.Slice(full, [0] * spatial, kernel_ends, list(range(2, 2 + spatial)))
    return op.Transpose(trimmed, perm=[1, 0, *range(2, 2 + spatial)])
