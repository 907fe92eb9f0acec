"""Dropout's mask type (10) and its ratio/training_mode inputs (12)."""

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
    rand,
    run,
    tensor,
    the,
)

X = {"x": rand(2, 3, 4)}


def test_output_unchanged_across_versions():
    model = make([node("Dropout", ["x"], ["y"], ratio=0.3)], [info("x")], [out("y", 3)], 7)
    up = converts(model, 13, X)
    assert ops(up) == ["Constant", "Dropout"]
    assert attrs(the(converts(up, 7, X), "Dropout")) == {"ratio": pytest.approx(0.3)}


def test_inference_mask_is_all_true_below_12():
    """Dropout-12's inference mask is all true; older versions leave it unspecified, so it
    is computed apart: ConstantOfShape, or Tile before ConstantOfShape existed (9)."""
    model = make(
        [node("Dropout", ["x"], ["y", "mask"])],
        [info("x")],
        [out("y", 3), out("mask", 3, onnx_bool())],
        13,
    )
    for target, maker in ((10, "ConstantOfShape"), (7, "Tile")):
        down = convert(model, target)
        assert maker in ops(down)
        y, mask = run(down, X)
        np.testing.assert_array_equal(y, X["x"])
        assert mask.dtype == np.bool_ and mask.all(), target


def test_mask_of_dropout_7_cast_for_10():
    model = make(
        [node("Dropout", ["x"], ["y", "mask"])],
        [info("x")],
        [out("y", 3), out("mask", 3, FLOAT)],
        7,
    )
    up = convert(model, 10)
    assert ops(up) == ["Dropout", "Cast"]
    assert up.graph.output[1].type.tensor_type.elem_type == FLOAT


def test_training_mode_refused_below_12():
    model = make(
        [node("Dropout", ["x", "ratio", "training"], ["y"])],
        [info("x")],
        [out("y", 3)],
        13,
        [tensor("ratio", 0.5, np.float32), tensor("training", True, np.bool_)],
    )
    with pytest.raises(VersionConversionError, match="training_mode"):
        convert(model, 11)


def onnx_bool() -> int:
    return 9  # TensorProto.BOOL
