"""Tensor inputs with a tensor default (``Bias: FLOAT = op.Constant(value_float=0.5)``):
optional inputs that the compiled body fills in with the default, as eager calls do
(onnxscript 0.7 accepted them, kept the input required and used the default eagerly only)."""

from __future__ import annotations

import inspect

import numpy as np
import onnx
import pytest

from onnxscript import FLOAT, INT64, ScriptError, opset15, script
from onnxscript import opset18 as op
from onnxscript.testing import assert_same_values
from onnxscript.testing import run_model as run_proto_model
from tests.helpers import checked_model, define

X = np.array([-1.0, 2.0, 4.0], np.float32)
B = np.array([10.0, 20.0, 30.0], np.float32)
W = np.array([1.0, 2.0, 3.0], np.float32)


@script()
def add_bias(X: FLOAT["N"], Bias: FLOAT[...] = op.Constant(value_float=0.5)) -> FLOAT["N"]:  # noqa: B008
    return op.Add(X, Bias)


@script()
def scale(X: FLOAT["N"], W: FLOAT["N"] = op.Constant(value=W)) -> FLOAT["N"]:  # noqa: B008
    return X * W


@script()
def number_default(X: FLOAT["N"], Bias: FLOAT = 2) -> FLOAT["N"]:
    return X + Bias


@script()
def unannotated(X, Bias=np.array([1.0, 1.0, 1.0], np.float32)):  # noqa: B008
    return op.Mul(X, Bias)


@script()
def caller(X: FLOAT["N"]) -> FLOAT["N"]:
    """Calls ``add_bias`` without its defaulted input and with it."""
    return add_bias(X) + add_bias(X, X)


def _both(fn, *args):
    """The model's outputs (checked in full, run by onnxruntime) and the eager ones, which
    must agree; ``args`` may leave the defaulted input out."""
    compiled = run_proto_model(checked_model(fn), list(args))
    eager = fn(*args)
    assert_same_values([eager], compiled)
    return compiled[0]


@pytest.mark.parametrize(
    ("fn", "default"),
    [(add_bias, 0.5), (scale, W), (number_default, 2.0)],
    ids=lambda v: getattr(v, "name", ""),
)
def test_left_out_the_default_is_used_compiled_and_eagerly(fn, default):
    combine = np.multiply if fn is scale else np.add
    given = np.float32(7.0) if fn is number_default else B  # a bare FLOAT is a scalar
    np.testing.assert_allclose(_both(fn, X), combine(X, default))
    np.testing.assert_allclose(_both(fn, X, None), combine(X, default))
    np.testing.assert_allclose(_both(fn, X, given), combine(X, given))


def test_model_input_is_optional():
    model = checked_model(add_bias)
    kinds = [i.type.WhichOneof("value") for i in model.graph.input]
    assert kinds == ["tensor_type", "optional_type"]


def test_function_fills_the_input_with_if_on_optional_has_element():
    proto = add_bias.to_function_proto()
    assert list(proto.input) == ["X", "Bias"]
    has, fill, add = proto.node
    assert (has.op_type, list(has.input)) == ("OptionalHasElement", ["Bias"])
    assert fill.op_type == "If" and list(fill.input) == list(has.output)
    assert add.op_type == "Add" and list(add.input) == ["X", fill.output[0]]
    branches = {a.name: a.g for a in fill.attribute}
    (given,) = branches["then_branch"].node
    assert (given.op_type, list(given.input)) == ("Identity", ["Bias"])
    (constant,) = branches["else_branch"].node
    value = onnx.numpy_helper.to_array(constant.attribute[0].t)
    assert value.dtype == np.float32 and value.item() == 0.5


def test_script_caller_passes_the_default_and_the_model_checks():
    model = checked_model(caller)
    call_inputs = [list(n.input) for n in model.graph.node if n.op_type == "add_bias"]
    assert len(call_inputs) == 2 and all(len(inputs) == 2 for inputs in call_inputs)
    compiled = run_proto_model(model, [X])
    assert_same_values([caller(X)], compiled)
    np.testing.assert_allclose(compiled[0], (X + 0.5) + (X + X))


def test_unannotated_input_takes_the_default_element_type():
    out = run_proto_model(unannotated.to_model_proto(io_types=FLOAT["N"]), [X])
    np.testing.assert_allclose(out[0], X)
    np.testing.assert_allclose(unannotated(X), X)
    np.testing.assert_allclose(unannotated(X, W), X * W)


def test_signature_shows_the_default():
    default = inspect.signature(add_bias).parameters["Bias"].default
    assert isinstance(default, np.ndarray) and default.item() == 0.5


def _error(source: str, **namespace) -> ScriptError:
    names = {"FLOAT": FLOAT, "INT64": INT64, "op": op, "np": np, **namespace}
    with pytest.raises(ScriptError) as info:
        script()(define(source, names))
    return info.value


def test_a_default_of_another_element_type_is_a_located_error():
    err = _error("def f(x: FLOAT['N'], b: INT64 = 1.5):\n    return x\n")
    assert (err.lineno, err.source_line.strip()) == (1, "def f(x: FLOAT['N'], b: INT64 = 1.5):")
    assert err.col == len("def f(x: FLOAT['N'], ")
    assert "the default of 'b' has element type FLOAT, but its annotation declares INT64" in str(
        err
    )
    assert "dtype=np.int64" in str(err)


def test_a_default_that_is_not_tensor_data_is_a_located_error():
    err = _error("def f(x, b: FLOAT = object()):\n    return x\n")
    assert "default of 'b': a object is not tensor data" in err.message
    assert err.hint.startswith("a tensor input takes None (optional) or tensor data")


def test_filling_needs_opset_18():
    err = _error("def f(x: FLOAT, b: FLOAT = 1.0) -> FLOAT:\n    return op.Add(x, b)\n", op=opset15)
    assert "needs ai.onnx opset 18 or newer (this function uses opset 15)" in err.message
    assert err.hint.startswith("import opset18 (or newer) as op")
    assert err.source_line.startswith("def f(")
