"""Pad: pads and value as attributes (2) or inputs (11), axes (18), wrap (19)."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript.version_converter import VersionConversionError
from tests.version_converter.conversion import (
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

X = {"x": rand(2, 3, 4)}
PADS = [0, 1, 2, 0, 0, 1]


@pytest.mark.parametrize(("mode", "value"), [("constant", 1.5), ("constant", 0.0), ("edge", 0.0)])
def test_pads_and_value(mode: str, value: float):
    old = make(
        [node("Pad", ["x"], ["y"], mode=mode, pads=PADS, value=value)],
        [info("x")],
        [out("y", 3)],
        10,
    )
    names = ["x", "pads", "v"] if value else ["x", "pads"]
    inits = [tensor("pads", PADS)] + ([tensor("v", value, np.float32)] if value else [])
    new = make([node("Pad", names, ["y"], mode=mode)], [info("x")], [out("y", 3)], 11, inits)
    up, down = pair(old, new, X)
    assert attrs(the(down, "Pad"))["pads"] == PADS


def test_axes_spelled_out_below_18():
    model = make(
        [node("Pad", ["x", "pads", "", "axes"], ["y"])],
        [info("x")],
        [out("y", 3)],
        18,
        [tensor("pads", [1, 2]), tensor("axes", [-1])],
    )
    down = converts(model, 13, X)
    assert len(the(down, "Pad").input) == 2 and ops(down) == ["Constant", "Pad"]


def test_wrap_refused_below_19():
    model = make(
        [node("Pad", ["x", "pads"], ["y"], mode="wrap")],
        [info("x")],
        [out("y", 3)],
        19,
        [tensor("pads", PADS)],
    )
    with pytest.raises(VersionConversionError, match="wrap"):
        convert(model, 18)
