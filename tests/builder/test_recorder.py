"""The GraphRecorder: op calls on onnx_ir values become typed nodes; Python numbers become
constants of the type the schema binds."""

from __future__ import annotations

import onnx_ir as ir
import pytest

from onnxscript import opset17, opset18
from onnxscript import opset18 as op
from onnxscript.builder.recorder import GraphRecorder, RecordingError
from onnxscript.evaluator import default_as


def _value(name: str, dtype: ir.DataType | None = ir.DataType.FLOAT) -> ir.Value:
    value = ir.Value(name=name)
    if dtype is not None:
        value.dtype = dtype
    return value


def test_ops_become_nodes_with_element_types():
    x, i = _value("x"), _value("i", ir.DataType.INT64)
    with default_as(GraphRecorder()) as rec:
        y = op.Add(x, x)
        s = op.Shape(y)
        c = op.Cast(i, to=1)
        b = op.Less(y, x)
    assert [n.op_type for n in rec.nodes] == ["Add", "Shape", "Cast", "Less"]
    assert (y.dtype, s.dtype, c.dtype, b.dtype) == (
        ir.DataType.FLOAT,
        ir.DataType.INT64,
        ir.DataType.FLOAT,
        ir.DataType.BOOL,
    )
    assert rec.nodes[2].attributes["to"].value == 1
    assert rec.opset_imports == {"": 18}


def test_numbers_become_constants_of_the_bound_type():
    x = _value("x", ir.DataType.DOUBLE)
    with default_as(GraphRecorder()) as rec:
        y = op.Mul(x, 2)
        r = op.Reshape(y, [1, -1])
    const_mul, _, const_shape, _ = rec.nodes
    assert const_mul.op_type == "Constant"
    assert const_mul.outputs[0].dtype == ir.DataType.DOUBLE
    assert const_shape.outputs[0].dtype == ir.DataType.INT64
    assert const_shape.outputs[0].const_value.numpy().tolist() == [1, -1]
    assert r.dtype == ir.DataType.DOUBLE


def test_number_next_to_an_untyped_value_is_cast_like_it():
    x = _value("x", None)
    with default_as(GraphRecorder()) as rec:
        op.Add(x, 1.5)
    assert [n.op_type for n in rec.nodes] == ["Constant", "CastLike", "Add"]
    assert rec.nodes[1].inputs[1] is x


def test_several_outputs_and_requested_counts():
    x = _value("x")
    with default_as(GraphRecorder()) as rec:
        a, b, c = op.Split(x, num_outputs=3)
        (only,) = op.Identity(x, _outputs=1)
    assert len(rec.nodes[0].outputs) == 3 and c.dtype == ir.DataType.FLOAT
    assert only is rec.nodes[1].outputs[0]


def test_one_opset_version_per_domain():
    x = _value("x")
    with default_as(GraphRecorder()), pytest.raises(RecordingError, match="versions 18 and 17"):
        opset18.Abs(x)
        opset17.Abs(x)


def _branch():
    return op.Constant(value_float=1.0)


def test_graph_attributes_and_odd_inputs_are_clear_errors():
    x = _value("x")
    with default_as(GraphRecorder()):
        with pytest.raises(RecordingError, match="graph attributes are not recorded"):
            op.If(x, then_branch=_branch, else_branch=_branch)
        with pytest.raises(RecordingError, match="input 1 of Add"):
            op.Add(x, object())
