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


# -- onnxscript.export_onnx_lib ---------------------------------------------------------


def test_export_onnx_lib_writes_a_graphless_model_of_the_functions(tmp_path):
    from onnxscript.values import Opset

    @script(Opset("this", 1))
    def relu(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.Relu(x)

    @script(Opset("custom", 2))
    def scaled(x: FLOAT["N"], alpha: float = 1.0) -> FLOAT["N"]:
        return op.Mul(relu(x), alpha)

    path = tmp_path / "lib.onnx"
    onnxscript.export_onnx_lib([relu, scaled], str(path))
    model = onnx.load(str(path))
    # The header 0.7.2 writes (observed by running it).
    assert (model.ir_version, model.producer_name) == (10, "p2o")
    assert [(o.domain, o.version) for o in model.opset_import] == [("", 15)]
    assert not model.HasField("graph")
    assert [(f.domain, f.name) for f in model.functions] == [("this", "relu"), ("custom", "scaled")]
    assert model.functions[1] == scaled.to_function_proto()
    # The library's functions run when put into a model.
    caller = oh.make_model(
        oh.make_graph(
            [oh.make_node("scaled", ["x"], ["y"], domain="custom", alpha=3.0)],
            "g",
            [oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [3])],
            [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3])],
        ),
        opset_imports=[
            oh.make_opsetid("", 18),
            oh.make_opsetid("custom", 2),
            oh.make_opsetid("this", 1),
        ],
        functions=list(model.functions),
        ir_version=10,
    )
    onnx.checker.check_model(caller, full_check=True)
    (got,) = run_model(caller, [np.array([-1, 0, 2], np.float32)])
    np.testing.assert_array_equal(got, [0, 0, 6])
    with pytest.raises(TypeError, match="compiled with @script"):
        onnxscript.export_onnx_lib([len], str(path))  # type: ignore[list-item]


# -- onnxscript._internal.builder ---------------------------------------------------------


def test_internal_builder_module_offers_0_7_names():
    import onnx_ir as ir

    import onnxscript._internal.builder as builder

    assert builder.GraphBuilder is onnxscript.GraphBuilder
    assert builder.OpBuilder is onnxscript.OpBuilder
    fn = builder.build_function(
        lambda op, x: op.Mul(x, 3.0),
        [builder.make_value("x", FLOAT[3])],
        domain="com.example",
        name="Triple",
        opset_imports={"": 18},
    )
    body = builder.build_graph(
        lambda op, x, y: op.Add(x, y),
        [builder.make_value("x", FLOAT[3]), builder.make_value("y", FLOAT[3])],
        [builder.make_value("total", FLOAT[3])],
        opset_imports={"": 18},
    )
    assert [v.name for v in body.outputs] == ["total"] and len(body) == 1
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 18}, name="g")
    gb = builder.GraphBuilder(graph)
    x = gb.input("x", ir.DataType.FLOAT, [3])
    c = gb.initializer(ir.tensor(np.ones(3, np.float32)), "c")
    gb.add_output(gb.op.Add(gb.op.call(fn, x), c), "y")
    builder.lift_initializers_to_constants(graph)
    assert not graph.initializers and graph[0].op_type == "Constant"
    proto = ir.serde.serialize_model(ir.Model(graph, ir_version=10, functions=[fn]))
    onnx.checker.check_model(proto, full_check=True)
    (got,) = run_model(proto, [np.array([1, 2, 3], np.float32)])
    np.testing.assert_array_equal(got, [4, 7, 10])
