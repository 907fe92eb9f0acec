"""torchvision's ops (``torchvision::nms``, ``roi_align``, ``roi_pool``, ``deform_conv2d``)
exported through torch.onnx and compared with torchvision's own CPU kernels, at the export's
sizes and, with dynamic dims (batch, number of boxes, image size), at others."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
torchvision = pytest.importorskip("torchvision")

from tests.function_libs import dynamic_export  # noqa: E402

DYNAMIC = torch.export.Dim.DYNAMIC


def _generator(seed: int) -> Any:
    return torch.Generator().manual_seed(seed)


def _boxes(count: int, seed: int, size: float = 32.0, integer: bool = False) -> Any:
    """``[count, 4]`` boxes ``x1, y1, x2, y2`` inside a ``size`` square, overlapping."""
    generator = _generator(seed)
    corner = torch.rand(count, 2, generator=generator) * size * 0.6
    extent = torch.rand(count, 2, generator=generator) * size * 0.4 + 1.0
    boxes = torch.cat([corner, corner + extent], 1)
    return boxes.round() if integer else boxes


def _rois(count: int, batch: int, seed: int, integer: bool = False) -> Any:
    index = torch.randint(0, batch, (count, 1), generator=_generator(seed)).float()
    return torch.cat([index, _boxes(count, seed, integer=integer)], 1)


def _images(batch: int, size: int, seed: int) -> Any:
    return torch.randn(batch, 3, size, size, generator=_generator(seed))


def _assert_matches(program: Any, module: torch.nn.Module, inputs: list[tuple[Any, ...]]) -> None:
    for args, difference in zip(inputs, dynamic_export.check_at(program, module, inputs)):
        assert difference.ok, (difference, [tuple(a.shape) for a in args])


class _Nms(torch.nn.Module):
    def forward(self, boxes: Any, scores: Any) -> Any:
        return torchvision.ops.nms(boxes, scores, 0.4)


def test_nms_dynamic_number_of_boxes() -> None:
    module = _Nms()
    args = (_boxes(30, 0), torch.rand(30, generator=_generator(0)))
    program = dynamic_export.export(module, args, dynamic_shapes=({0: DYNAMIC}, {0: DYNAMIC}))
    assert "NonMaxSuppression" in {n.op_type for n in program.model.graph}
    others = [args, (_boxes(47, 1), torch.rand(47, generator=_generator(1)))]
    for boxes, scores in others:
        assert len(module(boxes, scores)) < len(boxes)  # some boxes are dropped
    _assert_matches(program, module, others)


class _RoiAlign(torch.nn.Module):
    def __init__(self, aligned: bool, sampling_ratio: int) -> None:
        super().__init__()
        self.aligned, self.sampling_ratio = aligned, sampling_ratio

    def forward(self, images: Any, rois: Any) -> Any:
        return torchvision.ops.roi_align(
            images, rois, (3, 4), 0.5, self.sampling_ratio, self.aligned
        )


class _RoiPool(torch.nn.Module):
    """torchvision.ops.roi_pool keeps the values; the op itself also gives the argmax."""

    def __init__(self, with_argmax: bool) -> None:
        super().__init__()
        self.with_argmax = with_argmax

    def forward(self, images: Any, rois: Any) -> Any:
        if self.with_argmax:
            return torch.ops.torchvision.roi_pool(images, rois, 0.5, 3, 4)
        return torchvision.ops.roi_pool(images, rois, (3, 4), 0.5)


ROI_MODULES = {
    "roi_align aligned adaptive": _RoiAlign(True, -1),
    "roi_align unaligned adaptive": _RoiAlign(False, 0),
    "roi_align unaligned ratio 2": _RoiAlign(False, 2),
    "roi_pool": _RoiPool(False),
    "roi_pool with argmax": _RoiPool(True),
}


@pytest.mark.parametrize("name", list(ROI_MODULES))
def test_roi_ops_dynamic_batch_boxes_and_size(name: str) -> None:
    module = ROI_MODULES[name]
    integer = name.startswith("roi_pool")  # x * 0.5 on a half: C's round, away from 0
    args = (_images(2, 16, 0), _rois(6, 2, 0, integer))
    spec = ({0: DYNAMIC, 2: DYNAMIC, 3: DYNAMIC}, {0: DYNAMIC})
    program = dynamic_export.export(module, args, dynamic_shapes=spec)
    others = [args, (_images(3, 20, 1), _rois(11, 3, 1, integer))]
    _assert_matches(program, module, others)
    if name == "roi_pool":  # the argmax, unused, is removed with the optimizer
        assert [n.op_type for n in program.model.graph if n.op_type != "Constant"][0:1] == [
            "MaxRoiPool"
        ]
        assert "ArgMax" not in {n.op_type for n in program.model.graph}


class _DeformConv(torch.nn.Module):
    def __init__(self, groups: int, offset_groups: int, use_mask: bool, **conv: int) -> None:
        super().__init__()
        generator = _generator(groups + offset_groups)
        self.weight = torch.nn.Parameter(torch.randn(6, 4 // groups, 3, 3, generator=generator))
        self.bias = torch.nn.Parameter(torch.randn(6, generator=generator))
        self.offset_groups, self.use_mask, self.conv = offset_groups, use_mask, conv

    def forward(self, images: Any, offset: Any, mask: Any) -> Any:
        return torchvision.ops.deform_conv2d(
            images,
            offset,
            self.weight,
            self.bias,
            mask=mask if self.use_mask else None,
            **self.conv,
        )

    def inputs(self, batch: int, height: int, width: int, seed: int) -> tuple[Any, ...]:
        stride = self.conv.get("stride", 1)
        padding = self.conv.get("padding", 0)
        dilation = self.conv.get("dilation", 1)
        out_h = (height + 2 * padding - dilation * 2 - 1) // stride + 1
        out_w = (width + 2 * padding - dilation * 2 - 1) // stride + 1
        generator = _generator(seed)
        taps = self.offset_groups * 9
        images = torch.randn(batch, 4, height, width, generator=generator)
        offset = torch.randn(batch, 2 * taps, out_h, out_w, generator=generator) * 2
        mask = torch.rand(batch, taps, out_h, out_w, generator=generator)
        return images, offset, mask


DEFORM_MODULES = {
    "mask": _DeformConv(1, 1, True, padding=1),
    "strided dilated": _DeformConv(1, 1, True, stride=2, dilation=2),
    "groups, offset groups, no mask": _DeformConv(2, 2, False, padding=1),
}


@pytest.mark.parametrize("name", list(DEFORM_MODULES))
def test_deform_conv2d_every_dim_dynamic(name: str) -> None:
    """Batch, channels and image size symbolic (the groups torchvision derives from the
    channels too), checked at grown sizes."""
    module = DEFORM_MODULES[name]
    args = module.inputs(2, 9, 11, 0)
    capture = dynamic_export.capture_dynamic(module, args)
    assert {(0, 0), (0, 2), (0, 3), (1, 2), (1, 3)} <= capture.dynamic
    program = dynamic_export.export_program(capture.program, args)
    assert "GridSample" in {n.op_type for n in program.model.graph}
    other = dynamic_export.other_inputs(capture.program, module, args, capture.dynamic)
    assert other is not None
    _assert_matches(program, module, [args, other[1]])


def test_eager_against_torchvision() -> None:
    """Our functions called on arrays (onnxscript's eager mode)."""
    from onnxscript.function_libs.torch_lib.aten import vision

    boxes, scores = _boxes(25, 3), torch.rand(25, generator=_generator(3))
    kept = vision.nms(boxes.numpy(), scores.numpy(), 0.4)
    np.testing.assert_array_equal(kept, torchvision.ops.nms(boxes, scores, 0.4).numpy())
    images, rois = _images(2, 12, 4), _rois(5, 2, 4, integer=True)
    aligned = vision.roi_align(images.numpy(), rois.numpy(), 0.5, 3, 2, -1, True)
    expected = torchvision.ops.roi_align(images, rois, (3, 2), 0.5, -1, True).numpy()
    np.testing.assert_allclose(aligned, expected, rtol=1e-5, atol=1e-5)
    pooled, argmax = vision.roi_pool(images.numpy(), rois.numpy(), 0.5, 3, 2)
    torch_pooled, torch_argmax = torch.ops.torchvision.roi_pool(images, rois, 0.5, 3, 2)
    np.testing.assert_array_equal(pooled, torch_pooled.numpy())
    np.testing.assert_array_equal(argmax, torch_argmax.numpy())
    module = DEFORM_MODULES["groups, offset groups, no mask"]
    images, offset, mask = module.inputs(1, 6, 7, 5)
    with torch.no_grad():
        expected = module(images, offset, mask).numpy()
        weight, bias = module.weight.numpy(), module.bias.numpy()
    got = vision.deform_conv2d(
        images.numpy(), weight, offset.numpy(), mask.numpy(), bias, 1, 1, 1, 1, 1, 1, 2, 2, False
    )
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
