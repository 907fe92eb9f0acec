"""Going down, every node's element types are checked against the target schema: types
recorded or inferred (intermediate values without a recorded type, function parameters
from their calls), a value whose type nothing tells refused where the older schema takes
fewer types, and rules of an op that no type constraint states (``Mod`` of floats needs
``fmod=1``). A refusal is a VersionConversionError; what converts passes onnx's full
checker and computes what it computed in onnxruntime."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript.version_converter import VersionConversionError, convert_version
from tests.version_converter.conversion import assert_same, convert, info, make, node, run, to_ir

UINT8 = TensorProto.UINT8
FLOAT = TensorProto.FLOAT


def _max_of_intermediates(elem: int) -> onnx.ModelProto:
    """``Max(Identity(x), Identity(y))``: the Max's inputs record no type."""
    return make(
        [
            node("Identity", ["x"], ["a"]),
            node("Identity", ["y"], ["b"]),
            node("Max", ["a", "b"], ["m"]),
            node("Identity", ["m"], ["z"]),
        ],
        [info("x", elem, [3]), info("y", elem, [3])],
        [info("z", elem, [3])],
        13,
    )


def _feeds(elem: int) -> dict[str, np.ndarray]:
    dtype = helper.tensor_dtype_to_np_dtype(elem)
    return {"x": np.array([1, 7, 3], dtype), "y": np.array([4, 2, 9], dtype)}


def test_max_of_uint8_intermediates_is_refused_below_12():
    before = _max_of_intermediates(UINT8)
    assert not any(v.name in ("a", "b", "m") for v in before.graph.value_info)
    assert run(before, _feeds(UINT8))[0].tolist() == [4, 7, 9]  # valid at 13
    with pytest.raises(VersionConversionError, match=r"Max node .* tensor\(uint8\), which Max-8"):
        convert(before, 11)


def test_max_of_float_intermediates_converts_and_records_no_type():
    before = _max_of_intermediates(FLOAT)
    model = to_ir(before)
    convert_version(model, 11)
    after = ir.to_proto(model)
    onnx.checker.check_model(after, full_check=True)
    assert_same(before, after, _feeds(FLOAT))
    assert all(v.type is None for n in model.graph for v in n.outputs if v.name != "z")


def _function_model(elem: int, called: bool = True) -> onnx.ModelProto:
    body = [node("Max", ["p", "q"], ["r"])]
    function = helper.make_function(
        "local", "f", ["p", "q"], ["r"], body, [helper.make_opsetid("", 13)]
    )
    nodes = (
        [node("f", ["x", "y"], ["z"], domain="local")]
        if called
        else [node("Max", ["x", "y"], ["z"])]
    )
    return make(
        nodes,
        [info("x", elem, [3]), info("y", elem, [3])],
        [info("z", elem, [3])],
        13,
        functions=[function],
        extra_opsets=[helper.make_opsetid("local", 1)],
    )


def test_function_parameters_take_the_types_of_the_calls():
    before = _function_model(FLOAT)
    after = convert(before, 11)
    assert_same(before, after, _feeds(FLOAT))
    with pytest.raises(VersionConversionError, match=r"Max node .* tensor\(uint8\)"):
        convert(_function_model(UINT8), 11)


def test_a_function_no_call_types_is_refused_where_the_schema_narrows():
    with pytest.raises(VersionConversionError, match=r"type of input 0 \(data_0\) is not known"):
        convert(_function_model(FLOAT, called=False), 11)


def test_bitshift_of_int32_is_refused():
    """Never valid (BitShift takes unsigned integers): refused rather than written."""
    graph = helper.make_graph(
        [node("BitShift", ["x", "y"], ["z"], direction="LEFT")],
        "g",
        [info("x", TensorProto.INT32, [3]), info("y", TensorProto.INT32, [3])],
        [info("z", TensorProto.INT32, [3])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    with pytest.raises(VersionConversionError, match=r"BitShift node .* tensor\(int32\)"):
        convert_version(to_ir(model), 11)


def _mod(elem: int, fmod: int) -> onnx.ModelProto:
    return make(
        [node("Mod", ["x", "y"], ["z"], fmod=fmod)],
        [info("x", elem, [3]), info("y", elem, [3])],
        [info("z", elem, [3])],
        13,
    )


def test_mod_of_floats_without_fmod_is_refused():
    before = _mod(FLOAT, 0)  # the checker takes it; onnxruntime refuses it when run
    with pytest.raises(Exception, match="fmod"):
        run(before, _feeds(FLOAT))
    with pytest.raises(VersionConversionError, match="Mod of floating-point numbers needs fmod=1"):
        convert(before, 10)


@pytest.mark.parametrize(
    ("elem", "fmod"), [(FLOAT, 1), (TensorProto.INT32, 0), (TensorProto.INT32, 1)]
)
def test_mod_that_is_valid_converts(elem: int, fmod: int):
    before = _mod(elem, fmod)
    assert_same(before, convert(before, 10), _feeds(elem))


def test_going_up_does_not_infer_or_refuse():
    """An up-conversion keeps checking only the nodes that took a step, by recorded
    types: a Max of untyped uint8 values stays convertible up."""
    before = make(
        [node("Identity", ["x"], ["a"]), node("Max", ["a", "a"], ["z"])],
        [info("x", UINT8, [3])],
        [info("z", UINT8, [3])],
        12,
    )
    assert_same(before, convert(before, 18), {"x": np.array([1, 7, 3], np.uint8)})


def _loop_of_max(elem: int, typed_body: bool = False) -> onnx.ModelProto:
    """A Loop carrying ``s``: ``s = Max(s, x)`` in its body, whose values record no type
    (the body's inputs take the Loop's, its outputs are inferred); ``typed_body``: the
    body's inputs record their types (onnxruntime needs them)."""
    types = [(TensorProto.INT64, []), (TensorProto.BOOL, []), (elem, [3])]
    body = helper.make_graph(
        [
            node("Identity", ["cond_in"], ["cond_out"]),
            node("Max", ["s_in", "x"], ["s_out"]),
        ],
        "body",
        [
            info(n, *t) if typed_body else onnx.ValueInfoProto(name=n)
            for n, t in zip(("i", "cond_in", "s_in"), types)
        ],
        [onnx.ValueInfoProto(name=n) for n in ("cond_out", "s_out")],
    )
    return make(
        [node("Loop", ["n", "c", "x"], ["z"], body=body)],
        [info("n", TensorProto.INT64, []), info("c", TensorProto.BOOL, []), info("x", elem, [3])],
        [info("z", elem, [3])],
        13,
    )


def test_loop_bodies_are_typed_from_the_loop():
    feeds = {"n": np.array(2, np.int64), "c": np.array(True), "x": np.array([1, 7, 3], np.uint8)}
    with pytest.raises(VersionConversionError, match=r"Max node .* tensor\(uint8\), which Max-8"):
        convert(_loop_of_max(UINT8), 11)
    before = _loop_of_max(FLOAT, typed_body=True)
    floats = {**feeds, "x": feeds["x"].astype(np.float32)}
    assert_same(before, convert(before, 11), floats)


def test_if_outputs_are_inferred_from_its_branches():
    """If-16 takes more types than If-13: its untyped output is inferred from the
    branches (float), so the node converts."""
    branches = {
        name: helper.make_graph(
            [node("Neg" if name == "then_branch" else "Abs", ["x"], [f"{name}_y"])],
            name,
            [],
            [onnx.ValueInfoProto(name=f"{name}_y")],
        )
        for name in ("then_branch", "else_branch")
    }
    before = make(
        [node("If", ["c"], ["y"], **branches), node("Identity", ["y"], ["z"])],
        [info("c", TensorProto.BOOL, []), info("x", FLOAT, [3])],
        [info("z", FLOAT, [3])],
        16,
    )
    feeds = {"c": np.array(False), "x": np.array([1.0, -2.0, 3.0], np.float32)}
    assert_same(before, convert(before, 13), feeds)
