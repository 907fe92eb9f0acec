"""Optional tensor inputs: a tensor parameter defaulted to ``None`` is an optional input
of the function; ``op.OptionalHasElement(x)``, ``x is None``, ``x is not None``,
``x == None`` and ``x != None`` test whether the caller gave it, compiled and eagerly."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import pytest

from onnxscript import FLOAT, ScriptError, opset15, opset18, script
from onnxscript import opset18 as op
from onnxscript.testing import assert_eager_matches_compiled
from onnxscript.testing import run_model as run_proto_model
from tests.helpers import define

X = np.array([-1.0, 2.0], np.float32)
B = np.array([0.5, 0.5], np.float32)


@script()
def with_has_element(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if op.OptionalHasElement(bias):
        y = op.Add(x, bias)
    else:
        y = op.Neg(x)
    return y


@script()
def with_is_none(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias is None:
        y = op.Neg(x)
    else:
        y = op.Add(x, bias)
    return y


@script()
def with_is_not_none(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias is not None:
        y = op.Add(x, bias)
    else:
        y = op.Neg(x)
    return y


@script()
def with_not_equal(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias != None:  # noqa: E711
        y = op.Add(x, bias)
    else:
        y = op.Neg(x)
    return y


@script()
def with_equal(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias == None:  # noqa: E711
        y = op.Neg(x)
    else:
        y = op.Add(x, bias)
    return y


ALL = [with_has_element, with_is_none, with_is_not_none, with_not_equal, with_equal]


def _calling_model(fn, given: bool) -> onnx.ModelProto:
    """A model calling ``fn``'s FunctionProto with the optional input given or omitted."""
    function = fn.to_function_proto()
    inputs = ["x", "bias"] if given else ["x"]
    node = oh.make_node(fn.name, inputs, ["y"], domain=function.domain)
    vi = [oh.make_tensor_value_info(n, onnx.TensorProto.FLOAT, ["N"]) for n in inputs]
    graph = oh.make_graph(
        [node], "g", vi, [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["N"])]
    )
    opsets = [oh.make_opsetid("", 18), oh.make_opsetid(function.domain, 1)]
    model = oh.make_model(graph, functions=[function], opset_imports=opsets, ir_version=10)
    onnx.checker.check_model(model, full_check=True)
    return model


@pytest.mark.parametrize("fn", ALL, ids=lambda f: f.name)
def test_the_input_is_optional(fn):
    assert [p.optional for p in fn.call_signature.inputs] == [False, True]
    assert fn.op_schema.inputs[0].option != onnx.defs.OpSchema.FormalParameterOption.Optional
    assert fn.op_schema.inputs[1].option == onnx.defs.OpSchema.FormalParameterOption.Optional


@pytest.mark.parametrize("fn", ALL, ids=lambda f: f.name)
def test_compiled_function_with_the_input_given(fn):
    (given,) = run_proto_model(_calling_model(fn, True), [X, B])
    np.testing.assert_allclose(given, X + B)


def test_omitted_input_rejected_by_onnxruntime_when_read_in_a_required_slot():
    """Measured limit, not ours: onnxruntime inlines the omitted input as "" everywhere,
    and refuses a graph where a required input slot (here Add's, in the untaken branch)
    is empty."""
    with pytest.raises(Exception, match="marked single but has an empty string"):
        run_proto_model(_calling_model(with_is_none, False), [X])


@script()
def clip(x: FLOAT["N"], low: FLOAT = None, high: FLOAT = None) -> FLOAT["N"]:
    return op.Clip(x, low, high)


def test_omitted_input_passed_to_an_optional_slot_runs():
    function = clip.to_function_proto()
    node = oh.make_node("clip", ["x", "", "hi"], ["y"], domain=function.domain)
    graph = oh.make_graph(
        [node],
        "g",
        [
            oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N"]),
            oh.make_tensor_value_info("hi", onnx.TensorProto.FLOAT, []),
        ],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["N"])],
    )
    opsets = [oh.make_opsetid("", 18), oh.make_opsetid(function.domain, 1)]
    model = oh.make_model(graph, functions=[function], opset_imports=opsets, ir_version=10)
    onnx.checker.check_model(model, full_check=True)
    hi = np.array(1.0, np.float32)
    (got,) = run_proto_model(model, [X, hi])
    np.testing.assert_allclose(got, [-1.0, 1.0])
    np.testing.assert_allclose(clip(X, high=hi), got)
    np.testing.assert_allclose(clip(X), X)


@pytest.mark.parametrize("fn", ALL, ids=lambda f: f.name)
def test_eager_matches(fn):
    np.testing.assert_allclose(fn(X, B), X + B)
    np.testing.assert_allclose(fn(X), -X)
    np.testing.assert_allclose(fn(X, None), -X)
    assert_eager_matches_compiled(fn, X, B)


def test_presence_test_needs_opset_18():
    source = (
        "def f(x: FLOAT['N'], b: FLOAT['N'] = None) -> FLOAT['N']:\n"
        "    if b is None:\n"
        "        y = op.Neg(x)\n"
        "    else:\n"
        "        y = op.Add(x, b)\n"
        "    return y\n"
    )
    with pytest.raises(ScriptError, match=r"needs ai\.onnx opset 18") as info:
        script()(define(source, {"FLOAT": FLOAT, "op": opset15}))
    assert "if b is None" in str(info.value)
    assert script()(define(source, {"FLOAT": FLOAT, "op": opset18})).to_function_proto()


def test_only_none_defaults_a_tensor_input():
    with pytest.raises(ScriptError, match="default value other than None"):

        @script()
        def f(x: FLOAT["N"], b: FLOAT["N"] = 1.0) -> FLOAT["N"]:
            return op.Add(x, b)


def test_none_on_one_branch_is_a_located_error_that_says_why():
    source = (
        "def f(x: FLOAT['N']):\n"
        "    if op.ReduceSum(x) > 0.0:\n"
        "        y = op.Identity(x)\n"
        "    else:\n"
        "        y = None\n"
        "    return y\n"
    )
    with pytest.raises(ScriptError, match="'y' is None on one path") as info:
        script()(define(source, {"FLOAT": FLOAT, "op": opset18}))
    assert "every branch of an ONNX If must produce a value" in str(info.value)
