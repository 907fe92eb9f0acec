"""Ops called in a standard domain that onnx has no schema for (``op.UnknownOp(X, None, X)``):
nodes of a custom op, as onnxscript 0.7 emits them; eager mode says it cannot run them."""

from __future__ import annotations

import warnings

import numpy as np
import onnx
import pytest

from onnxscript import FLOAT, script
from onnxscript import opset18 as op
from onnxscript.converter.unknown_ops import UnknownOpWarning
from onnxscript.errors import ModelCheckWarning
from tests.helpers import define


@script()
def custom(X: FLOAT["N"]) -> FLOAT["N"]:
    return op.UnknownOp(X, None, X, alpha=1.0)


@script()
def two_outputs(X: FLOAT["N"]) -> FLOAT["N"]:
    a, b = op.UnknownPair(X)
    return op.Add(a, b)


def test_the_call_is_a_node_with_an_empty_input_for_none():
    (node,) = custom.to_function_proto().node
    assert (node.domain, node.op_type) == ("", "UnknownOp")
    assert list(node.input) == ["X", "", "X"]
    assert [(a.name, a.type, a.f) for a in node.attribute] == [
        ("alpha", onnx.AttributeProto.FLOAT, 1.0)
    ]


def test_unpacking_gives_as_many_outputs():
    pair, add = two_outputs.to_function_proto().node
    assert pair.op_type == "UnknownPair" and len(pair.output) == 2
    assert list(add.input) == list(pair.output)


def test_only_the_unregistered_op_keeps_the_checker_from_accepting_it():
    """A runtime that registers the op can run the model; onnx.checker, which knows no
    such op, rejects it for that reason alone, so to_model_proto warns."""
    with pytest.raises(onnx.checker.ValidationError, match="No Op registered for UnknownOp"):
        onnx.checker.check_function(custom.to_function_proto())
    with pytest.warns(ModelCheckWarning, match="No Op registered for UnknownOp"):
        model = custom.to_model_proto()
    assert model.opset_import[0].version == 18


def test_eager_mode_says_it_cannot_run_it():
    with pytest.raises(AttributeError) as info:
        custom(np.ones(2, np.float32))
    text = str(info.value)
    assert "opset ai.onnx version 18 has no op 'UnknownOp'" in text
    assert "eager mode cannot run" in text


def test_no_warning_for_a_name_unlike_any_op():
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownOpWarning)
        script()(define("def f(x):\n    return op.Zzzzzz(x)\n", {"op": op}))


@pytest.mark.parametrize(("call", "close"), [("op.Addd(x, x)", "Add"), ("op.relu(x)", "Relu")])
def test_a_near_miss_of_an_op_name_warns_at_the_call(call: str, close: str):
    source = f"def f(x):\n    y = x\n    return {call}\n"
    with pytest.warns(UnknownOpWarning) as caught:
        fn = script()(define(source, {"op": op}))
    (warning,) = caught.list
    assert warning.lineno == 3 and warning.filename.startswith("<test-source-")
    assert f"did you mean {close}" in str(warning.message)
    assert fn.to_function_proto().node[-1].op_type == call[3 : call.index("(")]
