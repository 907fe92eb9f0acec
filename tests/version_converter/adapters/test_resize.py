"""Upsample and Resize across their versions."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript.version_converter import VersionConversionError
from tests.version_converter.conversion import (
    FLOAT,
    attrs,
    convert,
    converts,
    info,
    make,
    node,
    ops,
    out,
    pair,
    rand,
    tensor,
    the,
)

SHAPE = [1, 2, 3, 4]
X = {"x": rand(*SHAPE)}
SCALES = [1.0, 1.0, 2.0, 1.5]


def _scales() -> list:
    return [tensor("scales", SCALES, np.float32)]


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_upsample_scales_become_an_input(mode: str):
    old = make(
        [node("Upsample", ["x"], ["y"], mode=mode, scales=SCALES)],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        7,
    )
    new = make(
        [node("Upsample", ["x", "scales"], ["y"], mode=mode)],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        9,
        _scales(),
    )
    up, down = pair(old, new, X)
    assert attrs(the(down, "Upsample"))["scales"] == SCALES


@pytest.mark.parametrize("mode", ["nearest", "linear"])
def test_upsample_becomes_resize_and_back(mode: str):
    """Upsample-9 and Resize-10 mean the same; Resize-11 needs asymmetric coordinates
    (and floor rounding for nearest) to mean it too."""
    upsample = make(
        [node("Upsample", ["x", "scales"], ["y"], mode=mode)],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        9,
        _scales(),
    )
    at_10 = converts(upsample, 10, X)
    assert ops(at_10) == ["Resize"]
    at_13 = converts(upsample, 13, X)
    resize = attrs(the(at_13, "Resize"))
    assert resize["coordinate_transformation_mode"] == b"asymmetric"
    assert ops(converts(at_13, 9, X)) == ["Upsample"]


def test_half_pixel_resize_cannot_go_below_11():
    model = make(
        [node("Resize", ["x", "", "scales"], ["y"], mode="linear")],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        13,
        _scales(),
    )
    with pytest.raises(VersionConversionError, match="half_pixel"):
        convert(model, 10)


def test_resize_13_omitted_roi_given_for_11():
    model = make(
        [node("Resize", ["x", "", "scales"], ["y"], mode="cubic")],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        13,
        _scales(),
    )
    down = converts(model, 11, X)
    assert ops(down) == ["Constant", "Resize"] and the(down, "Resize").input[1]


def test_resize_sizes_become_scales_for_10():
    model = make(
        [
            node(
                "Resize",
                ["x", "", "", "sizes"],
                ["y"],
                mode="nearest",
                coordinate_transformation_mode="asymmetric",
                nearest_mode="floor",
            )
        ],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        13,
        [tensor("sizes", [1, 2, 6, 6])],
    )
    down = converts(model, 10, X)
    assert ops(down) == ["Constant", "Resize"]


def test_resize_18_axes_spelled_out():
    model = make(
        [node("Resize", ["x", "", "scales"], ["y"], mode="linear", axes=[2, 3])],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        18,
        [tensor("scales", [2.0, 1.5], np.float32)],
    )
    down = converts(model, 13, X)
    assert "axes" not in attrs(the(down, "Resize"))


@pytest.mark.parametrize(
    ("extra", "message"),
    [({"antialias": 1}, "antialias"), ({"keep_aspect_ratio_policy": "not_larger"}, "keep_aspect")],
)
def test_resize_18_features_refused_below(extra: dict, message: str):
    model = make(
        [node("Resize", ["x", "", "", "sizes"], ["y"], mode="linear", **extra)],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        18,
        [tensor("sizes", [1, 2, 6, 6], np.int64)],
    )
    with pytest.raises(VersionConversionError, match=message):
        convert(model, 17)


def test_resize_19_half_pixel_symmetric_refused_below():
    model = make(
        [
            node(
                "Resize",
                ["x", "", "scales"],
                ["y"],
                mode="linear",
                coordinate_transformation_mode="half_pixel_symmetric",
            )
        ],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        19,
        _scales(),
    )
    with pytest.raises(VersionConversionError, match="half_pixel_symmetric"):
        convert(model, 18)
