"""QuantizeLinear / DequantizeLinear across their versions."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto

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
    rand,
    tensor,
    the,
)

X = {"x": rand(2, 3, 4)}


def test_per_tensor_round_trip_through_every_version():
    model = make(
        [
            node("QuantizeLinear", ["x", "s", "z"], ["q"]),
            node("DequantizeLinear", ["q", "s", "z"], ["y"]),
        ],
        [info("x")],
        [out("y", 3)],
        10,
        [tensor("s", 0.05, np.float32), tensor("z", 3, np.uint8)],
    )
    for target in (13, 19, 21, 23, 25):
        converts(converts(model, target, X), 10, X)


def test_per_axis_scale_refused_below_13():
    model = make(
        [node("QuantizeLinear", ["x", "s"], ["q"], axis=1)],
        [info("x")],
        [out("q", 3, TensorProto.UINT8)],
        13,
        [tensor("s", [0.1, 0.2, 0.3], np.float32)],
    )
    with pytest.raises(VersionConversionError, match="per-axis"):
        convert(model, 10)


def test_output_dtype_becomes_a_zero_point():
    model = make(
        [node("QuantizeLinear", ["x", "s"], ["q"], output_dtype=TensorProto.INT8)],
        [info("x")],
        [out("q", 3, TensorProto.INT8)],
        21,
        [tensor("s", 0.05, np.float32)],
    )
    down = converts(model, 19, X)
    assert len(the(down, "QuantizeLinear").input) == 3 and "output_dtype" not in attrs(
        the(down, "QuantizeLinear")
    )


def test_blocked_quantization_refused_below_21():
    model = make(
        [node("DequantizeLinear", ["q", "s"], ["y"], axis=1, block_size=2)],
        [info("q", TensorProto.INT8, [2, 4])],
        [out("y", 2, FLOAT)],
        21,
        [tensor("s", np.ones((2, 2)), np.float32)],
    )
    with pytest.raises(VersionConversionError, match="block_size"):
        convert(model, 19)
    assert ops(model) == ["DequantizeLinear"]
