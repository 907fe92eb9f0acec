"""``onnxscript.utils.utils`` and ``backend.onnx_export``'s node helpers
(``onnxscript.proto_nodes``): each result below is what onnxscript 0.7.2 returns."""

from __future__ import annotations

import onnx
import onnx.helper as oh
import pytest

from onnxscript.backend import onnx_export
from onnxscript.utils import utils


def test_has_input_is_false_past_the_end_and_for_empty_names():
    node = oh.make_node("Add", ["a", ""], ["c"])
    assert [onnx_export.has_input(node, i) for i in range(3)] == [True, False, False]


@pytest.mark.parametrize("module", [utils, onnx_export])
def test_is_onnx_op_accepts_both_spellings_of_the_standard_domain(module):
    for domain, expected in (("", True), ("ai.onnx", True), ("com.x", False)):
        node = oh.make_node("Add", ["a"], ["b"], domain=domain)
        assert module.is_onnx_op(node, "Add") is expected
        assert module.is_onnx_op(node, "Sub") is False


def test_domains():
    assert [utils.normalize_domain(d) for d in ["", "ai.onnx", "ai.onnx.ml", "com.x"]] == [
        "",
        "",
        "ai.onnx.ml",
        "com.x",
    ]
    assert [utils.is_onnx_domain(d) for d in ["", "ai.onnx", "ai.onnx.ml"]] == [True, True, False]


def test_control_flow_ops_are_nodes_holding_graphs():
    graph = oh.make_graph([], "g", [], [])
    assert utils.is_control_flow_op(
        oh.make_node("If", ["c"], ["o"], then_branch=graph, else_branch=graph)
    )
    assert utils.is_control_flow_op(oh.make_node("Custom", ["c"], ["o"], bodies=[graph]))
    # 0.7.2 looks at the attributes, not at the op type
    assert not utils.is_control_flow_op(oh.make_node("If", ["c"], ["o"]))
    assert not utils.is_control_flow_op(oh.make_node("Add", ["a"], ["b"]))


@pytest.mark.parametrize(
    ("attributes", "dims", "dtype", "values"),
    [
        ({"value_float": 1.5}, [], onnx.TensorProto.FLOAT, [1.5]),
        ({"value_floats": [1.5, 2.0]}, [2], onnx.TensorProto.FLOAT, [1.5, 2.0]),
        ({"value_int": 3}, [], onnx.TensorProto.INT64, [3]),
        ({"value_ints": [1]}, [1], onnx.TensorProto.INT64, [1]),
        ({"value_string": "s"}, [], onnx.TensorProto.STRING, ["s"]),
        ({"value_strings": ["a", "b"]}, [2], onnx.TensorProto.STRING, ["a", "b"]),
    ],
)
def test_constant_node_value_from_scalar_and_list_attributes(attributes, dims, dtype, values):
    node = oh.make_node("Constant", [], ["c"], **attributes)
    tensor = utils.get_constant_node_value(node, "zz")
    assert tensor is not None
    assert (tensor.name, list(tensor.dims), tensor.data_type) == ("zz", dims, dtype)
    assert onnx.numpy_helper.to_array(tensor).ravel().tolist() == values


def test_constant_node_value_of_a_tensor_is_the_tensor_and_other_nodes_have_none():
    value = oh.make_tensor("v", onnx.TensorProto.FLOAT, [], [1.0])
    assert (
        utils.get_constant_node_value(oh.make_node("Constant", [], ["c"], value=value), "zz")
        == value
    )
    custom = oh.make_node("Constant", [], ["c"], value_float=1.0, domain="com.x")
    assert utils.get_constant_node_value(custom, "zz") is None
    assert utils.get_constant_node_value(oh.make_node("Add", ["a", "b"], ["c"]), "c") is None
    sparse = oh.make_sparse_tensor(
        oh.make_tensor("v", 1, [1], [1.0]), oh.make_tensor("i", 7, [1], [0]), [3]
    )
    assert (
        utils.get_constant_node_value(oh.make_node("Constant", [], ["c"], sparse_value=sparse), "c")
        is None
    )


def test_initializer_type_and_attribute_values():
    init = oh.make_tensor("w", onnx.TensorProto.FLOAT, [2, 3], [0.0] * 6)
    assert utils.get_initializer_type(init) == oh.make_tensor_type_proto(1, [2, 3])
    tensor = oh.make_tensor("v", 1, [1], [1.0])
    node = oh.make_node("Foo", [], ["c"], alpha=2.0, ints=[1, 2], s="x", strs=["a", "b"], t=tensor)
    get = utils.get_node_attr_value
    assert [get(node, a, "D") for a in ["alpha", "ints", "s", "strs", "beta"]] == [
        2.0,
        [1, 2],
        b"x",
        [b"a", b"b"],
        "D",
    ]
    assert get(node, "t", None) == tensor
