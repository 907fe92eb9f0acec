"""Attributes that became inputs: each op's old and new form, converted both ways."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

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
    run,
    tensor,
    the,
)

X = {"x": rand(2, 3, 4)}


@pytest.mark.parametrize(("op", "version"), [("ReduceSum", 13), ("ReduceMean", 18)])
def test_reduce_axes(op: str, version: int):
    old = make(
        [node(op, ["x"], ["y"], axes=[1], keepdims=0)], [info("x")], [out("y", 2)], version - 1
    )
    new = make(
        [node(op, ["x", "axes"], ["y"], keepdims=0)],
        [info("x")],
        [out("y", 2)],
        version,
        [tensor("axes", [1])],
    )
    up, down = pair(old, new, X)
    assert ops(up) == ["Constant", op] and "axes" not in attrs(the(up, op))
    assert ops(down) == [op] and attrs(the(down, op))["axes"] == [1]


def test_reduce_without_axes_and_noop():
    everything = make([node("ReduceSum", ["x"], ["y"])], [info("x")], [out("y", 3)], 11)
    assert ops(converts(everything, 13, X)) == ["ReduceSum"]
    noop = make(
        [node("ReduceMax", ["x"], ["y"], noop_with_empty_axes=1)], [info("x")], [out("y", 3)], 18
    )
    assert ops(converts(noop, 13, X)) == ["Identity"]


def test_axes_from_a_graph_input_cannot_become_an_attribute():
    dynamic = make(
        [node("ReduceSum", ["x", "axes"], ["y"])],
        [info("x"), info("axes", INT64, [1])],
        [out("y", 3)],
        13,
    )
    with pytest.raises(VersionConversionError, match=r"ReduceSum .* axes .* must be a constant"):
        convert(dynamic, 11)


@pytest.mark.parametrize("op", ["Squeeze", "Unsqueeze"])
def test_squeeze_unsqueeze_axes(op: str):
    feeds = {"x": rand(2, 1, 4)}
    rank = 2 if op == "Squeeze" else 4
    shape = [2, 1, 4]
    old = make([node(op, ["x"], ["y"], axes=[1])], [info("x", FLOAT, shape)], [out("y", rank)], 11)
    new = make(
        [node(op, ["x", "axes"], ["y"])],
        [info("x", FLOAT, shape)],
        [out("y", rank)],
        13,
        [tensor("axes", [1])],
    )
    up, down = pair(old, new, feeds)
    assert ops(up) == ["Constant", op] and attrs(the(down, op)) == {"axes": [1]}


def test_split_sizes():
    outputs = [out("a", 3), out("b", 3)]
    old = make([node("Split", ["x"], ["a", "b"], axis=2, split=[1, 3])], [info("x")], outputs, 11)
    new = make(
        [node("Split", ["x", "s"], ["a", "b"], axis=2)],
        [info("x")],
        outputs,
        13,
        [tensor("s", [1, 3])],
    )
    up, down = pair(old, new, X)
    assert attrs(the(down, "Split"))["split"] == [1, 3]


@pytest.mark.parametrize(("size", "written"), [(6, []), (7, ["Constant"]), (None, "run time")])
def test_split_num_outputs_down(size: int | None, written: object):
    """Split-18's num_outputs may leave a smaller last part; Split-13 needs the sizes
    spelled out then (from a static size, or computed at run time)."""
    outputs = [out("a", 2), out("b", 2), out("c", 2)]
    new = make(
        [node("Split", ["x"], ["a", "b", "c"], axis=1, num_outputs=3)],
        [info("x", FLOAT, [2, size])],
        outputs,
        18,
    )
    feeds = {"x": rand(2, size or 8)}
    down = converts(new, 13, feeds)
    if written == "run time":
        assert {"Shape", "Div", "Concat"} <= set(ops(down))
    else:
        assert ops(down) == [*written, "Split"]
    up = converts(down, 18, feeds)
    assert "num_outputs" in attrs(the(up, "Split")) or len(the(up, "Split").input) == 2


def test_split_without_sizes_up_gets_num_outputs():
    old = make(
        [node("Split", ["x"], ["a", "b"], axis=2)], [info("x")], [out("a", 3), out("b", 3)], 13
    )
    assert attrs(the(converts(old, 18, X), "Split"))["num_outputs"] == 2


def test_topk_k():
    outputs = [out("v", 3), out("i", 3, INT64)]
    old = make([node("TopK", ["x"], ["v", "i"], k=2, axis=1)], [info("x")], outputs, 9)
    new = make(
        [node("TopK", ["x", "k"], ["v", "i"], axis=1)], [info("x")], outputs, 10, [tensor("k", [2])]
    )
    up, down = pair(old, new, X)
    assert attrs(the(down, "TopK")) == {"axis": 1, "k": 2}


def test_slice_starts_ends_axes():
    old = make(
        [node("Slice", ["x"], ["y"], starts=[1, 0], ends=[3, -1], axes=[2, 1])],
        [info("x")],
        [out("y", 3)],
        9,
    )
    inits = [tensor("s", [1, 0]), tensor("e", [3, -1]), tensor("a", [2, 1])]
    new = make([node("Slice", ["x", "s", "e", "a"], ["y"])], [info("x")], [out("y", 3)], 10, inits)
    up, down = pair(old, new, X)
    assert attrs(the(down, "Slice")) == {"starts": [1, 0], "ends": [3, -1], "axes": [2, 1]}


def test_slice_steps_other_than_one_need_slice_10():
    inits = [tensor("s", [3]), tensor("e", [0]), tensor("a", [2]), tensor("t", [-1])]
    new = make(
        [node("Slice", ["x", "s", "e", "a", "t"], ["y"])], [info("x")], [out("y", 3)], 10, inits
    )
    with pytest.raises(VersionConversionError, match="steps"):
        convert(new, 9)


@pytest.mark.parametrize("bounds", [{"min": -0.5, "max": 0.5}, {"max": 0.25}])
def test_clip_min_max(bounds: dict[str, float]):
    old = make([node("Clip", ["x"], ["y"], **bounds)], [info("x")], [out("y", 3)], 10)
    names = ["x", "lo" if "min" in bounds else "", "hi"]
    inits = [tensor("hi", bounds["max"], np.float32)]
    inits += [tensor("lo", bounds["min"], np.float32)] if "min" in bounds else []
    new = make([node("Clip", names, ["y"])], [info("x")], [out("y", 3)], 11, inits)
    up, down = pair(old, new, X)
    # absent: Clip-11 clamps to the type's lowest number, which Clip-6 is given
    assert attrs(the(down, "Clip")) == {"min": -FLOAT32_MAX, **bounds}
    # Clip-6 without min clamps to the float32 range: the bound is written out going up
    assert len(the(up, "Clip").input) == 3


FLOAT32_MAX = float(np.finfo(np.float32).max)
CLIP_EDGES = np.array([-np.inf, -5.0, -1.5, 0.0, 1.5, 5.0, np.inf, np.nan], np.float32)
"""Inputs at and beyond the bounds, infinities and NaN."""


def _clip_11(low: float | None, high: float | None, elem: int = FLOAT) -> onnx.ModelProto:
    dtype = helper.tensor_dtype_to_np_dtype(elem)
    names = ["x", "lo" if low is not None else "", "hi" if high is not None else ""]
    inits = [tensor(n, v, dtype) for n, v in (("lo", low), ("hi", high)) if v is not None]
    while names[-1] == "":
        names.pop()
    return make(
        [node("Clip", names, ["y"])], [info("x", elem, [8])], [out("y", 1, elem)], 13, inits
    )


@pytest.mark.parametrize(
    ("low", "high"),
    [(2.0, 1.0), (np.inf, -np.inf), (1.0, 1.0), (-1.0, None), (None, 1.0), (None, None)],
)
def test_clip_bounds_down_to_clip_6_keep_the_result(low: float | None, high: float | None):
    """min > max makes every element max (Clip-13, in onnxruntime and onnx's reference):
    written as min = max, since onnxruntime's Clip-6 refuses min > max. An absent bound is
    the float's lowest (largest) number, as the spec and onnxruntime have it: infinities
    become that number, so Clip-6 is given it (an infinite Clip-6 bound keeps them; onnx's
    reference evaluator leaves infinities where Clip-13 has no bound, against the spec)."""
    feeds = {"x": CLIP_EDGES}
    before = _clip_11(low, high)
    after = convert(before, 10)
    expected = run(before, feeds)[0]
    np.testing.assert_array_equal(run(after, feeds)[0], expected)
    np.testing.assert_array_equal(reference(after, feeds)[0], expected)
    if low is None or high is None:
        assert np.isfinite(expected[[0, 6]]).all()  # the infinities clamped
    clip = attrs(the(after, "Clip"))
    assert clip["min"] <= clip["max"]


@pytest.mark.parametrize(
    ("elem", "largest"),
    [(FLOAT, FLOAT32_MAX), (TensorProto.FLOAT16, float(np.finfo(np.float16).max))],
)
def test_clip_absent_bounds_down_are_the_types_range(elem: int, largest: float) -> None:
    """An absent bound of a float16 Clip-11 is float16's largest number (65504), which a
    float32 attribute holds: infinities become it, before and after."""
    dtype = helper.tensor_dtype_to_np_dtype(elem)
    feeds = {"x": CLIP_EDGES.astype(dtype)}
    for low, high in ((None, None), (1.0, None), (None, 1.0)):
        before = _clip_11(low, high, elem)
        after = convert(before, 10)
        clip = attrs(the(after, "Clip"))
        assert clip == {
            "min": -largest if low is None else low,
            "max": largest if high is None else high,
        }
        np.testing.assert_array_equal(run(after, feeds)[0], run(before, feeds)[0])


def test_clip_absent_bound_of_doubles_is_refused() -> None:
    """Clip-11 of doubles without a bound clamps to double's range (1.8e308), which no
    float32 attribute of Clip-6 is (an infinite one would keep infinities)."""
    with pytest.raises(VersionConversionError, match=r"max .* is absent"):
        convert(_clip_11(-0.5, None, TensorProto.DOUBLE), 10)


@pytest.mark.parametrize(
    ("low", "high", "elem", "message"),
    [
        (np.nan, 1.0, FLOAT, "min .* is NaN"),
        (-1.0, np.nan, FLOAT, "max .* is NaN"),
        (0.1, 1.0, TensorProto.DOUBLE, r"min=0\.1 .* not a float32 number"),
        (-1.0, 1e300, TensorProto.DOUBLE, r"max=1e\+300 .* not a float32 number"),
    ],
)
def test_clip_bounds_clip_6_cannot_hold_are_refused(
    low: float, high: float, elem: int, message: str
) -> None:
    """A NaN bound (onnxruntime's Clip-6 refuses it; its Clip-13 ignores it where onnx's
    reference makes every element NaN) and a double bound no float32 equals."""
    before = _clip_11(low, high, elem)
    with pytest.raises(VersionConversionError, match=message):
        convert(before, 10)


def test_clip_double_bounds_that_are_float32_numbers_convert():
    """Clip-6 of doubles is valid ONNX; onnxruntime has no kernel for it (compared with
    onnx's reference evaluator instead)."""
    before = _clip_11(-0.5, 2.0, TensorProto.DOUBLE)
    feeds = {"x": CLIP_EDGES.astype(np.float64)}
    after = convert(before, 10)
    np.testing.assert_array_equal(reference(after, feeds)[0], reference(before, feeds)[0])
    np.testing.assert_array_equal(run(before, feeds)[0], reference(before, feeds)[0])
    with pytest.raises(Exception, match="NOT_IMPLEMENTED"):
        run(after, feeds)


def test_clip_bound_that_is_not_a_constant_is_refused():
    before = make(
        [node("Clip", ["x", "lo"], ["y"])],
        [info("x", FLOAT, [8]), info("lo", FLOAT, [])],
        [out("y", 1)],
        13,
    )
    with pytest.raises(VersionConversionError, match=r"min .* must be a constant"):
        convert(before, 10)


def test_dft_axis():
    signal = {"x": rand(2, 5, 6, 1)}
    shape = [2, 5, 6, 1]
    old = make([node("DFT", ["x"], ["y"], axis=2)], [info("x", FLOAT, shape)], [out("y", 4)], 17)
    new = make(
        [node("DFT", ["x", "", "axis"], ["y"])],
        [info("x", FLOAT, shape)],
        [out("y", 4)],
        20,
        [tensor("axis", 2)],
    )
    up, down = pair(old, new, signal, atol=1e-4)
    assert attrs(the(down, "DFT")) == {"axis": 2}
    default = make([node("DFT", ["x"], ["y"])], [info("x", FLOAT, shape)], [out("y", 4)], 20)
    assert attrs(the(converts(default, 17, signal, atol=1e-4), "DFT")) == {"axis": -2}
