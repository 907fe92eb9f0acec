"""torchvision's detection ops (``torchvision::``): nms, roi_align, roi_pool and
deform_conv2d, as torchvision's CPU kernels compute them."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.constants import int64_constant, typed_constant
from onnxscript.function_libs.torch_lib.helpers.facts import dim, element_type
from onnxscript.function_libs.torch_lib.helpers.sizes import (
    as_int64,
    concat_shape,
    dim_size,
    dims_piece,
    is_static,
    mul,
    scalar_like,
    vector_input,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TFloat
from onnxscript.onnx_types import INT32

FLOAT = ir.DataType.FLOAT


def _static(value: Any, name: str) -> int:
    if not is_static(value):
        raise ValueError(f"{name} must be known when exporting (it is symbolic here)")
    return int(value)


def _size_as(size: Any, dtype: ir.DataType) -> Any:
    """A size (static or a rank-0 INT64 value) as a number of ``dtype``."""
    return typed_constant(float(size), dtype) if is_static(size) else op.Cast(size, to=dtype)


def _floor_div(a: Any, b: Any) -> Any:
    """``a // b`` of non-negative sizes, folded when both are static."""
    if is_static(a) and is_static(b):
        return int(a) // int(b)
    return op.Div(as_int64(a), as_int64(b))


def _as_float(value: Any) -> Any:
    return value if element_type(value) == FLOAT else op.Cast(value, to=FLOAT)


@aten("torchvision::nms")
def nms(dets: TFloat, scores: TFloat, iou_threshold: float) -> INT64:
    """torchvision::nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor

    The indices of the boxes kept (``x1, y1, x2, y2``), by decreasing score; a box is
    dropped when its IoU with a kept one is above the threshold."""
    boxes = op.Unsqueeze(_as_float(dets), [0])  # [1, N, 4]
    batch_scores = op.Unsqueeze(_as_float(scores), [0, 1])  # [1, 1, N]
    count = op.Shape(dets, start=0, end=1)  # every box may be kept
    threshold = typed_constant(float(iou_threshold), FLOAT)
    selected = op.NonMaxSuppression(boxes, batch_scores, count, threshold)
    return op.Reshape(op.Slice(selected, [2], [3], [1]), [-1])  # (batch, class, box)


def _split_rois(rois: Any) -> tuple[Any, Any]:
    """torchvision's rois ``[K, 5]`` (batch index, x1, y1, x2, y2) as boxes ``[K, 4]`` and
    INT64 batch indices ``[K]``."""
    batch = op.Cast(op.Reshape(op.Slice(rois, [0], [1], [1]), [-1]), to=INT64.dtype)
    return op.Slice(rois, [1], [5], [1]), batch


@aten("torchvision::roi_align")
def roi_align(
    input: TFloat,
    rois: TFloat,
    spatial_scale: float,
    pooled_height: int,
    pooled_width: int,
    sampling_ratio: int,
    aligned: bool,
) -> TFloat:
    """torchvision::roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width, int sampling_ratio, bool aligned) -> Tensor

    ONNX RoiAlign (opset 16): ``aligned`` shifts by half a pixel (``half_pixel``);
    a sampling ratio of 0 or less is adaptive in both."""
    boxes, batch = _split_rois(rois)
    return op.RoiAlign(
        input,
        boxes,
        batch,
        coordinate_transformation_mode="half_pixel" if aligned else "output_half_pixel",
        mode="avg",
        output_height=_static(pooled_height, "pooled_height"),
        output_width=_static(pooled_width, "pooled_width"),
        sampling_ratio=max(int(sampling_ratio), 0),
        spatial_scale=float(spatial_scale),
    )


@aten("torchvision::roi_pool")
def roi_pool(
    input: TFloat, rois: TFloat, spatial_scale: float, pooled_height: int, pooled_width: int
) -> tuple[TFloat, INT32]:
    """torchvision::roi_pool(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, SymInt pooled_width) -> (Tensor, Tensor)

    ONNX MaxRoiPool, and the index (``h * W + w``) of each maximum in its plane, -1 in
    an empty bin. The index is computed over every bin and input position (memory
    ``K * C * ph * pw * H * W``): it costs nothing when unused (torchvision.ops.roi_pool
    drops it, and the exported graph's unused nodes are removed)."""
    height = _static(pooled_height, "pooled_height")
    width = _static(pooled_width, "pooled_width")
    output = op.MaxRoiPool(input, rois, pooled_shape=[height, width], spatial_scale=spatial_scale)
    return output, _roi_pool_argmax(input, rois, spatial_scale, height, width)


def _bin_mask(start: Any, end: Any, pooled: int, size: Any) -> Any:
    """``[K, pooled, size]``: whether each position along one axis lies in each bin of
    each roi (torchvision: a roi ``end - start + 1`` long, at least 1, cut in ``pooled``
    bins from ``floor(b * len / pooled)`` to ``ceil((b + 1) * len / pooled)``, clipped)."""
    length = op.Max(
        op.Add(op.Sub(end, start), typed_constant(1.0, FLOAT)), typed_constant(1.0, FLOAT)
    )
    bin_size = op.Div(length, typed_constant(float(pooled), FLOAT))  # [K, 1]
    bins = typed_constant([float(b) for b in range(pooled)], FLOAT)  # [pooled]
    low = op.Add(op.Floor(op.Mul(bins, bin_size)), start)  # [K, pooled]
    high = op.Add(op.Ceil(op.Mul(op.Add(bins, typed_constant(1.0, FLOAT)), bin_size)), start)
    zero = typed_constant(0.0, FLOAT)
    limit = _size_as(size, FLOAT)
    low = op.Min(op.Max(low, zero), limit)
    high = op.Min(op.Max(high, zero), limit)
    positions = op.Cast(op.Range(int64_constant(0), as_int64(size), int64_constant(1)), to=FLOAT)
    inside_low = op.GreaterOrEqual(positions, op.Unsqueeze(low, [2]))
    inside_high = op.Less(positions, op.Unsqueeze(high, [2]))
    return op.And(inside_low, inside_high)


def _roi_pool_argmax(input: Any, rois: Any, spatial_scale: float, height: int, width: int) -> Any:
    boxes = _as_float(op.Slice(rois, [1], [5], [1]))
    scaled = op.Mul(boxes, typed_constant(float(spatial_scale), FLOAT))
    half = typed_constant(0.5, FLOAT)
    scaled = op.Mul(op.Sign(scaled), op.Floor(op.Add(op.Abs(scaled), half)))  # C's round
    x1, y1, x2, y2 = (op.Slice(scaled, [i], [i + 1], [1]) for i in range(4))  # each [K, 1]
    rows = _bin_mask(y1, y2, height, dim_size(input, 2))  # [K, ph, H]
    cols = _bin_mask(x1, x2, width, dim_size(input, 3))  # [K, pw, W]
    region = op.And(op.Unsqueeze(rows, [2, 4]), op.Unsqueeze(cols, [1, 3]))  # [K, ph, pw, H, W]
    _, batch = _split_rois(rois)
    planes = op.Gather(input, batch, axis=0)  # [K, C, H, W]
    lowest = scalar_like(float("-inf"), input)
    values = op.Where(op.Unsqueeze(region, [1]), op.Unsqueeze(planes, [2, 3]), lowest)
    flat = op.Reshape(values, [0, 0, 0, 0, -1])  # [K, C, ph, pw, H * W]
    index = op.ArgMax(flat, axis=4, keepdims=0)
    covered = op.ReduceMax(op.Cast(region, to=INT64.dtype), [3, 4], keepdims=0)  # [K, ph, pw]
    empty = op.Unsqueeze(op.Equal(covered, int64_constant(0)), [1])
    found = op.Cast(index, to=ir.DataType.INT32)  # torchvision's argmax is int32
    return op.Where(empty, typed_constant(-1, ir.DataType.INT32), found)


@aten("torchvision::deform_conv2d")
def deform_conv2d(
    input: TFloat,
    weight: TFloat,
    offset: TFloat,
    mask: TFloat,
    bias: TFloat,
    stride_h: int,
    stride_w: int,
    pad_h: int,
    pad_w: int,
    dilation_h: int,
    dilation_w: int,
    groups: int,
    offset_groups: int,
    use_mask: bool,
) -> TFloat:
    """torchvision::deform_conv2d(Tensor input, Tensor weight, Tensor offset, Tensor mask, Tensor bias, SymInt stride_h, SymInt stride_w, SymInt pad_h, SymInt pad_w, SymInt dilation_h, SymInt dilation_w, SymInt groups, SymInt offset_groups, bool use_mask) -> Tensor

    Deformable convolution, decomposed (ONNX DeformConv is opset 19, above the
    library's opset 18): each kernel tap's displaced positions are sampled with GridSample
    (bilinear, zeros outside, as torchvision), scaled by the mask, and contracted with
    the weight by one batched MatMul per group. The weight's shape must be static."""
    out_channels, group_channels, kernel_h, kernel_w = (
        _static(dim(weight, axis), "the weight's shape") for axis in range(4)
    )
    taps = kernel_h * kernel_w
    # groups and offset groups are sizes torch may give symbolically (a channel count
    # divided by the weight's): they only shape Reshapes.
    group_piece, offset_piece = vector_input(groups), vector_input(offset_groups)
    channels_per_offset = _floor_div(dim_size(input, 1), offset_groups)
    dtype = element_type(input) or FLOAT

    def constant(values: Any) -> Any:
        return typed_constant(values, dtype)

    out_w = dim_size(offset, 3)
    length = mul(dim_size(offset, 2), out_w)  # Hout * Wout
    # Output positions (row-major) and kernel taps, in input pixels.
    flat = op.Range(int64_constant(0), as_int64(length), int64_constant(1))
    out_y = op.Div(flat, as_int64(out_w))
    out_x = op.Sub(flat, op.Mul(out_y, as_int64(out_w)))
    base_y = op.Sub(
        op.Mul(op.Cast(out_y, to=dtype), constant(float(stride_h))), constant(float(pad_h))
    )
    base_x = op.Sub(
        op.Mul(op.Cast(out_x, to=dtype), constant(float(stride_w))), constant(float(pad_w))
    )
    tap_y = constant([[float(i * dilation_h)] for i in range(kernel_h) for _ in range(kernel_w)])
    tap_x = constant([[float(j * dilation_w)] for _ in range(kernel_h) for j in range(kernel_w)])
    # offset [N, 2 * G * taps, Hout, Wout]: (dy, dx) per group and tap; [N, G, taps, 2, L].
    shifts = op.Reshape(offset, concat_shape([[0], offset_piece, [taps, 2, -1]]))
    shift_y = op.Squeeze(op.Slice(shifts, [0], [1], [3]), [3])  # [N, G, taps, L]
    shift_x = op.Squeeze(op.Slice(shifts, [1], [2], [3]), [3])
    y = op.Add(op.Add(base_y, tap_y), shift_y)
    x = op.Add(op.Add(base_x, tap_x), shift_x)
    # GridSample's normalized coordinates (align_corners=0): (2 * p + 1) / size - 1.
    one, two = constant(1.0), constant(2.0)
    in_h = _size_as(dim_size(input, 2), dtype)
    in_w = _size_as(dim_size(input, 3), dtype)
    grid_y = op.Sub(op.Div(op.Add(op.Mul(y, two), one), in_h), one)
    grid_x = op.Sub(op.Div(op.Add(op.Mul(x, two), one), in_w), one)
    grid = op.Concat(op.Unsqueeze(grid_x, [4]), op.Unsqueeze(grid_y, [4]), axis=4)
    length_piece = vector_input(length)
    grid = op.Reshape(grid, concat_shape([[-1, taps], length_piece, [2]]))  # [N*G, taps, L, 2]
    planes_shape = concat_shape([[-1], vector_input(channels_per_offset), [0, 0]])
    planes = op.Reshape(input, planes_shape)  # [N*G, C/G, H, W]
    sampled = op.GridSample(planes, grid, mode="bilinear", padding_mode="zeros", align_corners=0)
    if use_mask:  # mask [N, G * taps, Hout, Wout]
        weights = op.Reshape(mask, concat_shape([[-1, 1, taps], length_piece]))
        sampled = op.Mul(sampled, weights)
    # columns [N, groups, C/groups * taps, L] against weight [groups, Cout/groups, ...]
    columns = op.Reshape(
        sampled, concat_shape([[-1], group_piece, [group_channels * taps], length_piece])
    )
    kernel = op.Reshape(weight, concat_shape([group_piece, [-1, group_channels * taps]]))
    result = op.MatMul(kernel, columns)  # [N, groups, Cout/groups, L]
    shape = concat_shape([[-1, out_channels], dims_piece(offset, 2, 4)])
    result = op.Reshape(result, shape)
    return op.Add(result, op.Reshape(bias, [-1, 1, 1]))


__all__ = ["deform_conv2d", "nms", "roi_align", "roi_pool"]
