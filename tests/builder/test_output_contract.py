"""The builder's output contract, as onnxscript 0.7.2's ``GraphBuilder(...).op`` behaves.

The expected counts and names were measured on 0.7.2 (black-box, ``GraphBuilder(graph).op``
calls in its wheel). Where 0.7.2 builds a node onnxruntime rejects (TopK or Split with one
output, more outputs than the op has), ours differs on purpose; those cases say so.
"""

from __future__ import annotations

import math

import numpy as np
import onnx
import onnx_ir as ir
import pytest

from onnxscript._internal.builder import GraphBuilder
from onnxscript.builder import BuilderError
from onnxscript.rewriter import pattern
from tests.helpers import run_model


def _builder(version: int = 23) -> GraphBuilder:
    return GraphBuilder(ir.Graph([], [], nodes=[], opset_imports={"": version}, name="g"))


def _checked(builder: GraphBuilder) -> onnx.ModelProto:
    proto = ir.serde.serialize_model(ir.Model(builder.graph, ir_version=10))
    onnx.checker.check_model(proto, full_check=True)
    return proto


def _one_output(node: ir.Node) -> bool:
    return len(node.outputs) == 1


@pytest.mark.parametrize(
    ("op_type", "make"),
    [
        ("LayerNormalization", lambda op, x, w: op.LayerNormalization(x, w)),
        ("Dropout", lambda op, x, w: op.Dropout(x)),
        ("MaxPool", lambda op, x, w: op.MaxPool(op.Unsqueeze(x, [0]), kernel_shape=[1])),
        (
            "BatchNormalization",
            lambda op, x, w: op.BatchNormalization(
                op.Transpose(op.Unsqueeze(x, [0]), perm=[0, 2, 1]), w, w, w, w
            ),
        ),
        ("Unique", lambda op, x, w: op.Unique(x)),
        ("Attention", lambda op, x, w: op.Attention(*[op.Unsqueeze(x, [0, 1])] * 3)),
        ("Custom", lambda op, x, w: op.Custom(x, _domain="my.domain")),
    ],
)
def test_a_call_without_outputs_records_one_output(op_type, make):
    builder = _builder()
    x = builder.input("x", ir.DataType.FLOAT, [2, 3])
    w = builder.input("w", ir.DataType.FLOAT, [3])
    result = make(builder.op, x, w)
    assert isinstance(result, ir.Value)
    node = result.producer()
    assert node is not None and node.op_type == op_type and _one_output(node)


def test_recurrent_ops_record_one_output():
    builder = _builder()
    x = builder.input("x", ir.DataType.FLOAT, [5, 2, 3])
    w = builder.input("w", ir.DataType.FLOAT, [1, 12, 3])
    r = builder.input("r", ir.DataType.FLOAT, [1, 12, 3])
    gru_w = builder.input("gru_w", ir.DataType.FLOAT, [1, 9, 3])
    gru_r = builder.input("gru_r", ir.DataType.FLOAT, [1, 9, 3])
    lstm = builder.op.LSTM(x, w, r, hidden_size=3)
    gru = builder.op.GRU(x, gru_w, gru_r, hidden_size=3)
    assert isinstance(lstm, ir.Value) and isinstance(gru, ir.Value)
    builder.add_output(lstm, "lstm")
    builder.add_output(gru, "gru")
    data = [
        np.random.default_rng(i).standard_normal(s).astype(np.float32)
        for i, s in enumerate([(5, 2, 3), (1, 12, 3), (1, 12, 3), (1, 9, 3), (1, 9, 3)])
    ]
    lstm_y, gru_y = run_model(_checked(builder), *data)
    assert lstm_y.shape == (5, 1, 2, 3) and gru_y.shape == (5, 1, 2, 3)


def test_layer_normalization_with_one_output_runs():
    builder = _builder()
    x = builder.input("x", ir.DataType.FLOAT, [2, 3])
    w = builder.input("w", ir.DataType.FLOAT, [3])
    builder.add_output(builder.op.LayerNormalization(x, w), "y")
    data = np.arange(6, dtype=np.float32).reshape(2, 3)
    (got,) = run_model(_checked(builder), data, np.ones(3, np.float32))
    mean = data.mean(-1, keepdims=True)
    expected = (data - mean) / np.sqrt(data.var(-1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_ops_that_need_several_outputs_get_them():
    """0.7.2 gives TopK and Split(num_outputs=3) one output, a node onnxruntime rejects;
    ours gives every required output."""
    builder = _builder()
    x = builder.input("x", ir.DataType.FLOAT, [6, 4])
    values, indices = builder.op.TopK(x, [2])
    parts = builder.op.Split(x, num_outputs=3)
    assert isinstance(parts, tuple) and len(parts) == 3
    for value, name in [(values, "values"), (indices, "indices"), *zip(parts, "abc")]:
        builder.add_output(value, name)
    data = np.random.default_rng(0).standard_normal((6, 4)).astype(np.float32)
    got = run_model(_checked(builder), data)
    np.testing.assert_allclose(got[0], -np.sort(-data, axis=1)[:, :2])
    assert [g.shape for g in got[2:]] == [(2, 4)] * 3


def test_outputs_count_and_names():
    builder = _builder()
    x = builder.input("x", ir.DataType.FLOAT, [2, 3])
    w = builder.input("w", ir.DataType.FLOAT, [3])
    op = builder.op
    three = op.LayerNormalization(x, w, _outputs=3)
    assert isinstance(three, tuple) and len(three) == 3
    one = op.LayerNormalization(x, w, _outputs=1)
    assert isinstance(one, ir.Value)
    named = op.LayerNormalization(x, w, _outputs=["a", "b"])
    assert [v.name for v in named] == ["v_a", "v_b"]
    with builder.module("blk"):
        assert op.Relu(x, _outputs=["deep"]).name == "v_blk.deep"
    with pytest.raises(BuilderError, match="at most 1"):
        op.Relu(x, _outputs=3)  # 0.7.2 builds a Relu with 3 outputs


def test_trailing_omitted_inputs_are_kept():
    builder = _builder()
    q = builder.input("q", ir.DataType.FLOAT, [1, 2, 3, 4])
    out = builder.op.Attention(q, q, q, None, None, None)
    node = out.producer()
    assert len(node.inputs) == 6 and node.inputs[3:] == (None, None, None)
    assert len(builder.op.Attention(q, q, q).producer().inputs) == 3


def test_names_as_0_7_writes_them():
    builder = _builder()
    x = builder.input("x", ir.DataType.FLOAT, [2, 3])
    op = builder.op
    builder.push_module("layers.0")
    builder.push_module("q_proj")
    y = op.MatMul(x, op.Transpose(x))
    builder.pop_module()
    builder.pop_module()
    z = op.Relu(y)
    assert y.name.startswith("v_layers.0.q_proj.MatMul_")
    assert y.producer().name.startswith("layers.0/q_proj/MatMul_node_")
    assert z.name.startswith("v_Relu_") and z.producer().name.startswith("Relu_node_")


def test_adapt_outputs():
    builder = _builder()
    counted = builder._adapt_outputs(2, "Foo")
    assert len(counted) == 2 and all(v.name.startswith("v_Foo_") for v in counted)
    assert [v.name for v in builder._adapt_outputs(["p", "q"], "Foo")] == ["v_p", "v_q"]
    given = ir.Value(name="given")
    assert builder._adapt_outputs([given], "Foo") == [given]


def test_a_replacement_names_its_op_by_a_string():
    def pat(op, x, y):
        return op.Add(x, y)

    def repl(op, x, y):
        return op.op("BiasGelu", x, y, _domain="com.microsoft")

    model = ir.serde.deserialize_model(
        onnx.parser.parse_model(
            '<ir_version: 8, opset_import: ["" : 18]> g (float[2] a, float[2] b) => '
            "(float[2] c) { c = Add(a, b) }"
        )
    )
    assert pattern.RewriteRule(pat, repl).apply_to_model(model) == 1
    (node,) = model.graph
    assert (node.domain, node.op_type, [v.name for v in node.inputs]) == (
        "com.microsoft",
        "BiasGelu",
        ["a", "b"],
    )
    assert model.opset_imports["com.microsoft"] == 1
    data = np.array([-1.0, 2.0], np.float32)
    proto = ir.serde.serialize_model(model)
    (got,) = run_model(proto, data, data)
    np.testing.assert_allclose(
        got, 0.5 * (2 * data) * (1 + np.vectorize(math.erf)(2 * data / np.sqrt(2))), rtol=1e-5
    )


def test_the_evaluator_path_keeps_every_declared_output():
    """``with builder:`` is how traced functions (and torch.onnx's recorder) call ops:
    every output the spec declares, as eager calls give."""
    from onnxscript import opset18

    builder = _builder(18)
    x = builder.input("x", ir.DataType.FLOAT, [2, 3])
    with builder:
        result = opset18.Dropout(x)
    assert isinstance(result, tuple) and len(result) == 2
