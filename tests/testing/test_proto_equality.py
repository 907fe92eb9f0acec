"""``assert_onnx_proto_equal``: field-by-field equality of protos, as onnxscript 0.7.2
decides it (each case below was run on 0.7.2: which pairs are equal, which are not)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable

import numpy as np
import onnx
import onnx.helper as oh
import pytest

from onnxscript.testing import assert_onnx_proto_equal


def _model() -> onnx.ModelProto:
    graph = oh.make_graph(
        [oh.make_node("Add", ["x", "w"], ["y"], name="n1"), oh.make_node("Relu", ["y"], ["z"])],
        "g",
        [oh.make_tensor_value_info("x", 1, [2])],
        [oh.make_tensor_value_info("z", 1, [2])],
        initializer=[oh.make_tensor("w", 1, [2], [1.0, 2.0])],
        value_info=[oh.make_tensor_value_info("y", 1, [2]), oh.make_tensor_value_info("q", 1, [2])],
    )
    functions = [
        oh.make_function(
            "d", name, ["a"], ["b"], [oh.make_node("Neg", ["a"], ["b"])], [oh.make_opsetid("", 18)]
        )
        for name in ("F", "G")
    ]
    return oh.make_model(
        graph, opset_imports=[oh.make_opsetid("", 18), oh.make_opsetid("d", 1)], functions=functions
    )


def _edit(change: Callable[[onnx.ModelProto], object]) -> onnx.ModelProto:
    model = _model()
    change(model)
    return model


EQUAL = {
    "opset_import order": lambda m: m.opset_import.reverse(),
    "value_info order": lambda m: m.graph.value_info.reverse(),
    "functions order": lambda m: m.functions.reverse(),
    "domain set to its default": lambda m: setattr(m.graph.node[1], "domain", ""),
    "doc_string set to its default": lambda m: setattr(m.graph.node[1], "doc_string", ""),
}

NOT_EQUAL = {
    "node order": lambda m: m.graph.node.reverse(),
    "node name": lambda m: setattr(m.graph.node[0], "name", "other"),
    "ir_version": lambda m: setattr(m, "ir_version", 3),
    "producer_name": lambda m: setattr(m, "producer_name", "x"),
    "initializer value": lambda m: m.graph.initializer[0].float_data.__setitem__(0, 5.0),
    "initializer name": lambda m: setattr(m.graph.initializer[0], "name", "w2"),
    "extra initializer": lambda m: m.graph.initializer.append(oh.make_tensor("e", 1, [1], [1.0])),
    "missing value_info": lambda m: m.graph.value_info.pop(),
    "value_info type": lambda m: setattr(m.graph.value_info[0].type.tensor_type, "elem_type", 7),
    "extra attribute": lambda m: m.graph.node[0].attribute.append(oh.make_attribute("alpha", 0.0)),
    "domain ai.onnx for ''": lambda m: setattr(m.graph.node[0], "domain", "ai.onnx"),
    "doc_string": lambda m: setattr(m.graph.node[0], "doc_string", "doc"),
    "metadata_props": lambda m: m.graph.node[0].metadata_props.append(
        onnx.StringStringEntryProto(key="a", value="b")
    ),
    "symbolic dim": lambda m: setattr(
        m.graph.input[0].type.tensor_type.shape.dim[0], "dim_param", "N"
    ),
    "function body": lambda m: setattr(m.functions[0].node[0], "op_type", "Abs"),
    "function overload": lambda m: setattr(m.functions[0], "overload", "o"),
    "opset version": lambda m: setattr(m.opset_import[0], "version", 17),
    "duplicated opset": lambda m: m.opset_import.append(oh.make_opsetid("", 17)),
    "duplicated function key": lambda m: setattr(m.functions[1], "name", "F"),
}


def test_a_proto_equals_an_identical_one():
    assert_onnx_proto_equal(_model(), _model())
    assert_onnx_proto_equal(_model().graph, _model().graph)


@pytest.mark.parametrize("change", EQUAL.values(), ids=EQUAL.keys())
def test_order_of_keyed_collections_and_unset_defaults_are_disregarded(change):
    assert_onnx_proto_equal(_edit(change), _model())
    assert_onnx_proto_equal(_model(), _edit(change))


@pytest.mark.parametrize("change", NOT_EQUAL.values(), ids=NOT_EQUAL.keys())
def test_every_other_difference_is_reported(change):
    with pytest.raises(AssertionError, match="Protos not equal"):
        assert_onnx_proto_equal(_edit(change), _model())
    with pytest.raises(AssertionError, match="Protos not equal"):
        assert_onnx_proto_equal(_model(), _edit(change))


def test_the_message_names_the_field_and_both_values():
    with pytest.raises(AssertionError) as info:
        assert_onnx_proto_equal(_edit(NOT_EQUAL["node name"]), _model())
    assert "Field name not equal. field_actual: other, field_expected: n1" in str(info.value)
    with pytest.raises(AssertionError) as info:
        assert_onnx_proto_equal(_edit(NOT_EQUAL["missing value_info"]), _model())
    assert "keys_only_in_expected={'q'}" in str(info.value)


def test_messages_of_different_types_are_not_equal():
    with pytest.raises(AssertionError, match="Type not equal"):
        assert_onnx_proto_equal(_model().graph, _model())


def test_empty_submessages_equal_unset_ones_and_nan_equals_nan():
    assert_onnx_proto_equal(
        oh.make_tensor_value_info("x", 1, None), oh.make_tensor_value_info("x", 1, [])
    )
    assert_onnx_proto_equal(onnx.TypeProto(), oh.make_tensor_type_proto(0, None))
    nan = float("nan")
    assert_onnx_proto_equal(oh.make_attribute("f", nan), oh.make_attribute("f", nan))
    assert_onnx_proto_equal(
        oh.make_tensor("t", 1, [2], [1.0, nan]), oh.make_tensor("t", 1, [2], [1.0, nan])
    )
    with pytest.raises(AssertionError, match="Field f not equal"):
        assert_onnx_proto_equal(oh.make_attribute("f", 1.0), oh.make_attribute("f", 1.0000001))


def test_raw_data_and_typed_data_are_different_fields():
    typed = oh.make_tensor("t", 1, [2], [1.0, 2.0])
    raw = oh.make_tensor("t", 1, [2], np.array([1.0, 2.0], dtype=np.float32).tobytes(), raw=True)
    with pytest.raises(AssertionError, match="raw_data"):
        assert_onnx_proto_equal(typed, raw)


def test_duplicated_keys_must_match_in_number():
    one = oh.make_graph([], "g", [], [], value_info=[oh.make_tensor_value_info("a", 1, [1])])
    two = copy.deepcopy(one)
    two.value_info.append(oh.make_tensor_value_info("a", 1, [1]))
    assert_onnx_proto_equal(two, copy.deepcopy(two))
    with pytest.raises(AssertionError, match=r"duplicated b_keys: \['a'\]"):
        assert_onnx_proto_equal(one, two)


def test_ignore_initializer_value_proto_disregards_value_infos_of_each_graphs_initializers():
    def with_info(model: onnx.ModelProto, name: str, dtype: int = 1) -> onnx.ModelProto:
        model.graph.value_info.append(oh.make_tensor_value_info(name, dtype, [2]))
        return model

    extra = with_info(_model(), "w")
    with pytest.raises(AssertionError, match=re.escape("keys_only_in_actual={'w'}")):
        assert_onnx_proto_equal(extra, _model())
    assert_onnx_proto_equal(extra, _model(), ignore_initializer_value_proto=True)
    assert_onnx_proto_equal(_model(), extra, ignore_initializer_value_proto=True)
    assert_onnx_proto_equal(
        with_info(_model(), "w", 1),
        with_info(_model(), "w", 7),
        ignore_initializer_value_proto=True,
    )
    # a value info of a value that is no initializer (of its own graph) still counts
    other = with_info(_model(), "y2")
    with pytest.raises(AssertionError, match="value_info"):
        assert_onnx_proto_equal(other, _model(), ignore_initializer_value_proto=True)
    initialized = _edit(lambda m: m.graph.initializer.append(oh.make_tensor("e", 1, [1], [1.0])))
    with pytest.raises(AssertionError, match=re.escape("keys_only_in_actual={'e'}")):
        assert_onnx_proto_equal(
            with_info(_model(), "e"), initialized, ignore_initializer_value_proto=True
        )
    # initializers themselves are compared as always
    with pytest.raises(AssertionError, match="initializer"):
        assert_onnx_proto_equal(
            _edit(NOT_EQUAL["initializer value"]), _model(), ignore_initializer_value_proto=True
        )


def test_anything_but_a_proto_is_a_type_error():
    # 0.7.2 fails with AttributeError ('int' object has no attribute 'ListFields')
    with pytest.raises(TypeError, match="onnx proto"):
        assert_onnx_proto_equal(1, 1)
