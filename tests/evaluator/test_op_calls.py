"""Eager op calls: ``op.X(...)`` on arrays, Python numbers, lists and Tensors."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper
import pytest

from onnxscript import FLOAT, INT64, Opset, graph
from onnxscript import opset18 as op
from onnxscript.evaluator import (
    EagerEvaluationError,
    Tensor,
    TensorSequence,
    call_op,
)
from onnxscript.opsets import get_opset

X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]], dtype=np.float32)


def test_inputs_by_position_or_by_name_give_the_same_result():
    a = op.Sub(X, np.float32(1))
    b = op.Sub(B=np.float32(1), A=X)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(a, X - 1)


def test_python_numbers_as_inputs():
    three = op.Add(A=1, B=2)
    assert isinstance(three, np.ndarray)
    assert three.dtype == np.int64 and three == 3
    half = op.Div(1.0, 2.0)
    assert half.dtype == np.float32 and half == 0.5


def test_python_number_takes_the_element_type_of_the_other_input():
    assert op.Add(X, 1).dtype == np.float32
    ints = np.array([1, 2, 3], dtype=np.int32)
    result = op.Mul(2, ints)
    assert result.dtype == np.int32
    np.testing.assert_array_equal(result, [2, 4, 6])
    halves = np.array([1.0, 2.0], dtype=np.float16)
    assert op.Add(halves, 0.5).dtype == np.float16


def test_python_number_takes_the_type_the_schema_fixes():
    # Reshape's `shape` is tensor(int64) in the schema; a list literal becomes INT64.
    np.testing.assert_array_equal(op.Reshape(X, [3, -1]), X.reshape(3, 2))
    np.testing.assert_array_equal(op.Expand(np.float32(2), [2, 2]), np.full((2, 2), 2, np.float32))


def test_float_literal_with_integer_tensor_is_refused():
    ints = np.array([1, 2], dtype=np.int64)
    with pytest.raises(TypeError, match=r"0\.5 is combined with an INT64 tensor"):
        op.Add(ints, 0.5)
    # A float with an integral value is fine, as in scripts.
    np.testing.assert_array_equal(op.Add(ints, 2.0), [3, 4])


def test_numpy_scalars_keep_their_element_type():
    result = op.Add(np.float64(1.5), np.float64(2.0))
    assert result.dtype == np.float64 and result == 3.5


def test_omitted_optional_inputs_by_none_and_by_keyword():
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    by_name = op.Resize(x, sizes=[1, 1, 4, 4], mode="nearest")
    by_none = op.Resize(x, None, None, np.array([1, 1, 4, 4]), mode="nearest")
    expected = x.repeat(2, axis=2).repeat(2, axis=3)
    np.testing.assert_array_equal(by_name, expected)
    np.testing.assert_array_equal(by_none, expected)
    np.testing.assert_array_equal(op.Clip(X, None, np.float32(0)), np.minimum(X, 0))
    np.testing.assert_array_equal(op.Clip(X, max=np.float32(0)), np.minimum(X, 0))


def test_attributes_by_keyword_and_defaults():
    np.testing.assert_array_equal(op.Transpose(X, perm=[1, 0]), X.T)
    np.testing.assert_array_equal(op.Transpose(X), X.T)
    np.testing.assert_allclose(op.LeakyRelu(X, alpha=0.5), np.where(X > 0, X, 0.5 * X))
    np.testing.assert_allclose(op.LeakyRelu(X), np.where(X > 0, X, 0.01 * X), rtol=1e-6)
    assert op.Cast(X, to=INT64.dtype).dtype == np.int64
    # An attribute given as None is left out (the default applies).
    np.testing.assert_allclose(op.LeakyRelu(X, alpha=None), op.LeakyRelu(X))


def test_constant_sugar():
    assert op.Constant(value=17).dtype == np.int64
    assert op.Constant(value=17.0).dtype == np.float32
    np.testing.assert_array_equal(op.Constant(value=[13, 17]), np.array([13, 17]))
    np.testing.assert_array_equal(op.Constant(value_floats=[]), np.zeros((0,), np.float32))
    np.testing.assert_array_equal(op.Constant(value_ints=[1, 2]), [1, 2])
    tensor = onnx.helper.make_tensor("t", onnx.TensorProto.DOUBLE, [2], [1.0, 2.0])
    assert op.Constant(value=tensor).dtype == np.float64


def test_tensor_attributes_from_onnx_ir_tensors():
    """What the builder and torch.onnx's recorder take as a tensor attribute works eagerly."""
    import onnx_ir as ir

    matrix = np.arange(6, dtype=np.float16).reshape(2, 3)
    got = op.Constant(value=ir.tensor(matrix))
    assert got.dtype == np.float16
    np.testing.assert_array_equal(got, matrix)


def test_multi_output_ops_give_every_required_output():
    values, indices = op.TopK(np.array([3.0, 1.0, 5.0], np.float32), np.array([2]))
    np.testing.assert_array_equal(values, [5.0, 3.0])
    np.testing.assert_array_equal(indices, [2, 0])


def test_optional_outputs_are_given_unless_fewer_are_asked_for():
    # Outside a script a call gives every declared output (as onnxscript 0.7 and
    # torch.onnx's recorder do); tests/evaluator/test_output_counts.py has the rule.
    x = np.random.default_rng(0).standard_normal((1, 1, 4, 4)).astype(np.float32)
    pooled, where = op.MaxPool(x, kernel_shape=[2, 2])
    assert pooled.shape == (1, 1, 3, 3) and where.dtype == np.int64
    single = call_op(op.MaxPool, (x,), {"kernel_shape": [2, 2]}, n_outputs=1)
    np.testing.assert_array_equal(pooled, single)
    scale = np.ones(4, np.float32)
    assert len(op.LayerNormalization(x, scale)) == 3


def test_too_many_outputs_requested_is_an_error():
    with pytest.raises(TypeError, match="at most 2 output"):
        call_op(op.TopK, (X, np.array([1])), {}, n_outputs=3)


def test_variadic_outputs_from_num_outputs_or_split_sizes():
    x = np.arange(6, dtype=np.float32)
    parts = op.Split(x, num_outputs=3)
    assert len(parts) == 3
    np.testing.assert_array_equal(parts[1], [2, 3])
    sized = op.Split(x, np.array([1, 5]))
    assert [p.shape for p in sized] == [(1,), (5,)]
    with pytest.raises(TypeError, match="variable number of outputs"):
        get_opset("opset13").Split(x)  # type: ignore[union-attr]
    equal = call_op(get_opset("opset13").Split, (x,), {}, n_outputs=2)  # type: ignore[union-attr]
    assert [p.shape for p in equal] == [(3,), (3,)]


def test_sequences_are_lists_of_arrays():
    a = np.ones((2,), np.float32)
    b = np.zeros((3,), np.float32)
    joined = op.ConcatFromSequence([a, b], axis=0)
    np.testing.assert_array_equal(joined, [1, 1, 0, 0, 0])
    seq = op.SequenceConstruct(a, b)
    assert isinstance(seq, TensorSequence) and len(seq) == 2
    np.testing.assert_array_equal(op.SequenceAt(seq, 1), b)
    empty = op.SequenceEmpty(dtype=FLOAT.dtype)
    assert isinstance(empty, TensorSequence) and empty.elem_type == FLOAT.dtype and not empty
    grown = op.SequenceInsert(empty, a)  # an empty sequence keeps its element type
    assert len(grown) == 1
    assert op.SequenceLength(grown) == 1
    # A list is a sequence where the schema takes one (Identity takes tensors or sequences).
    same = op.Identity([a, b])
    assert isinstance(same, list) and len(same) == 2


def test_tensor_inputs_give_tensor_outputs():
    t = Tensor(X)
    result = op.Relu(t)
    assert isinstance(result, Tensor)
    np.testing.assert_array_equal(result.numpy(), np.maximum(X, 0))
    mixed = op.Add(t, X)
    assert isinstance(mixed, Tensor)
    values, indices = op.TopK(t, np.array([1]))
    assert isinstance(values, Tensor) and isinstance(indices, Tensor)
    seq = op.SequenceConstruct(t, t)
    assert all(isinstance(s, Tensor) for s in seq)


def test_graph_attribute_as_graph_proto():
    then_out = onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])
    then_graph = onnx.helper.make_graph(
        [onnx.helper.make_node("Constant", [], ["y"], value_floats=[1.0])], "then", [], [then_out]
    )
    else_graph = onnx.helper.make_graph(
        [onnx.helper.make_node("Constant", [], ["y"], value_floats=[2.0])], "else", [], [then_out]
    )
    chosen = op.If(np.array(False), then_branch=then_graph, else_branch=else_graph)
    np.testing.assert_array_equal(chosen, [2.0])


def test_graph_attribute_as_a_graph_function():
    @graph()
    def body(total: FLOAT, row: FLOAT[3]):
        new_total = total + op.ReduceSum(row, keepdims=0)
        return new_total, new_total

    final, partial = op.Scan(np.float32(0), X, body=body, num_scan_inputs=1)
    np.testing.assert_allclose(final, X.sum())
    np.testing.assert_allclose(partial, np.cumsum(X.sum(axis=1)))


def test_plain_function_as_graph_attribute_needs_the_graph_decorator():
    def body(total, row):
        return total, total

    with pytest.raises(TypeError, match=r"@graph\(\)"):
        op.Scan(np.float32(0), X, body=body, num_scan_inputs=1)


def test_ops_of_opsets_newer_than_onnxruntime_supports():
    newest = onnx.defs.onnx_opset_version()
    opset = get_opset(f"opset{newest}")
    assert opset is not None
    np.testing.assert_array_equal(opset.Add(X, X), X + X)


def test_custom_domain_op_failure_names_the_op():
    custom = Opset("my.domain", 1)
    with pytest.raises(EagerEvaluationError, match="MyOp"):
        custom.MyOp(X)


def test_binding_errors_are_type_errors_with_the_op_signature():
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'axis'.*inputs A, B"):
        op.Add(X, X, axis=1)
    with pytest.raises(TypeError, match="missing required input 'B'"):
        op.Add(X)
    with pytest.raises(TypeError, match="missing required attribute 'to'"):
        op.Cast(X)
    with pytest.raises(TypeError, match=r"attribute 'perm'.*list\[int\]"):
        op.Transpose(X, perm="no")
