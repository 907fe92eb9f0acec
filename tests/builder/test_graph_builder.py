"""GraphBuilder / OpBuilder: the builder API of onnxscript 0.7's tutorial, with shape
inference and folding while building; every model built is checked and run."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
import pytest

import onnxscript
from onnxscript import FLOAT, INT64, TracedOnnxFunction, script
from onnxscript import opset18 as o18
from onnxscript.builder import BuilderError, GraphBuilder, OpBuilder
from tests.helpers import run_model


def _graph(version: int = 18) -> ir.Graph:
    return ir.Graph([], [], nodes=[], opset_imports={"": version}, name="g")


def _model_proto(builder: GraphBuilder) -> onnx.ModelProto:
    model = ir.Model(builder.graph, ir_version=10, functions=builder.functions.values())
    proto = ir.serde.serialize_model(model)
    onnx.checker.check_model(proto, full_check=True)
    return proto


def _shape(value: ir.Value) -> list[int | str | None]:
    assert value.shape is not None
    return [d if isinstance(d, int) else d.value for d in value.shape]


@pytest.fixture
def builder() -> GraphBuilder:
    return onnxscript.GraphBuilder(_graph())


def test_ops_record_nodes_with_types_and_symbolic_shapes(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, ["N", 64])
    w = builder.initializer(ir.tensor(np.ones((64, 8), np.float32)), name="w")
    y = op.Relu(op.Add(op.MatMul(x, w), 1.0))
    assert isinstance(op, OpBuilder) and op.builder is builder
    assert (y.dtype, _shape(y)) == (ir.DataType.FLOAT, ["N", 8])
    assert [n.op_type for n in builder.graph] == ["MatMul", "Add", "Relu"]
    builder.add_output(y, "y")
    data = np.random.default_rng(0).standard_normal((3, 64)).astype(np.float32)
    (got,) = run_model(_model_proto(builder), data)
    np.testing.assert_allclose(got, np.maximum(data @ np.ones((64, 8)) + 1, 0), rtol=1e-5)


def test_names_default_custom_and_scoped(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [3])
    a = op.Add(x, x)
    # As onnxscript 0.7 names them: values "v_<scope><op>_<n>", nodes "<scope/><op>_node_<n>".
    assert a.name.startswith("v_Add_") and a.producer().name.startswith("Add_node_")
    named = op.Mul(x, x, _outputs=["my_product"])
    assert named.name == "v_my_product"
    given = ir.Value(name="result")
    assert op.Sub(x, x, _outputs=[given]) is given
    builder.push_module("layer1", "Linear")
    inner = op.Neg(x)
    builder.push_module("attention")
    deeper = op.Abs(x)
    assert deeper.producer().metadata_props["namespace"] == "layer1: Linear/attention"
    builder.pop_module()
    builder.pop_module()
    outer = op.Neg(x)
    assert inner.name.startswith("v_layer1.Neg_")
    assert inner.producer().name.startswith("layer1/Neg_node_")
    assert deeper.name.startswith("v_layer1.attention.Abs_")
    assert deeper.producer().name.startswith("layer1/attention/Abs_node_")
    assert not outer.name.startswith("v_layer1")
    with builder.module("block"):
        assert op.Neg(x).name.startswith("v_block.Neg_")
    with pytest.raises(ValueError, match="already used"):
        op.Mul(x, x, _outputs=["my_product"])
    with pytest.raises(ValueError, match="pop_module"):
        builder.pop_module()


def test_every_value_name_is_unique_in_a_model(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [2])
    for _ in range(3):
        with builder.module("m"):
            x = op.Add(x, 1.0)
    names = [v.name for n in builder.graph for v in n.outputs]
    assert len(names) == len(set(names))


def test_constants_are_cast_to_the_bound_type_and_shared(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [3])
    i = builder.input("i", ir.DataType.INT64, [3])
    a = op.Add(x, 1)
    b = op.Add(1, x)  # the constant comes first: its type still follows x
    c = op.Add(i, 1)
    d = op.Add(x, [1, 2, 3])
    const_a, const_b, const_c = (
        a.producer().inputs[1],
        b.producer().inputs[0],
        c.producer().inputs[1],
    )
    assert const_a is const_b and const_a.dtype == ir.DataType.FLOAT
    assert const_c is not const_a and const_c.dtype == ir.DataType.INT64
    assert const_a.name == "const_1_f32" and const_c.name == "const_1_i64"
    assert d.producer().inputs[1].const_value.numpy().tolist() == [1.0, 2.0, 3.0]
    assert set(builder.graph.initializers) == {"const_1_f32", "const_1_i64", "const_[1,2,3]_f32"}
    with builder.module("layer"):  # constants are shared across modules
        assert op.Add(x, 1).producer().inputs[1] is const_a


def test_schema_fixed_types_and_cast_like_for_unknown_types(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [2, 3])
    r = op.Reshape(x, [3, 2])  # shape input is tensor(int64) in the schema
    assert r.producer().inputs[1].dtype == ir.DataType.INT64
    untyped = builder.input("u", shape=[2])
    s = op.Add(untyped, 1.5)
    cast = s.producer().inputs[1].producer()
    assert cast.op_type == "CastLike" and cast.inputs[1] is untyped


def test_outputs_count_and_declared_outputs(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [4, 6])
    parts = op.Split(x, num_outputs=3, axis=1)
    assert len(parts) == 3 and [_shape(p) for p in parts] == [[4, 2]] * 3
    # One output is a value, as in 0.7 (``with builder:`` and opsetN follow eager rules).
    assert isinstance(op.Identity(x, _outputs=1), ir.Value)
    values, indices = op.TopK(x, [2], axis=1)
    assert indices.dtype == ir.DataType.INT64 and _shape(values) == [4, 2]


def test_custom_domains_inline_and_by_opset(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [3])
    r = op.CustomOp(x, x, alpha=0.5, _domain="com.microsoft", _version=1)
    node = r.producer()
    assert (node.domain, node.version, node.attributes["alpha"].value) == ("com.microsoft", 1, 0.5)
    ms = builder.opset("com.example", 2)
    t = ms.Fused(op.Relu(x))
    assert t.producer().domain == "com.example" and ms.version == 2
    assert builder.graph.opset_imports == {"": 18, "com.microsoft": 1, "com.example": 2}


def test_folding_turns_static_shape_arithmetic_into_constants(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [2, 3, 4])
    shape = op.Shape(x)
    rows = op.Gather(shape, 0)
    flat = op.Reshape(x, op.Concat(op.Unsqueeze(rows, [0]), [-1], axis=0))
    assert shape.const_value is not None and rows.const_value.numpy() == 2
    assert [n.op_type for n in builder.graph] == ["Reshape"]
    assert _shape(flat) == [2, 12]
    builder.add_output(flat, "flat")
    data = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    (got,) = run_model(_model_proto(builder), data)
    np.testing.assert_array_equal(got, data.reshape(2, 12))


def test_folding_can_be_turned_off_and_keeps_symbolic_shapes():
    builder = GraphBuilder(_graph(), fold_constants=False)
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [2, 3])
    op.Shape(x)
    assert [n.op_type for n in builder.graph] == ["Shape"]
    dynamic = GraphBuilder(_graph())
    y = dynamic.input("y", ir.DataType.FLOAT, ["N", 3])
    s = dynamic.op.Shape(y)
    assert s.const_value is None and _shape(s) == [2]


def test_initializers_are_scoped(builder):
    weights = ir.tensor(np.ones((3, 4), np.float32), name="weights")
    assert builder.initializer(weights).name == "weights"
    builder.push_module("encoder")
    w = builder.initializer(weights, name="W")
    builder.pop_module()
    assert w.name == "encoder.W" and w.const_value is weights
    assert builder.op.initializer(weights, name="V").name == "V"


def test_subgraph_builds_a_scan_body():
    builder = GraphBuilder(_graph())
    op = builder.op
    init = builder.input("init", ir.DataType.FLOAT, [2])
    seq = builder.input("seq", ir.DataType.FLOAT, [5, 2])

    def cumsum(op, state, x_i):
        total = op.Add(state, x_i)
        return total, total

    body = builder.subgraph(cumsum, [FLOAT[2], FLOAT[2]], [FLOAT[2], FLOAT[2]], name="cumsum")
    assert [n.op_type for n in body] == ["Add", "Identity"]
    final, partial = op.Scan(init, seq, body=body, num_scan_inputs=1, _outputs=2)
    builder.add_output(final, "final")
    builder.add_output(partial, "partial")
    data = np.arange(10, dtype=np.float32).reshape(5, 2)
    got_final, got_partial = run_model(_model_proto(builder), np.zeros(2, np.float32), data)
    np.testing.assert_allclose(got_partial, np.cumsum(data, axis=0))
    np.testing.assert_allclose(got_final, data.sum(axis=0))


def test_subgraph_captures_outer_values_and_checks_declared_types():
    builder = GraphBuilder(_graph())
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [3])
    flag = builder.input("flag", ir.DataType.BOOL, [])
    then = builder.subgraph(lambda op: op.Mul(x, 2.0), [], [FLOAT[3]], name="then")
    other = builder.subgraph(lambda op: x, [], [FLOAT[3]], name="else")
    y = op.If(flag, then_branch=then, else_branch=other)
    builder.add_output(y, "y")
    data = np.array([1, 2, 3], np.float32)
    proto = _model_proto(builder)
    np.testing.assert_allclose(run_model(proto, data, np.array(True))[0], data * 2)
    np.testing.assert_allclose(run_model(proto, data, np.array(False))[0], data)
    with pytest.raises(BuilderError, match="declared INT64 but the body makes FLOAT"):
        builder.subgraph(lambda op: op.Neg(x), [], [INT64[3]], name="bad")


@script()
def _scaled_relu(a: FLOAT["N"], scale: float = 2.0) -> FLOAT["N"]:
    return o18.Relu(a) * scale


def test_call_adds_a_function_and_call_inline_copies_its_body(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [4])
    called = op.call(_scaled_relu, x, scale=3.0)
    assert called.producer().op_type == "_scaled_relu" and called.dtype == ir.DataType.FLOAT
    assert list(builder.functions) == [("this", "_scaled_relu", "")]
    inlined = op.call_inline(_scaled_relu, called, _outputs=["inlined"], _prefix="fn")
    assert inlined.name == "v_inlined"
    ops = [n.op_type for n in builder.graph]
    assert ops == ["_scaled_relu", "Relu", "Constant", "Mul"], ops
    scale = inlined.producer().inputs[1]
    assert scale.const_value.numpy() == 2.0  # the attribute's default
    assert inlined.producer().name.startswith("fn/")
    builder.add_output(inlined)
    data = np.array([-1, 0, 1, 2], np.float32)
    (got,) = run_model(_model_proto(builder), data)
    np.testing.assert_allclose(got, np.maximum(np.maximum(data, 0) * 3, 0) * 2)


def test_opset_ops_and_script_functions_record_inside_with_builder(builder):
    x = builder.input("x", ir.DataType.FLOAT, [4])
    with builder:
        y = o18.Relu(x)
        z = _scaled_relu(y)
        w = o18.Add(z, 1)
    assert [n.op_type for n in builder.graph] == ["Relu", "_scaled_relu", "Add"]
    assert w.producer().inputs[1].dtype == ir.DataType.FLOAT
    builder.add_output(w)
    data = np.array([-1, 0, 1, 2], np.float32)
    (got,) = run_model(_model_proto(builder), data)
    np.testing.assert_allclose(got, np.maximum(data, 0) * 2 + 1)


def _traced_norm(x: FLOAT[...]) -> FLOAT[...]:
    axes = [len(x.shape) - 1]  # depends on the rank: a Python-side fact
    return o18.Div(x, o18.ReduceSum(o18.Abs(x), axes, keepdims=1))


def test_traced_functions_run_their_body_on_builder_values(builder):
    traced = TracedOnnxFunction(onnxscript.values.Opset("", 18), _traced_norm)
    x = builder.input("x", ir.DataType.FLOAT, [2, 3])
    y = builder.op.call(traced, x)
    assert [n.op_type for n in builder.graph] == ["Abs", "ReduceSum", "Div"]
    assert builder.functions == {}
    builder.add_output(y, "y")
    data = np.array([[1, -1, 2], [3, 0, -1]], np.float32)
    (got,) = run_model(_model_proto(builder), data)
    np.testing.assert_allclose(got, data / np.abs(data).sum(axis=1, keepdims=True))


def test_shape_errors_name_the_op_the_line_and_the_inputs(builder):
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, ["N", 64])
    w = builder.initializer(ir.tensor(np.ones((3, 3), np.float32)), name="w")
    with pytest.raises(BuilderError) as caught:
        op.MatMul(x, w)
    text = str(caught.value)
    assert text.startswith("MatMul: ")
    assert "test_graph_builder.py" in text and "op.MatMul(x, w)" in text
    assert "input 0: x: FLOAT [N,64]" in text
    assert "input 1: w: FLOAT [3,3] (constant)" in text
    assert [n.op_type for n in builder.graph] == []  # the failed node is not kept


def test_argument_errors_name_the_op_and_the_line(builder):
    x = builder.input("x", ir.DataType.FLOAT, [3])
    with pytest.raises(TypeError) as caught:
        builder.op.Relu(x, bogus=1)
    assert "Relu" in str(caught.value) and "builder.op.Relu(x, bogus=1)" in str(caught.value)


def test_add_output_passes_inputs_and_repeated_values_through_identity(builder):
    x = builder.input("x", ir.DataType.FLOAT, [2])
    first = builder.add_output(x, "same")
    y = builder.op.Neg(x)
    builder.add_output(y, "y")
    again = builder.add_output(y, "y_again")
    assert first.producer().op_type == "Identity" and again.producer().op_type == "Identity"
    data = np.array([1, 2], np.float32)
    got = run_model(_model_proto(builder), data)
    np.testing.assert_array_equal(got[0], data)
    np.testing.assert_array_equal(got[2], -data)


def test_default_opset_when_the_graph_imports_none():
    builder = GraphBuilder(ir.Graph([], [], nodes=[], name="g"))
    x = builder.input("x", ir.DataType.FLOAT, [2])
    builder.op.Relu(x)
    assert builder.graph.opset_imports[""] == builder.op.version


def test_folding_respects_the_size_limit():
    builder = GraphBuilder(_graph(), fold_size_limit=100)
    op = builder.op
    small = builder.initializer(ir.tensor(np.ones((10,), np.float32)), name="small")
    large = builder.initializer(ir.tensor(np.ones((200,), np.float32)), name="large")
    folded = op.Mul(small, 2.0)
    kept = op.Mul(large, 2.0)
    assert folded.const_value.numpy().tolist() == [2.0] * 10 and folded.producer() is None
    assert kept.const_value is None and kept.producer().op_type == "Mul"
    assert [n.op_type for n in builder.graph] == ["Mul"]


def test_random_ops_are_never_folded(builder):
    noise = builder.op.RandomNormalLike(builder.initializer(ir.tensor(np.ones(3, np.float32))))
    assert noise.const_value is None and noise.producer().op_type == "RandomNormalLike"
