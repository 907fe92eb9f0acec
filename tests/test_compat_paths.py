"""Module paths and names that code written for onnxscript 0.7 imports (COMPATIBILITY.md §9):
``onnxscript.onnx_opset``, ``onnxscript.tensor``, ``onnxscript.backend.onnx_export``,
``onnxscript.testing``'s isomorphism assertions and ``onnxscript.evaluator``'s names."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import onnx
import onnx.helper as oh
import pytest

import onnxscript
from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from onnxscript.opsets import opset_names
from onnxscript.reverse import exec_script
from onnxscript.testing import assert_eager_matches_compiled, assert_isomorphic, run_model
from tests.helpers import ROOT, checked_model

# -- onnxscript.onnx_opset ----------------------------------------------------------------


def test_onnx_opset_module_offers_every_opset():
    from onnxscript import onnx_opset
    from onnxscript.onnx_opset import opset15

    assert opset15 is onnxscript.opset15
    assert set(opset_names()) <= set(onnx_opset.__all__)
    assert {"opset1", "opset18", "opset_ai_onnx_ml1"} <= set(dir(onnx_opset))
    for name in opset_names():
        opset = getattr(onnx_opset, name)
        assert opset is getattr(onnxscript.opsets, name)
    scope: dict[str, object] = {}
    exec("from onnxscript.onnx_opset import *", scope)
    assert scope["opset18"] is onnxscript.opset18
    with pytest.raises(AttributeError, match="opset999"):
        onnx_opset.opset999


def test_default_opset_is_the_version_scripts_get_by_default():
    from onnxscript.defaults import default_opset_version
    from onnxscript.onnx_opset import default_opset

    assert default_opset.domain == "" and default_opset.version == default_opset_version()
    assert "default_opset" in dir(onnxscript.onnx_opset)


from onnxscript.onnx_opset import opset15 as op15  # noqa: E402 (the 0.7 spelling)


@script()
def linear(a: FLOAT["N", "K"], w: FLOAT["K", "M"], bias: FLOAT["M"]) -> FLOAT["N", "M"]:
    return op15.Relu(op15.Add(op15.MatMul(a, w), bias))


def test_a_script_written_with_the_onnx_opset_path_compiles_and_runs():
    model = checked_model(linear)
    assert [(o.domain, o.version) for o in model.opset_import] == [("", 15)]
    rng = np.random.default_rng(0)
    a, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((4, 16), (16, 4), (4,)))
    eager, compiled = assert_eager_matches_compiled(linear, a, w, b)
    np.testing.assert_allclose(compiled[0], np.maximum(a @ w + b, 0), rtol=1e-5, atol=1e-5)


# -- onnxscript.tensor ----------------------------------------------------------------------


def test_tensor_module_path():
    from onnxscript.tensor import Tensor

    assert Tensor is onnxscript.Tensor is onnxscript.evaluator.Tensor
    t = Tensor(np.array([3, -4, 5], np.int64))
    assert int(t[0]) == 3 and t.rank == 1 and list(range(t[0])) == [0, 1, 2]
    assert isinstance(op.Abs(t), Tensor) and op.Abs(t).value.tolist() == [3, 4, 5]
    with pytest.raises(TypeError):
        int(t)


# -- onnxscript.backend.onnx_export.export2python ------------------------------------------


@script()
def scaled(x: FLOAT["N", 3], w: FLOAT[3, 2]) -> FLOAT["N", 2]:
    t = op.MatMul(x, w)
    return op.Relu(op.Add(t, op.Constant(value_float=0.5)))


def _with_initializer() -> onnx.ModelProto:
    """``y = x * w`` with ``w`` an initializer."""
    weight = onnx.numpy_helper.from_array(np.array([2.0, 3.0], np.float32), "w")
    graph = oh.make_graph(
        [oh.make_node("Mul", ["x", "w"], ["y"])],
        "weighted",
        [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2])],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2])],
        initializer=[weight],
    )
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)], ir_version=10)
    onnx.checker.check_model(model, full_check=True)
    return model


OPTIONS = [
    {},
    {"function_name": "main"},
    {"rename": True},
    {"use_operators": True},
    {"inline_const": True},
    {"function_name": "main", "rename": True, "use_operators": True, "inline_const": True},
]


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(o) or "defaults")
def test_export2python_is_proto2python_with_the_same_options(options):
    from onnxscript.backend.onnx_export import export2python

    model = checked_model(scaled)
    source = export2python(model, **options)
    assert source == onnxscript.proto2python(model, **options)
    name = options.get("function_name", "scaled")
    assert f"def {name}(" in source
    assert (" @ " in source) == bool(options.get("use_operators"))
    back = exec_script(source)["make_model"]()
    onnx.checker.check_model(back, full_check=True)
    assert_isomorphic(back, model)
    x = np.array([[1.0, -2.0, 3.0]], np.float32)
    w = np.ones((3, 2), np.float32)
    np.testing.assert_allclose(run_model(back, [x, w])[0], run_model(model, [x, w])[0])


def test_export2python_positional_options_and_skipped_initializers():
    from onnxscript.backend.onnx_export import export2python

    model = checked_model(scaled)
    assert export2python(model, "main", True) == onnxscript.proto2python(
        model, function_name="main", rename=True
    )
    weighted = _with_initializer()
    namespace = exec_script(export2python(weighted, skip_initializers=True))
    x = np.array([1.0, 2.0], np.float32)
    w = np.array([2.0, 3.0], np.float32)
    np.testing.assert_allclose(namespace["weighted"](x, w), [2.0, 6.0])  # w is an input
    kept = exec_script(export2python(weighted))["make_model"]()
    np.testing.assert_allclose(run_model(kept, [x])[0], [2.0, 6.0])


# -- onnxscript.testing --------------------------------------------------------------------


@script()
def absolute(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Abs(x)


@script()
def absolute_renamed(values: FLOAT["N"]) -> FLOAT["N"]:
    result = op.Abs(values)
    return result


@script()
def negate(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Neg(x)


def test_isomorphism_of_functions_and_graphs_up_to_renaming():
    from onnxscript.testing import Mismatch, assert_isomorphic_function, assert_isomorphic_graph

    left, right = absolute.to_function_proto(), absolute_renamed.to_function_proto()
    assert list(left.input) != list(right.input)
    assert_isomorphic_function(left, right)
    assert_isomorphic_graph(checked_model(absolute).graph, checked_model(absolute_renamed).graph)
    with pytest.raises(Mismatch):
        assert_isomorphic_function(left, negate.to_function_proto())
    with pytest.raises(Mismatch):
        assert_isomorphic_graph(checked_model(absolute).graph, checked_model(negate).graph)
    with pytest.raises(TypeError, match="two FunctionProto"):
        assert_isomorphic_function(absolute.to_model_proto(), left)
    with pytest.raises(TypeError, match="two GraphProto"):
        assert_isomorphic_graph(left, left)


# -- onnxscript.evaluator --------------------------------------------------------------------

EVALUATOR_NAMES = [
    "Evaluator",
    "ORTEvaluator",
    "ORTMixedEvaluator",
    "OnnxReferenceRuntimeEvaluator",
    "default",
    "default_as",
    "set_default",
]


def test_evaluator_names_of_0_7():
    from onnxscript import evaluator

    assert set(EVALUATOR_NAMES) <= set(evaluator.__all__)
    assert evaluator.ORTEvaluator is evaluator.OnnxRuntimeEvaluator
    assert evaluator.ORTMixedEvaluator is evaluator.MixedEvaluator
    assert evaluator.OnnxReferenceRuntimeEvaluator is evaluator.ReferenceEvaluator
    x = np.array([4.0, 9.0], np.float32)
    kinds = (evaluator.ORTEvaluator, evaluator.ORTMixedEvaluator)
    for kind in (*kinds, evaluator.OnnxReferenceRuntimeEvaluator):
        chosen = kind()
        assert isinstance(chosen, evaluator.Evaluator)
        with evaluator.default_as(chosen):
            assert evaluator.default() is chosen
            np.testing.assert_allclose(op.Sqrt(x), [2.0, 3.0])
            np.testing.assert_allclose(absolute(-x), x)


@script()
def first_dim(x: FLOAT["N", 3]) -> INT64[1]:
    return op.Shape(x, end=1)


def test_set_default_switches_the_evaluator_for_the_context():
    import contextvars

    from onnxscript import evaluator

    def switched() -> bool:
        chosen = evaluator.OnnxReferenceRuntimeEvaluator()
        evaluator.set_default(chosen)
        assert first_dim(np.ones((5, 3), np.float32)).tolist() == [5]
        return evaluator.default() is chosen

    assert contextvars.copy_context().run(switched)
    assert not isinstance(evaluator.default(), evaluator.OnnxReferenceRuntimeEvaluator)


# -- what importing loads -----------------------------------------------------------------


def _loaded_after(code: str) -> set[str]:
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))\n"
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_compatibility_paths_load_only_what_they_name():
    loaded = _loaded_after("from onnxscript.onnx_opset import opset18\nimport onnxscript.backend")
    heavy = ("converter", "evaluator", "reverse", "testing")
    assert not {m for m in loaded if m.startswith(tuple(f"onnxscript.{h}" for h in heavy))}
    assert "onnxruntime" not in loaded
    loaded = _loaded_after("from onnxscript.tensor import Tensor")
    assert "onnxscript.evaluator.tensor" in loaded and "onnxruntime" not in loaded
    assert "onnxscript.onnx_opset" not in _loaded_after("import onnxscript")
