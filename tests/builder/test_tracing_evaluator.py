"""A GraphBuilder as the current evaluator: ``opsetN`` ops and script functions called on
onnx_ir values become typed nodes; Python numbers become constants of the bound type."""

from __future__ import annotations

import onnx_ir as ir
import pytest

from onnxscript import opset17
from onnxscript import opset18 as op
from onnxscript.builder import BuilderError, GraphBuilder


def _builder(**options: object) -> GraphBuilder:
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 18}, name="g")
    return GraphBuilder(graph, **options)  # type: ignore[arg-type]


def _value(name: str, dtype: ir.DataType | None = ir.DataType.FLOAT) -> ir.Value:
    value = ir.Value(name=name)
    if dtype is not None:
        value.dtype = dtype
    return value


def _op_types(builder: GraphBuilder) -> list[str]:
    return [n.op_type for n in builder.graph]


def test_ops_become_nodes_with_element_types():
    x, i = _value("x"), _value("i", ir.DataType.INT64)
    with _builder() as b:
        y = op.Add(x, x)
        s = op.Shape(y)
        c = op.Cast(i, to=1)
        less = op.Less(y, x)
    assert _op_types(b) == ["Add", "Shape", "Cast", "Less"]
    assert (y.dtype, s.dtype, c.dtype, less.dtype) == (
        ir.DataType.FLOAT,
        ir.DataType.INT64,
        ir.DataType.FLOAT,
        ir.DataType.BOOL,
    )
    assert b.graph.node(2).attributes["to"].value == 1
    assert b.graph.opset_imports == {"": 18}


def test_numbers_become_constants_of_the_bound_type():
    x = _value("x", ir.DataType.DOUBLE)
    with _builder() as b:
        y = op.Mul(x, 2)
        r = op.Reshape(y, [1, -1])
    mul, reshape = b.graph
    assert mul.inputs[1].const_value.dtype == ir.DataType.DOUBLE
    assert reshape.inputs[1].const_value.numpy().tolist() == [1, -1]
    assert reshape.inputs[1].dtype == ir.DataType.INT64
    assert r.dtype == ir.DataType.DOUBLE


def test_number_next_to_an_untyped_value_is_cast_like_it():
    x = _value("x", None)
    with _builder() as b:
        op.Add(x, 1.5)
    assert _op_types(b) == ["CastLike", "Add"]
    assert b.graph.node(0).inputs[1] is x


def test_several_outputs_and_requested_counts():
    x = _value("x")
    with _builder() as b:
        a, b_, c = op.Split(x, num_outputs=3)
        (only,) = op.Identity(x, _outputs=1)
    assert len(b.graph.node(0).outputs) == 3 and c.dtype == ir.DataType.FLOAT
    assert only is b.graph.node(1).outputs[0]


def test_one_definition_per_op_and_domain():
    x = _value("x")
    with _builder() as b:
        opset17.Abs(x)  # Abs is the same op in opsets 17 and 18
        with pytest.raises(BuilderError, match="ReduceMean of opset version 17 differs"):
            opset17.ReduceMean(x)
    assert _op_types(b) == ["Abs"]


def test_odd_inputs_are_clear_errors():
    x = _value("x")
    with _builder(), pytest.raises(BuilderError, match="input 1 of Add"):
        op.Add(x, object())
