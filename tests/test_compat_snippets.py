"""Snippets written the way onnxscript 0.7 users write them (its docs' and tutorials'
idioms, in our own words), run end to end: compiled, checked with the full onnx checker,
run with onnxruntime, and run eagerly with the same results."""

from __future__ import annotations

import numpy as np
import onnx

from onnxscript import script
from onnxscript.onnx_opset import opset15 as op
from onnxscript.onnx_opset import opset18 as op18
from onnxscript.onnx_types import FLOAT, INT64
from onnxscript.testing import assert_eager_matches_compiled
from onnxscript.values import Opset
from tests.helpers import checked_model, run_model

CUSTOM_OPSET = Opset("this", 1)


@script(CUSTOM_OPSET)
def leaky(x, alpha: float = 0.01):
    return op.Where(x < 0.0, x * alpha, x)


@script(CUSTOM_OPSET)
def two_layers(x: FLOAT["N", 4], w1: FLOAT[4, 8], w2: FLOAT[8, 2]) -> FLOAT["N", 2]:
    hidden = leaky(op.MatMul(x, w1), alpha=0.1)
    return op.MatMul(hidden, w2)


def test_function_library_in_a_custom_domain():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4)).astype(np.float32)
    w1 = rng.standard_normal((4, 8)).astype(np.float32)
    w2 = rng.standard_normal((8, 2)).astype(np.float32)
    model = checked_model(two_layers)
    assert [f.name for f in model.functions] == ["leaky"]
    (got,) = run_model(model, x, w1, w2)
    h = x @ w1
    expected = np.where(h < 0, h * 0.1, h) @ w2
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
    assert_eager_matches_compiled(two_layers, x, w1, w2)


@script()
def first_dim(x: FLOAT["A", "B"]) -> INT64[1]:
    return op.Shape(x, start=0, end=1)


@script()
def cumulative(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
    total = op.Identity(x)
    for _ in range(n):
        total = total + x
    return total


def test_shape_attributes_and_a_for_loop():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    (dims,) = run_model(checked_model(first_dim), x)
    assert dims.tolist() == [2] and first_dim(x).tolist() == [2]
    v = np.array([1.0, 2.0], np.float32)
    n = np.array(3, np.int64)
    assert_eager_matches_compiled(cumulative, v, n)
    np.testing.assert_allclose(cumulative(v, n), v * 4)


def test_optional_inputs():
    @script()
    def clip_optional(x: FLOAT["N"], low: FLOAT = None) -> FLOAT["N"]:
        if op18.OptionalHasElement(low):  # a tensor input here needs opset 18
            result = op18.Max(x, low)
        else:
            result = op18.Identity(x)
        return result

    @script()
    def add_bias(x: FLOAT["N"], Bias: FLOAT["N"] = None) -> FLOAT["N"]:
        if Bias != None:  # noqa: E711  (the spelling 0.7 code uses)
            y = op18.Add(x, Bias)
        else:
            y = op18.Identity(x)
        return y

    x = np.array([-1.0, 2.0], np.float32)
    np.testing.assert_allclose(clip_optional(x), x)
    np.testing.assert_allclose(clip_optional(x, np.array(0.0, np.float32)), [0.0, 2.0])
    np.testing.assert_allclose(add_bias(x), x)
    np.testing.assert_allclose(add_bias(x, x), 2 * x)
    assert_eager_matches_compiled(clip_optional, x, np.array(0.5, np.float32))
    assert_eager_matches_compiled(add_bias, x, x)


def test_del_of_an_attribute_parameter():
    @script()
    def ignores_attribute(x: FLOAT["N"], unused: int = 0) -> FLOAT["N"]:
        del unused
        return op.Abs(x)

    x = np.array([-1.5], np.float32)
    np.testing.assert_allclose(ignores_attribute(x), [1.5])
    assert_eager_matches_compiled(ignores_attribute, x)


def test_inner_function_given_a_scalar_for_a_shaped_parameter():
    @script()
    def square(x: FLOAT[1]) -> FLOAT[1]:
        return op.Mul(x, x)

    @script()
    def calls_with_a_scalar(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.Add(x, square(op.Constant(value_float=3.0)))

    x = np.array([1.0, 2.0], np.float32)
    np.testing.assert_allclose(calls_with_a_scalar(x), [10.0, 11.0])
    assert_eager_matches_compiled(calls_with_a_scalar, x)


def test_eager_op_calls_return_every_declared_output():
    x = np.arange(6, dtype=np.float32)
    parts = op.Split(x, np.array([2, 4], np.int64))
    assert [p.tolist() for p in parts] == [[0.0, 1.0], [2.0, 3.0, 4.0, 5.0]]
    data = np.ones((1, 2, 2), np.float32)
    stats = np.ones(2, np.float32)
    out = op.BatchNormalization(data, stats, stats, stats, stats)
    assert isinstance(out, np.ndarray) and out.shape == (1, 2, 2)


def test_isomorphism_export_and_ir_paths():
    from onnxscript import ir
    from onnxscript.backend.onnx_export import export2python
    from onnxscript.testing import assert_isomorphic_function, assert_isomorphic_graph

    assert_isomorphic_function(two_layers.to_function_proto(), two_layers.to_function_proto())
    model = checked_model(first_dim)
    assert_isomorphic_graph(model.graph, first_dim.to_model_proto().graph)
    text = export2python(model)
    assert "def first_dim" in text and "Shape" in text
    ir_model = ir.serde.deserialize_model(model)
    assert [n.op_type for n in ir_model.graph] == ["Shape"]
    assert isinstance(ir.serde.serialize_model(ir_model), onnx.ModelProto)


def test_evaluator_names():
    from onnxscript import evaluator
    from onnxscript.tensor import Tensor

    x = np.array([4.0], np.float32)
    with evaluator.default_as(evaluator.ORTEvaluator()):
        np.testing.assert_allclose(op.Sqrt(x), [2.0])
    with evaluator.default_as(evaluator.OnnxReferenceRuntimeEvaluator()):
        np.testing.assert_allclose(op.Sqrt(x), [2.0])
    assert (Tensor(x) + Tensor(x)).value.tolist() == [8.0]
