"""``TracedOnnxFunction``: the body runs as Python on every call; eagerly on arrays, under a
recording evaluator as recorded ops, and ``to_function_proto()`` traces it on symbolic
inputs. Traced protos are checked and run with onnxruntime against the eager results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

import numpy as np
import onnx
import onnx.helper as oh
import pytest

from onnxscript import DOUBLE, FLOAT, INT64, TracedOnnxFunction, script
from onnxscript import opset18 as op
from onnxscript.evaluator import Evaluator, default_as
from onnxscript.testing import run_model as _run_model
from onnxscript.values import Opset

DOMAIN = Opset("my.ns", 1)


def _scale(x: FLOAT[...], alpha: float = 2.0, reduce: bool = False):
    """Multiply by alpha (skipped for 1.0); sum the last axis of a matrix when asked."""
    if alpha == 1.0:
        return op.Identity(x)
    y = op.Mul(x, alpha)
    if reduce and len(x.shape) == 2:
        y = op.ReduceSum(y, [1], keepdims=0)
    return y


scale = TracedOnnxFunction(DOMAIN, _scale)


def run_model(model: onnx.ModelProto, *inputs: np.ndarray) -> list[Any]:
    """Run a hand-made model (not a compiled script) on positional inputs."""
    return _run_model(model, list(inputs))


def _calling_model(
    function: onnx.FunctionProto,
    shape: Sequence[int | str] = ("n",),
    out_shape: Sequence[int | str] | None = None,
    n_inputs: int = 1,
) -> onnx.ModelProto:
    """A model whose graph calls ``function`` once on FLOAT inputs of ``shape``."""
    names = [f"in{i}" for i in range(n_inputs)]
    node = oh.make_node(function.name, names, ["out"], domain=function.domain)
    graph = oh.make_graph(
        [node],
        "g",
        [oh.make_tensor_value_info(n, onnx.TensorProto.FLOAT, shape) for n in names],
        [oh.make_tensor_value_info("out", onnx.TensorProto.FLOAT, out_shape or shape)],
    )
    opsets = [oh.make_opsetid(d.domain, d.version) for d in function.opset_import]
    opsets.append(oh.make_opsetid(function.domain, 1))
    model = oh.make_model(graph, functions=[function], opset_imports=opsets, ir_version=10)
    onnx.checker.check_model(model, full_check=True)
    return model


def test_identity_and_attributes():
    assert scale.traceable and scale.name == "_scale"
    assert scale.opset is DOMAIN and scale.function is _scale
    assert scale.function_ir.domain == "my.ns"
    assert "Multiply by alpha" in (scale.__doc__ or "")


def test_eager_call_runs_the_body_on_arrays():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    np.testing.assert_allclose(scale(x), x * 2)
    np.testing.assert_allclose(scale(x, alpha=3.0, reduce=True), [9.0, 21.0])
    np.testing.assert_allclose(scale(x, alpha=1.0), x)


@pytest.mark.parametrize("attrs", [{}, {"alpha": 0.5}, {"alpha": 1.0}])
def test_traced_proto_runs_like_eager(attrs):
    function = scale.to_function_proto(**attrs)
    model = _calling_model(function)
    x = np.array([1.0, -2.0, 4.0], np.float32)
    (got,) = run_model(model, x)
    np.testing.assert_allclose(got, scale(x, **attrs))
    ops = [n.op_type for n in function.node]
    assert ops == (["Identity"] if attrs.get("alpha") == 1.0 else ["Constant", "Mul"])


def test_trace_reads_shapes_from_annotations():
    def rows(x: FLOAT["N", 3]):
        return op.ReduceSum(x, [1], keepdims=0) if len(x.shape) == 2 else op.Identity(x)

    function = TracedOnnxFunction(DOMAIN, rows).to_function_proto()
    assert [n.op_type for n in function.node] == ["Constant", "ReduceSum"]
    (got,) = run_model(_calling_model(function, ("N", 3), ("N",)), np.ones((2, 3), np.float32))
    np.testing.assert_allclose(got, [3.0, 3.0])


def test_attribute_without_default_must_be_given():
    def power(x: FLOAT[...], p: int):
        return op.Pow(x, float(p))

    traced = TracedOnnxFunction(DOMAIN, power)
    with pytest.raises(TypeError, match=r"to_function_proto\(p=\.\.\.\)"):
        traced.to_function_proto()
    with pytest.raises(TypeError, match="no attribute parameter 'q'"):
        traced.to_function_proto(p=2, q=1)
    function = traced.to_function_proto(p=3)
    (got,) = run_model(_calling_model(function), np.array([2.0], np.float32))
    np.testing.assert_allclose(got, [8.0])


class _TorchLikeRecorder(Evaluator):
    """Implements only what torch.onnx's OpRecorder does: ``eval`` by schema and
    ``eval_function``, running traceable functions itself."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = []

    def eval(self, schema: onnx.defs.OpSchema, args: Sequence[Any], kwargs: Mapping[str, Any]):
        self.calls.append((schema.name, tuple(args), dict(kwargs)))
        return _Symbolic((2,))

    def eval_function(self, function, args, kwargs):
        assert function.traceable
        return function.function(*args, **kwargs)


class _Symbolic:
    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape


def test_calls_reach_a_torch_like_recorder_unconverted():
    recorder = _TorchLikeRecorder()
    x = _Symbolic((4, 5))
    with default_as(recorder):
        result = scale(x, alpha=3.0, reduce=True)
    assert isinstance(result, _Symbolic)
    assert [c[0] for c in recorder.calls] == ["Mul", "ReduceSum"]
    assert recorder.calls[0][1] == (x, 3.0)
    assert recorder.calls[1][2] == {"keepdims": 0}


def test_traced_function_schema_and_signature():
    schema = scale.op_schema
    assert (schema.name, schema.domain, schema.since_version) == ("_scale", "my.ns", 1)
    assert [i.name for i in schema.inputs] == ["x"]
    assert schema.attributes["alpha"].default_value.f == 2.0
    assert schema.attributes["reduce"].default_value.i == 0
    constraint = {c.type_param_str: list(c.allowed_type_strs) for c in schema.type_constraints}
    assert constraint["T_x"] == ["tensor(float)"]
    sig = scale.op_signature
    assert [p.name for p in sig.inputs] == ["x"]
    assert {a.name for a in sig.attributes} == {"alpha", "reduce"}


def test_optional_tensor_parameter_of_traced_function():
    def maybe_add(x: FLOAT[...], bias: FLOAT[...] | None = None):
        return op.Identity(x) if bias is None else op.Add(x, bias)

    traced = TracedOnnxFunction(DOMAIN, maybe_add)
    assert [p.optional for p in traced.call_signature.inputs] == [False, True]
    x = np.array([1.0], np.float32)
    np.testing.assert_allclose(traced(x), x)
    np.testing.assert_allclose(traced(x, x), 2 * x)


def test_bad_annotation_is_a_clear_error():
    def f(x: FLOAT, d: dict):  # a dict is neither a tensor nor an attribute type
        return op.Identity(x)

    with pytest.raises(TypeError, match="parameter 'd' has the annotation"):
        TracedOnnxFunction(DOMAIN, f).to_function_proto()


def test_script_function_called_from_traced_code_is_a_function_node():
    @script(DOMAIN)
    def double(x: FLOAT[...]) -> FLOAT[...]:
        return op.Add(x, x)

    def twice_plus_one(x: FLOAT[...]):
        return op.Add(double(x), 1.0)

    traced = TracedOnnxFunction(DOMAIN, twice_plus_one)
    x = np.array([1.5], np.float32)
    np.testing.assert_allclose(traced(x), [4.0])
    function = traced.to_function_proto()
    assert [(n.domain, n.op_type) for n in function.node] == [
        ("my.ns", "double"),
        ("", "Constant"),
        ("", "Add"),
    ]


def test_int_constant_takes_the_partner_input_type():
    def shift(x: INT64):
        return op.Add(x, 2)

    function = TracedOnnxFunction(DOMAIN, shift).to_function_proto()
    constant = function.node[0].attribute[0].t
    assert constant.data_type == onnx.TensorProto.INT64


def test_script_trace_only_makes_a_traced_function():
    @script(DOMAIN, trace_only=True)
    def clip_low(x: FLOAT[...], low: float = 0.0):
        return op.Max(x, low)

    assert isinstance(clip_low, TracedOnnxFunction) and clip_low.domain == "my.ns"
    x = np.array([-1.0, 2.0], np.float32)
    np.testing.assert_allclose(clip_low(x), [0.0, 2.0])
    (got,) = run_model(_calling_model(clip_low.to_function_proto(low=1.0)), x)
    np.testing.assert_allclose(got, [1.0, 2.0])


def test_calling_a_traced_function_in_a_script_is_a_located_error():
    from onnxscript import ScriptError

    with pytest.raises(ScriptError, match="scale is a traced function") as info:

        @script()
        def uses(x: FLOAT[...]) -> FLOAT[...]:
            return scale(x)

    assert "return scale(x)" in str(info.value)


TF = TypeVar("TF", FLOAT, DOUBLE)


def _typevar_add(x: TF, y: TF | None = None, alpha: float = 1.0) -> TF:
    if y is None:
        return op.Identity(x)
    return op.Add(x, op.Mul(y, op.CastLike(alpha, y)))


def test_typevar_traced_function_traces_untyped_inputs_and_shares_one_constraint():
    traced = TracedOnnxFunction(DOMAIN, _typevar_add)
    assert [(p.name, p.optional) for p in traced.call_signature.inputs] == [
        ("x", False),
        ("y", True),
    ]
    sig = traced.op_signature
    x_param, y_param = sig.params[0], sig.params[1]
    assert x_param.type_constraint is y_param.type_constraint  # one constraint: TF
    assert sig.outputs[0].type_constraint.name == "TF"
    assert {str(t) for t in x_param.type_constraint.allowed_types} == {"FLOAT", "DOUBLE"}
    # Traced on symbolic inputs, a TypeVar input has no type (as a script's): the caller's
    # model gives it one.
    function = traced.to_function_proto(alpha=2.0)
    assert list(function.input) == ["x", "y"]
    assert not {"x", "y"} & {v.name for v in function.value_info}
    x = np.array([1.0, -2.0], np.float32)
    (got,) = run_model(_calling_model(function, n_inputs=2), x, x)
    np.testing.assert_allclose(got, 3 * x)
    # Eagerly, each type TF allows runs.
    for dtype in (np.float32, np.float64):
        np.testing.assert_allclose(traced(x.astype(dtype), x.astype(dtype)), 2 * x)
