"""Module paths that code written for onnxscript 0.7 imports (COMPATIBILITY.md §9)."""

from __future__ import annotations

import onnx
import pytest

import onnxscript
from onnxscript import FLOAT, script
from onnxscript import opset18 as op


def test_onnx_opset_module_offers_every_opset():
    from onnxscript import onnx_opset
    from onnxscript.onnx_opset import opset15

    assert opset15 is onnxscript.opset15
    assert "opset18" in onnx_opset.__all__ and "opset18" in dir(onnx_opset)
    scope: dict[str, object] = {}
    exec("from onnxscript.onnx_opset import *", scope)
    assert scope["opset18"] is onnxscript.opset18
    with pytest.raises(AttributeError, match="opset999"):
        onnx_opset.opset999


def test_tensor_and_evaluator_names():
    from onnxscript import evaluator
    from onnxscript.tensor import Tensor

    assert Tensor is onnxscript.Tensor
    for name in ("Evaluator", "default_as", "ORTEvaluator", "ORTMixedEvaluator"):
        assert getattr(evaluator, name) is not None
    assert evaluator.OnnxReferenceRuntimeEvaluator is evaluator.ReferenceEvaluator


@script()
def absolute(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Abs(x)


@script()
def negate(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Neg(x)


def test_isomorphism_helpers_for_functions_and_graphs():
    from onnxscript.testing import (
        Mismatch,
        assert_isomorphic_function,
        assert_isomorphic_graph,
    )

    assert_isomorphic_function(absolute.to_function_proto(), absolute.to_function_proto())
    with pytest.raises(Mismatch):
        assert_isomorphic_graph(absolute.to_model_proto().graph, negate.to_model_proto().graph)
    with pytest.raises(TypeError, match="two FunctionProto"):
        assert_isomorphic_function(absolute.to_model_proto(), absolute.to_function_proto())


def test_export2python_is_proto2python():
    from onnxscript.backend.onnx_export import export2python

    model = absolute.to_model_proto()
    assert export2python(model, function_name="main") == onnxscript.proto2python(
        model, function_name="main"
    )
    assert "def main" in export2python(model, function_name="main")
    assert isinstance(model, onnx.ModelProto)
