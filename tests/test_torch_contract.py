"""The contract torch.onnx relies on (COMPATIBILITY.md §11), checked with torch's own
recorder: ops, traced functions and script functions called on torch's symbolic tensors
under ``onnxscript.evaluator.default_as(OpRecorder(...))``. Skipped without torch."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
building = pytest.importorskip("torch.onnx._internal.exporter._building")
tensors = pytest.importorskip("torch.onnx._internal.exporter._tensors")
schemas = pytest.importorskip("torch.onnx._internal.exporter._schemas")

import onnx_ir as ir  # noqa: E402

from onnxscript import FLOAT, TracedOnnxFunction, evaluator, script  # noqa: E402
from onnxscript import opset18 as op  # noqa: E402
from onnxscript.values import Opset  # noqa: E402

OPSET = Opset("", 18)
LIB = Opset("pkg.test", 1)


@script(LIB)
def double(x: FLOAT[...]) -> FLOAT[...]:
    return op.Add(x, x)


def _sum_rows(x: FLOAT[...], keep: bool = True):
    if x.dtype == ir.DataType.FLOAT and len(x.shape) == 2:
        return op.ReduceSum(x, [1], keepdims=int(keep))
    return op.Identity(x)


sum_rows = TracedOnnxFunction(LIB, _sum_rows)


def _symbolic(shape: list[int]) -> ir.Value:
    return tensors.SymbolicTensor(
        OPSET, name="x", shape=ir.Shape(shape), type=ir.TensorType(ir.DataType.FLOAT)
    )


def _record(call):
    recorder = building.OpRecorder(OPSET, {})
    with evaluator.default_as(recorder):
        result = call()
    return recorder, result


def test_op_calls_reach_eval_by_schema():
    x = _symbolic([2, 3])
    recorder, result = _record(lambda: (op.Add(x, 1.0), op.Split(x, num_outputs=3, axis=1)))
    added, parts = result
    assert isinstance(added, tensors.SymbolicTensor)
    assert len(parts) == 3
    assert [n.op_type for n in recorder.nodes][-2:] == ["Add", "Split"]


def test_traced_function_body_runs_on_symbolic_tensors():
    recorder, result = _record(lambda: sum_rows(_symbolic([2, 3]), keep=False))
    assert [n.op_type for n in recorder.nodes if n.op_type != "Constant"] == ["ReduceSum"]
    reduce = next(n for n in recorder.nodes if n.op_type == "ReduceSum")
    assert reduce.attributes["keepdims"].value == 0
    recorder, _ = _record(lambda: sum_rows(_symbolic([4])))
    assert [n.op_type for n in recorder.nodes] == ["Identity"]


def test_script_function_becomes_a_function_node_and_a_model_function():
    recorder, result = _record(lambda: double(_symbolic([2])))
    assert [(n.domain, n.op_type) for n in recorder.nodes] == [("pkg.test", "double")]
    assert list(recorder.functions) == [("pkg.test", "double", "")]
    function = ir.serde.deserialize_function(double.to_function_proto())
    assert (function.domain, function.name) == ("pkg.test", "double")


def test_torch_derives_signatures_from_our_functions():
    for fn in (double, sum_rows):
        sig = schemas.op_signature_from_function(
            fn, fn.function_ir.domain, fn.name, since_version=fn.opset.version
        )
        assert [p.name for p in sig.inputs] == ["x"]
    sig = schemas.op_signature_from_function(sum_rows, "pkg.test", "sum_rows")
    assert [a.name for a in sig.attributes] == ["keep"]
