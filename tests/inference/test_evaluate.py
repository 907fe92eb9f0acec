"""Constant evaluation of one node: numpy fast paths equal onnx.reference; what must not
be folded is not."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.reference
import onnx_ir as ir
import pytest
from onnx import helper

from onnxscript.inference.evaluate import evaluate_node


def _const(array: np.ndarray, name: str) -> ir.Value:
    value = ir.Value(name=name, const_value=ir.tensor(array))
    value.dtype, value.shape = value.const_value.dtype, ir.Shape(array.shape)
    return value


def _reference(op: str, arrays: list[np.ndarray], **attrs: object) -> list[np.ndarray]:
    names = [f"i{k}" for k in range(len(arrays))]
    node = helper.make_node(op, names, ["y"], **attrs)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_empty_tensor_value_info(n) for n in names],
        [helper.make_empty_tensor_value_info("y")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    return list(onnx.reference.ReferenceEvaluator(model).run(None, dict(zip(names, arrays))))


I64 = np.int64
CASES = [
    ("Gather", [np.arange(12, dtype=I64).reshape(3, 4), np.array([-1, 0], I64)], {"axis": 0}),
    ("Concat", [np.array([1, 2], I64), np.array([3], I64)], {"axis": 0}),
    ("Unsqueeze", [np.array([1, 2], I64), np.array([0, -1], I64)], {}),
    ("Squeeze", [np.ones((1, 3, 1), np.float32), np.array([0], I64)], {}),
    ("Reshape", [np.arange(6, dtype=np.float32).reshape(2, 3), np.array([0, -1], I64)], {}),
    ("Cast", [np.array([1, 2], I64)], {"to": onnx.TensorProto.FLOAT}),
    ("Add", [np.array([1, 2], I64), np.array(3, I64)], {}),
    ("Sub", [np.array([1.5, 2], np.float32), np.array([3, 4], np.float32)], {}),
    ("Mul", [np.array([2, 3], I64), np.array([4, 5], I64)], {}),
    ("Div", [np.array([-7, 7, 9], I64), np.array([2, -2, 3], I64)], {}),  # truncates
    ("Div", [np.array([1.0, 3.0], np.float32), np.array([4.0, 2.0], np.float32)], {}),
    ("Equal", [np.array([1, 2], I64), np.array([1, 3], I64)], {}),
    ("Less", [np.array([1, 2], I64), np.array([2, 2], I64)], {}),
    ("Greater", [np.array([1, 2], I64), np.array([0, 2], I64)], {}),
    ("Range", [np.array(1, I64), np.array(10, I64), np.array(3, I64)], {}),
    ("Where", [np.array([True, False]), np.array([1, 2], I64), np.array([3, 4], I64)], {}),
    ("Identity", [np.array([1, 2], I64)], {}),
    ("Softmax", [np.array([[1.0, 2.0, 3.0]], np.float32)], {"axis": -1}),  # reference path
]


@pytest.mark.parametrize(("op", "arrays", "attrs"), CASES, ids=[c[0] for c in CASES])
def test_folded_values_equal_the_reference(op, arrays, attrs):
    inputs = [_const(a, f"i{k}") for k, a in enumerate(arrays)]
    node = ir.Node(
        "", op, inputs, [ir.convenience.convert_attribute(k, v) for k, v in attrs.items()]
    )
    (got,) = evaluate_node(node, 18)
    (expected,) = _reference(op, arrays, **attrs)
    assert got.numpy().dtype == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


def test_shape_and_size_need_only_a_static_shape():
    x = ir.Value(name="x", type=ir.TensorType(ir.DataType.FLOAT), shape=ir.Shape([2, 3, 4]))
    (shape,) = evaluate_node(ir.Node("", "Shape", [x], [ir.AttrInt64("start", 1)]), 18)
    (size,) = evaluate_node(ir.Node("", "Size", [x]), 18)
    assert shape.numpy().tolist() == [3, 4] and int(size.numpy()) == 24
    dynamic = ir.Value(name="d", type=ir.TensorType(ir.DataType.FLOAT), shape=ir.Shape(["N", 3]))
    assert evaluate_node(ir.Node("", "Shape", [dynamic]), 18) is None


def test_what_is_not_folded():
    small = _const(np.ones(4, np.float32), "small")
    graph_input = _const(np.ones(4, np.float32), "given")
    ir.Graph([graph_input], [], nodes=[])  # a graph input may be overridden: not constant
    unknown = ir.Value(name="u", type=ir.TensorType(ir.DataType.FLOAT), shape=ir.Shape([4]))
    big = _const(np.ones(100, np.float32), "big")
    assert evaluate_node(ir.Node("", "Neg", [unknown]), 18) is None
    assert evaluate_node(ir.Node("", "Neg", [graph_input]), 18) is None
    assert evaluate_node(ir.Node("", "RandomUniformLike", [small]), 18) is None
    assert evaluate_node(ir.Node("com.example", "Neg", [small]), 1) is None
    assert evaluate_node(ir.Node("", "Neg", [big]), 18, input_size_limit=10) is None
    assert (
        evaluate_node(
            ir.Node("", "Tile", [big, _const(np.array([10], I64), "r")]), 18, output_size_limit=500
        )
        is None
    )
    assert evaluate_node(ir.Node("", "Neg", [big]), 18) is not None


def _node(op: str, inputs: list[ir.Value], **attrs: object) -> ir.Node:
    attributes = [ir.convenience.convert_attribute(k, v) for k, v in attrs.items()]
    return ir.Node("", op, inputs, attributes)


def test_values_that_are_not_tensors_are_never_computed():
    """A sequence or an optional is no tensor: onnx.reference gives a list (or None), which
    as an array would be a tensor of another shape and type."""
    item = _const(np.array([1.0, 2.0], np.float32), "item")
    assert evaluate_node(_node("SequenceConstruct", [item]), 18) is None
    assert evaluate_node(_node("SequenceEmpty", [], dtype=11), 18) is None
    assert evaluate_node(_node("Optional", [item]), 18) is None
    strings = helper.make_sequence_type_proto(helper.make_tensor_type_proto(8, None))
    empty = ir.serde.deserialize_node(helper.make_node("Optional", [], ["o"], type=strings))
    assert evaluate_node(empty, 18) is None
    identity = _node("Identity", [item])
    identity.outputs[0].type = ir.SequenceType(ir.TensorType(ir.DataType.FLOAT))
    assert evaluate_node(identity, 18) is None  # an output known to be a sequence


def test_string_results_are_string_tensors():
    words = ir.Value(name="w", const_value=ir.StringTensor(np.array([b"a", b"bc"], dtype=object)))
    words.dtype, words.shape = ir.DataType.STRING, ir.Shape([2])
    for node in (_node("Identity", [words]), _node("Concat", [words, words], axis=0)):
        (result,) = evaluate_node(node, 18) or [None]
        assert result is not None and result.dtype == ir.DataType.STRING
        proto = ir.serde.serialize_tensor(result)  # an ir.Tensor of STRING cannot be
        assert onnx.numpy_helper.to_array(proto).tolist()[:2] == ["a", "bc"]


def test_a_kernel_that_does_not_take_its_inputs_defers_to_the_reference():
    """numpy's arange takes no one-element limit; onnx.reference (and onnxruntime) read
    it as the scalar it holds."""
    inputs = [
        _const(np.array(0, np.int64), "start"),
        _const(np.array([3], np.int64), "limit"),
        _const(np.array(1, np.int64), "delta"),
    ]
    (result,) = evaluate_node(_node("Range", inputs), 18) or [None]
    assert result is not None and result.numpy().tolist() == [0, 1, 2]
