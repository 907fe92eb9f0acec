"""Constant evaluation of one node: numpy fast paths equal onnx.reference; what must not
be folded is not."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.reference
import onnx_ir as ir
import pytest
from onnx import helper

from onnxscript import optimizer
from onnxscript.inference.evaluate import evaluate_node
from tests.helpers import assert_transform_keeps_results


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


# -- integers fold as onnxruntime computes them ----------------------------------------------

_I64_MAX = int(np.iinfo(np.int64).max)
_U64_MAX = int(np.iinfo(np.uint64).max)
_BIG = 2**53 + 1  # no double holds it

INTEGER_CASES = {
    # op, operands (dtype, values), attributes, whether it folds
    "div_int64_max_by_one": ("Div", [(I64, [_I64_MAX, -_I64_MAX]), (I64, [1, 1])], {}, True),
    "div_uint64_by_one": ("Div", [(np.uint64, [_U64_MAX, _U64_MAX - 1]), (np.uint64, 1)], {}, True),
    "div_truncates": ("Div", [(I64, [-7, 7, -9, _BIG]), (I64, [2, -2, 3, 2])], {}, True),
    "div_int8_lowest": ("Div", [(np.int8, [-128, -127]), (np.int8, [3, -1])], {}, True),
    "mod_divisor_sign": ("Mod", [(I64, [-7, 7, _BIG, -_BIG]), (I64, [2, -2, 3, 5])], {}, True),
    "fmod_dividend_sign": (
        "Mod",
        [(np.int32, [-7, 7, 2**31 - 1]), (np.int32, [2, -2, -3])],
        {"fmod": 1},
        True,
    ),
    "mul_wraps": ("Mul", [(I64, [_I64_MAX, 2**40]), (I64, [3, 2**40])], {}, True),
    "add_wraps": ("Add", [(np.int32, [2**31 - 1]), (np.int32, [1])], {}, True),
    "sub_exact": ("Sub", [(I64, [_BIG, -_I64_MAX]), (I64, [1, 1])], {}, True),
    "neg_abs_lowest": ("Neg", [(np.int32, [-(2**31), 5])], {}, True),
    "pow_exact": ("Pow", [(I64, [3, -2]), (I64, [20, 7])], {}, True),
    # onnxruntime computes these through double: what double loses is left to it
    "pow_past_double": ("Pow", [(I64, [3]), (I64, [39])], {}, False),
    "pow_overflow": ("Pow", [(np.int32, [2**31 - 1]), (np.int32, [2])], {}, False),
    "reduce_sum_past_double": ("ReduceSum", [(I64, [_BIG, 2])], {"keepdims": 0}, False),
    "reduce_l1_overflow": ("ReduceL1", [(np.int32, [2**31 - 1, 2])], {"keepdims": 0}, False),
    "reduce_sum_near_2_53": ("ReduceSum", [(I64, [_BIG - 10, -7, 3])], {"keepdims": 0}, False),
    "reduce_sum_small": ("ReduceSum", [(I64, [2**40, -7, 3])], {"keepdims": 0}, True),
    "reduce_sum_square": ("ReduceSumSquare", [(np.int32, [3, -4])], {"keepdims": 0}, True),
    "matmul_small": ("MatMul", [(I64, [[1, -2]]), (I64, [[3], [4]])], {}, True),
}


def _integer_model(op: str, operands: list[tuple[type, object]], attrs: dict) -> onnx.ModelProto:
    names = [f"c{k}" for k in range(len(operands))]
    nodes = [
        helper.make_node(
            "Constant", [], [n], value=onnx.numpy_helper.from_array(np.array(v, dtype=t))
        )
        for n, (t, v) in zip(names, operands)
    ]
    nodes.append(helper.make_node(op, names, ["y"], **attrs))
    graph = helper.make_graph(nodes, "g", [], [helper.make_empty_tensor_value_info("y")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 8
    model = onnx.shape_inference.infer_shapes(model, strict_mode=True)
    onnx.checker.check_model(model, full_check=True)
    return model


@pytest.mark.parametrize("case", INTEGER_CASES)
def test_integers_fold_as_onnxruntime_computes_them(case: str) -> None:
    """Integer Div and Mod are exact (a quotient through double loses digits past 2**53:
    int64 max / 1 became int64 min), Add, Sub and Mul wrap around as onnxruntime's do; a
    sum or product onnxruntime computes through double (its reductions, Pow) is folded
    only where double is exact and the type holds it, and left to the runtime elsewhere."""
    op, operands, attrs, folds = INTEGER_CASES[case]
    before = _integer_model(op, operands, attrs)
    after = optimizer.fold_constants(before)
    assert (op not in [n.op_type for n in after.graph.node]) == folds
    assert_transform_keeps_results(before, after, {})


def test_integer_division_the_runtime_fails_on_is_not_folded() -> None:
    """A zero divisor (onnxruntime reports an error) and the lowest int64 divided by -1
    (onnxruntime's process dies of SIGFPE) are left as they are: onnx.reference would fold
    them to made-up numbers."""
    for op, operands in (
        ("Div", [(I64, [4, 5]), (I64, [2, 0])]),
        ("Mod", [(np.uint8, [4]), (np.uint8, [0])]),
        ("Mod", [(I64, [-_I64_MAX - 1]), (I64, [-1])]),
        ("Div", [(np.int32, [-(2**31)]), (np.int32, [-1])]),
    ):
        model = _integer_model(op, operands, {})
        folded = optimizer.fold_constants(model)
        onnx.checker.check_model(folded, full_check=True)
        assert [n.op_type for n in folded.graph.node].count(op) == 1
