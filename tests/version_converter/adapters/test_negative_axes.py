"""Opset 11's negative axes and indices, taken back to opset 10."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript.version_converter import VersionConversionError
from tests.version_converter.conversion import (
    FLOAT,
    INT64,
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


@pytest.mark.parametrize(
    ("op", "name", "value", "rank"),
    [
        ("Softmax", "axis", -1, 3),
        ("Concat", "axis", -2, 3),
        ("Flatten", "axis", -1, 2),
        ("ArgMax", "axis", -1, 3),
        ("ReduceSum", "axes", [-1], 3),
        ("Unsqueeze", "axes", [-1], 4),
    ],
)
def test_negative_axes_counted(op: str, name: str, value: object, rank: int):
    inputs = ["x", "x"] if op == "Concat" else ["x"]
    dtype = INT64 if op == "ArgMax" else FLOAT
    model = make(
        [node(op, inputs, ["y"], **{name: value})], [info("x")], [out("y", rank, dtype)], 11
    )
    down = converts(model, 10, {"x": rand(2, 3, 4)})
    counted = attrs(the(down, op))[name]
    assert all(a >= 0 for a in (counted if isinstance(counted, list) else [counted]))


def test_negative_axis_needs_the_rank():
    nodes = [node("Relu", ["x"], ["r"]), node("Softmax", ["r"], ["y"], axis=-2)]
    model = make(nodes, [info("x")], [out("y", 3)], 11)
    with pytest.raises(VersionConversionError, match="rank of 'r' is unknown"):
        convert(model, 10)


def test_gather_negative_indices_shifted_at_run_time():
    model = make(
        [node("Gather", ["x", "i"], ["y"], axis=1)],
        [info("x"), info("i", INT64, [2])],
        [out("y", 3)],
        11,
    )
    feeds = {"x": rand(2, 3, 4), "i": np.array([-1, 1], np.int64)}
    down = converts(model, 10, feeds)
    assert {"Less", "Where"} <= set(ops(down))


def test_gather_constant_indices_left_alone():
    model = make(
        [node("Gather", ["x", "i"], ["y"], axis=1)],
        [info("x")],
        [out("y", 3)],
        11,
        [tensor("i", [0, 2])],
    )
    assert ops(converts(model, 10, {"x": rand(2, 3, 4)})) == ["Gather"]


def test_one_hot_negative_axis_and_indices():
    model = make(
        [node("OneHot", ["i", "depth", "values"], ["y"], axis=-1)],
        [info("i", INT64, [4])],
        [out("y", 2)],
        11,
        [tensor("depth", 5), tensor("values", [0.0, 1.0], np.float32)],
    )
    down = converts(model, 10, {"i": np.array([0, -1, 3, -5], np.int64)})
    assert attrs(the(down, "OneHot"))["axis"] == 1


def test_slice_negative_constant_axes():
    model = make(
        [node("Slice", ["x", "s", "e", "a"], ["y"])],
        [info("x")],
        [out("y", 3)],
        11,
        [tensor("s", [1]), tensor("e", [3]), tensor("a", [-1])],
    )
    down = converts(model, 10, {"x": rand(2, 3, 4)})
    assert ops(down) == ["Constant", "Slice"]
