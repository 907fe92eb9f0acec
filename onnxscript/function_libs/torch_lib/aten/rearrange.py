"""Rearranging an image's pixels: ``pixel_shuffle``/``pixel_unshuffle`` (channels to and
from blocks of positions) and ``im2col`` (``F.unfold``: each sliding block as a column)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten.nn import per_axis
from onnxscript.function_libs.torch_lib.helpers.constants import int64_constant
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.helpers.facts import is_floating, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import (
    BIG,
    concat_shape,
    dim_size,
    dims_piece,
    mul,
    scalar_like,
    size_pieces,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import TAnyTensor, TFloat


def _as_images(self: Any) -> Any:
    """``self`` [*batch, C, H, W] as [prod(batch), C, H, W] (itself when 4-D)."""
    if rank(self) == 4:
        return self
    return op.Reshape(self, concat_shape([[-1], dims_piece(self, rank(self) - 3, rank(self))]))


def _with_batch(result: Any, self: Any) -> Any:
    """An image result [prod(batch), C', H', W'] given ``self``'s batch dims back."""
    if rank(self) == 4:
        return result
    batch = dims_piece(self, 0, rank(self) - 3)
    return op.Reshape(result, concat_shape([batch, op.Shape(result, start=1)]))


@aten("aten::pixel_shuffle")
def pixel_shuffle(self: TAnyTensor, upscale_factor: int) -> TAnyTensor:
    """pixel_shuffle(Tensor self, int upscale_factor) -> Tensor

    [*, C*r*r, H, W] -> [*, C, H*r, W*r]: ONNX DepthToSpace in its CRD order (for
    floating types, which onnxruntime's kernel takes), else a Reshape-Transpose-Reshape."""
    r = int(upscale_factor)
    if r == 1:
        return op.Identity(self)
    images = _as_images(self)
    if is_floating(self):
        return _with_batch(op.DepthToSpace(images, blocksize=r, mode="CRD"), self)
    height_width = op.Shape(images, start=2)
    blocks = op.Reshape(images, concat_shape([[0, -1, r, r], height_width]))
    moved = op.Transpose(blocks, perm=[0, 1, 4, 2, 5, 3])
    shuffled = op.Reshape(
        moved, concat_shape([[0, 0], op.Mul(height_width, op.Constant(value_int=r))])
    )
    return _with_batch(shuffled, self)


@aten("aten::pixel_unshuffle")
def pixel_unshuffle(self: TAnyTensor, downscale_factor: int) -> TAnyTensor:
    """pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor

    [*, C, H*r, W*r] -> [*, C*r*r, H, W] (channel c*r*r + i*r + j holds position
    (i, j) of each block: ONNX SpaceToDepth's order differs), a Reshape-Transpose-Reshape."""
    r = int(downscale_factor)
    if r == 1:
        return op.Identity(self)
    images = _as_images(self)
    height_width = op.Div(op.Shape(images, start=2), op.Constant(value_int=r))
    height, width = op.Slice(height_width, [0], [1]), op.Slice(height_width, [1], [2])
    blocks = op.Reshape(images, concat_shape([[0, 0], height, [r], width, [r]]))
    moved = op.Transpose(blocks, perm=[0, 1, 3, 5, 2, 4])
    return _with_batch(op.Reshape(moved, concat_shape([[0, -1], height_width])), self)


@aten("aten::im2col")
def im2col(
    self: TFloat,
    kernel_size: Sequence[int],
    dilation: Sequence[int],
    padding: Sequence[int],
    stride: Sequence[int],
) -> TFloat:
    """im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor

    [N, C, H, W] -> [N, C*kh*kw, L]: the padded input sliced once per kernel offset
    (a strided Slice whose end leaves room for the rest of the kernel, so every slice
    holds the L block positions), the slices stacked after the channels. Exact (no
    multiplication), and the sizes come from the run-time shape."""
    unbatched = rank(self) == 3
    x = op.Unsqueeze(self, [0]) if unbatched else self
    kernel = per_axis(kernel_size, 2)
    dilations = per_axis(dilation, 2)
    strides = per_axis(stride, 2)
    pads: list[int] = per_axis(padding, 2)
    if any(pads):
        amounts = int64_constant([0, 0, *pads, 0, 0, *pads])
        x = op.Pad(x, amounts, scalar_like(0.0, self))
    columns = []
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            starts = [i * dilations[0], j * dilations[1]]
            ends = [
                -(dilations[0] * (kernel[0] - 1 - i)) or BIG,
                -(dilations[1] * (kernel[1] - 1 - j)) or BIG,
            ]
            block = op.Slice(x, starts, ends, [2, 3], strides)
            columns.append(op.Unsqueeze(block, [2]))
    stacked = op.Concat(*columns, axis=2)  # [N, C, kh*kw, oh, ow]
    rows = mul(dim_size(x, 1), len(columns))
    positions = op.ReduceProd(op.Shape(stacked, start=3), keepdims=1)
    # Every size given (no -1): a batch of 0 leaves -1 undetermined.
    shape = concat_shape([[0], size_pieces([rows])[0], positions])
    if static_dim(x, 0) == 0:
        # onnxruntime's shape inference refuses a target shape whose known sizes
        # multiply to 0 beside an unknown one (it takes that for -1): a shape it does
        # not propagate.
        shape = op.Abs(shape)
    out = op.Reshape(stacked, shape)
    return op.Squeeze(out, [0]) if unbatched else out
