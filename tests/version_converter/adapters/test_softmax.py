"""Softmax, LogSoftmax, Hardmax: coerced-to-2-D (before 13) against one axis (13)."""

from __future__ import annotations

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
    the,
)

OPS = ["Softmax", "LogSoftmax", "Hardmax"]
X = {"x": rand(2, 3, 4)}


@pytest.mark.parametrize("op", OPS)
def test_non_last_axis(op: str):
    """axis=1 of a 3-D input: the old op normalizes 12 values per row, the new one 3."""
    old = make([node(op, ["x"], ["y"], axis=1)], [info("x")], [out("y", 3)], 11)
    up = converts(old, 13, X)
    assert ops(up) == ["Flatten", "Shape", op, "Reshape"] and attrs(the(up, op)) == {"axis": 1}
    new = make([node(op, ["x"], ["y"], axis=1)], [info("x")], [out("y", 3)], 13)
    down = converts(new, 11, X)
    assert ops(down) == ["Transpose", op, "Transpose"]
    assert attrs(the(down, op)) == {"axis": 2}


@pytest.mark.parametrize("op", OPS)
def test_last_axis_only_made_explicit(op: str):
    old = make([node(op, ["x"], ["y"], axis=2)], [info("x")], [out("y", 3)], 11)
    new = make([node(op, ["x"], ["y"])], [info("x")], [out("y", 3)], 13)
    up, down = pair(old, new, X)
    assert ops(up) == [op] and attrs(the(up, op)) == {"axis": -1}
    assert ops(down) == [op] and attrs(the(down, op)) == {"axis": -1}


@pytest.mark.parametrize("op", ["Softmax", "LogSoftmax"])
def test_unknown_rank_written_out_with_reductions(op: str):
    """Behind a Relu (no shape known in the IR), the axis cannot be moved last."""
    nodes = [node("Relu", ["x"], ["r"]), node(op, ["r"], ["y"], axis=1)]
    new = make(nodes, [info("x")], [out("y", 3)], 13)
    down = converts(new, 11, X)
    assert op not in ops(down) and {"ReduceMax", "Exp", "ReduceSum"} <= set(ops(down))


def test_hardmax_of_unknown_rank_is_refused():
    nodes = [node("Relu", ["x"], ["r"]), node("Hardmax", ["r"], ["y"], axis=1)]
    new = make(nodes, [info("x")], [out("y", 3)], 13)
    with pytest.raises(VersionConversionError, match="rank of 'r' is unknown"):
        convert(new, 11)


def test_coerced_up_and_back_down_is_checked_and_equal():
    old = make([node("Softmax", ["x"], ["y"])], [info("x", FLOAT, [2, 3, 4, 5])], [out("y", 4)], 9)
    feeds = {"x": rand(2, 3, 4, 5)}
    up = converts(old, 18, feeds)
    converts(up, 9, feeds)
