"""Ops written with older ops below their first version: Gelu, ConstantOfShape."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript.version_converter import VersionConversionError
from tests.version_converter.conversion import (
    convert,
    converts,
    info,
    make,
    node,
    ops,
    out,
    rand,
    tensor,
)


@pytest.mark.parametrize(
    ("approximate", "target"), [("none", 19), ("none", 9), ("tanh", 19), ("tanh", 7)]
)
def test_gelu(approximate: str, target: int):
    model = make(
        [node("Gelu", ["x"], ["y"], approximate=approximate)], [info("x")], [out("y", 3)], 20
    )
    down = converts(model, target, {"x": rand(2, 3, 4)}, atol=1e-5)
    assert "Gelu" not in ops(down)


def test_gelu_needs_erf():
    model = make([node("Gelu", ["x"], ["y"])], [info("x")], [out("y", 3)], 20)
    with pytest.raises(
        VersionConversionError, match=r"Erf node .* Erf does not exist before opset 9"
    ):
        convert(model, 8)


def test_constant_of_shape_below_9():
    model = make(
        [
            node("Shape", ["x"], ["s"]),
            node("ConstantOfShape", ["s"], ["y"], value=tensor("v", [2.5], np.float32)),
        ],
        [info("x")],
        [out("y", 3)],
        9,
    )
    down = converts(model, 8, {"x": rand(2, 3, 4)})
    assert "Tile" in ops(down)
