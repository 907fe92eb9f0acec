"""Scatter (deprecated at 11) and ScatterElements-11."""

from __future__ import annotations

import numpy as np

from tests.version_converter.conversion import (
    INT64,
    converts,
    info,
    make,
    node,
    ops,
    out,
    rand,
)


def _scatter(op: str, opset: int) -> object:
    return make(
        [node(op, ["x", "i", "u"], ["y"], axis=1)],
        [info("x", shape=[2, 3]), info("i", INT64, [2, 1]), info("u", shape=[2, 1])],
        [out("y", 2)],
        opset,
    )


def test_scatter_becomes_scatter_elements():
    feeds = {"x": rand(2, 3), "i": np.array([[2], [0]], np.int64), "u": rand(2, 1, seed=1)}
    up = converts(_scatter("Scatter", 9), 11, feeds)
    assert ops(up) == ["ScatterElements"]


def test_scatter_elements_back_with_negative_indices_shifted():
    feeds = {"x": rand(2, 3), "i": np.array([[-1], [0]], np.int64), "u": rand(2, 1, seed=1)}
    down = converts(_scatter("ScatterElements", 11), 10, feeds)
    assert ops(down)[-1] == "Scatter" and "Where" in ops(down)
