"""Constant, Gemm, Pow, GridSample, RoiAlign, Shape, TopK, Reshape across versions."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto

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
    pair,
    rand,
    reference,
    tensor,
    the,
)


@pytest.mark.parametrize(
    ("name", "value"),
    [("value_float", 1.5), ("value_ints", [1, 2]), ("value_strings", ["a", "b"])],
)
def test_constant_value_forms_become_a_tensor(name: str, value: object):
    kind = {"value_float": FLOAT, "value_ints": INT64, "value_strings": TensorProto.STRING}[name]
    rank = 0 if name == "value_float" else 1
    model = make([node("Constant", [], ["y"], **{name: value})], [], [out("y", rank, kind)], 12)
    down = convert(model, 11)
    assert list(attrs(the(down, "Constant"))) == ["value"]
    assert [list(np.atleast_1d(a)) for a in reference(down, {})] == [
        list(np.atleast_1d(a)) for a in reference(model, {})
    ]


def test_int64_constant_becomes_an_initializer_before_9():
    model = make(
        [
            node("Constant", [], ["shape"], value=tensor("v", [3, 8])),
            node("Reshape", ["x", "shape"], ["y"]),
        ],
        [info("x")],
        [out("y", 2)],
        13,
    )
    down = converts(model, 8, {"x": rand(2, 3, 4)})
    assert ops(down) == ["Reshape"] and [i.name for i in down.graph.initializer] == ["shape"]


def test_gemm_without_c():
    model = make(
        [node("Gemm", ["a", "b"], ["y"], transB=1)],
        [info("a", FLOAT, [2, 3]), info("b", FLOAT, [4, 3])],
        [out("y", 2)],
        11,
    )
    down = converts(model, 9, {"a": rand(2, 3), "b": rand(4, 3, seed=1)})
    assert len(the(down, "Gemm").input) == 3


def test_pow_exponent_cast_to_the_base_type():
    model = make(
        [node("Pow", ["x", "e"], ["y"])],
        [info("x")],
        [out("y", 3)],
        12,
        [tensor("e", 2, np.int64)],
    )
    down = converts(model, 11, {"x": rand(2, 3, 4)})
    assert ops(down) == ["Cast", "Pow"]


def test_grid_sample_mode_names():
    shapes = [info("x", FLOAT, [1, 1, 3, 3]), info("g", FLOAT, [1, 2, 2, 2])]
    feeds = {"x": rand(1, 1, 3, 3), "g": np.clip(rand(1, 2, 2, 2, seed=1), -1, 1)}
    old = make([node("GridSample", ["x", "g"], ["y"], mode="bicubic")], shapes, [out("y", 4)], 16)
    new = make([node("GridSample", ["x", "g"], ["y"], mode="cubic")], shapes, [out("y", 4)], 20)
    up, down = pair(old, new, feeds, atol=1e-5)
    assert attrs(the(up, "GridSample"))["mode"] == b"cubic"
    assert attrs(the(down, "GridSample"))["mode"] == b"bicubic"


def test_roi_align_keeps_the_old_coordinate_mode():
    inputs = [info("x", FLOAT, [1, 1, 6, 6]), info("rois", FLOAT, [1, 4]), info("b", INT64, [1])]
    model = make(
        [node("RoiAlign", ["x", "rois", "b"], ["y"], output_height=2, output_width=2)],
        inputs,
        [out("y", 4)],
        10,
    )
    feeds = {
        "x": rand(1, 1, 6, 6),
        "rois": np.array([[0.5, 1.0, 4.0, 4.5]], np.float32),
        "b": np.zeros(1, np.int64),
    }
    up = converts(model, 16, feeds)
    assert attrs(the(up, "RoiAlign"))["coordinate_transformation_mode"] == b"output_half_pixel"
    converts(up, 10, feeds)


def test_shape_start_end_as_a_slice():
    model = make(
        [node("Shape", ["x"], ["y"], start=1, end=-1)], [info("x")], [out("y", 1, INT64)], 15
    )
    down = converts(model, 13, {"x": rand(2, 3, 4)})
    assert "Shape" in ops(down) and ops(down)[-1] == "Slice"


def test_topk_smallest_refused_below_11():
    model = make(
        [node("TopK", ["x", "k"], ["v", "i"], largest=0)],
        [info("x")],
        [out("v", 3), out("i", 3, INT64)],
        11,
        [tensor("k", [2])],
    )
    with pytest.raises(VersionConversionError, match="largest"):
        convert(model, 10)


def test_reshape_allowzero():
    constant = make(
        [node("Reshape", ["x", "s"], ["y"], allowzero=1)],
        [info("x")],
        [out("y", 2)],
        14,
        [tensor("s", [6, 4])],
    )
    assert "allowzero" not in attrs(the(converts(constant, 13, {"x": rand(2, 3, 4)}), "Reshape"))
    zero = make(
        [node("Reshape", ["x", "s"], ["y"], allowzero=1)],
        [info("x")],
        [out("y", 3)],
        14,
        [tensor("s", [0, 3, 8])],
    )
    with pytest.raises(VersionConversionError, match="allowzero"):
        convert(zero, 13)
