"""``to_model_proto(initializers=...)``: top-level constants become named initializers,
tensors become input defaults or unread initializers, and bad entries are clear errors."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as nh
import pytest

from onnxscript import FLOAT, script
from onnxscript import opset18 as op
from onnxscript.errors import LoweringError
from onnxscript.testing import run_model


@script()
def dense(x: FLOAT[2, 3], b: FLOAT[2]) -> FLOAT[2, 2]:
    w = op.Constant(value=np.arange(6, dtype=np.float32).reshape(3, 2))
    one = op.Constant(value_float=1.0)
    y = op.Add(op.MatMul(x, w), b)
    if op.ReduceSum(y, keepdims=0) > 0.0:
        z = op.Mul(y, w[0])
    else:
        z = op.Sub(op.Neg(y), one)
    return z


def _names(model: onnx.ModelProto) -> list[str]:
    return [t.name for t in model.graph.initializer]


def test_variables_and_tensors_become_initializers_in_order():
    model = dense.to_model_proto(
        initializers={
            "fc.weight": "w",
            "b": np.ones(2, np.float32),  # the default value of input b
            "spare": nh.from_array(np.zeros(3, np.int64)),
        }
    )
    onnx.checker.check_model(model, full_check=True)
    assert _names(model) == ["fc.weight", "b", "spare"]
    outputs = [o for n in model.graph.node for o in n.output]
    assert "w" not in outputs and "one" in outputs  # the value_float constant stays a node
    np.testing.assert_array_equal(
        nh.to_array(model.graph.initializer[0]), np.arange(6, dtype=np.float32).reshape(3, 2)
    )
    # Every read of w, in the If branches too, reads the initializer.
    read = [i for n in model.graph.node for i in n.input]
    for n in model.graph.node:
        for attr in n.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                read += [i for m in attr.g.node for i in m.input]
    assert "w" not in read and read.count("fc.weight") == 2
    x = np.ones((2, 3), np.float32)
    expected = (x @ np.arange(6, dtype=np.float32).reshape(3, 2) + 1) * np.array([0, 1], np.float32)
    np.testing.assert_allclose(run_model(model, [x, np.ones(2, np.float32)])[0], expected)


def test_without_the_option_constants_stay_nodes():
    model = dense.to_model_proto()
    assert _names(model) == []
    assert "w" in [o for n in model.graph.node for o in n.output]


@pytest.mark.filterwarnings("ignore::onnxscript.errors.ModelCheckWarning")  # Identity(sparse)
def test_sparse_constant_becomes_a_sparse_initializer():
    @script()
    def f(x: FLOAT[4]) -> FLOAT[4]:
        s = op.Constant(
            sparse_value=oh.make_sparse_tensor(
                nh.from_array(np.array([5.0], np.float32)), nh.from_array(np.array([2])), [4]
            )
        )
        return op.Add(x, op.Identity(s))

    model = f.to_model_proto(initializers={"sparse": "s"})
    assert [t.values.name for t in model.graph.sparse_initializer] == ["sparse"]
    assert not [n for n in model.graph.node if n.op_type == "Constant"]


def test_the_same_name_keeps_the_variable_name():
    model = dense.to_model_proto(initializers={"w": "w"})
    assert _names(model) == ["w"]


BAD_ENTRIES = [
    ({"a": "y"}, LoweringError, r"initializers\['a'\]: 'y' is computed by Add"),
    ({"a": "x"}, LoweringError, r"initializers\['a'\]: 'x' is an input of dense"),
    ({"a": "ww"}, LoweringError, r"dense has no variable 'ww' \(did you mean 'w'\?\)"),
    ({"a": "z_1"}, LoweringError, r"'z_1' is assigned inside a nested graph"),
    ({"a": "one"}, LoweringError, r"computed by op\.Constant\(value_float=\.\.\.\)"),
    ({"y": "w"}, LoweringError, r"initializers\['y'\]: dense already has a value named 'y'"),
    ({"y": np.ones(1)}, LoweringError, r"a tensor initializer is either the default"),
    ({"a": "w", "b2": "w"}, LoweringError, r"initializers\['b2'\]: 'w' is already used by"),
    ({"a": 3}, TypeError, r"initializers\['a'\]: expected the name of a variable"),
    ({"": "w"}, TypeError, r"is not a non-empty string"),
    ([("a", "w")], TypeError, r"initializers must be a dict"),
]


@pytest.mark.parametrize(("entries", "error", "message"), BAD_ENTRIES)
def test_bad_entries_are_clear_errors(entries, error, message):
    with pytest.raises(error, match=message):
        dense.to_model_proto(initializers=entries)


def test_renamed_variables_free_their_names():
    """A tensor initializer may take the name a variable had before it was renamed."""
    model = dense.to_model_proto(initializers={"fc.weight": "w", "w": np.zeros(1, np.float32)})
    assert _names(model) == ["fc.weight", "w"]
    onnx.checker.check_model(model, full_check=True)


def test_option_can_be_a_script_default():
    @script(initializers={"weight": "w"})
    def f(x: FLOAT[2]) -> FLOAT[2]:
        w = op.Constant(value=np.array([1.0, 2.0], np.float32))
        return op.Mul(x, w)

    assert _names(f.to_model_proto()) == ["weight"]
    np.testing.assert_allclose(f(np.ones(2, np.float32)), [1.0, 2.0])  # eager: the constant


def test_type_protos_are_used_exactly():
    """input_types/output_types given as TypeProto keep what IR types cannot hold."""

    @script()
    def f(x, m):
        return op.Identity(x)

    x_type = oh.make_tensor_type_proto(onnx.TensorProto.FLOAT, [2], shape_denotation=["BATCH"])
    x_type.denotation = "TENSOR"
    m_type = oh.make_map_type_proto(
        onnx.TensorProto.INT64, oh.make_tensor_type_proto(onnx.TensorProto.FLOAT, [])
    )
    model = f.to_model_proto(input_types=[x_type, m_type], output_types=[x_type])
    assert model.graph.input[0].type == x_type
    assert model.graph.input[1].type == m_type
    assert model.graph.output[0].type == x_type
