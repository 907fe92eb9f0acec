"""``onnxscript.utils.replace``: calls of custom ops replaced by the bodies of given
functions (as onnxscript 0.7.2 does: the given functions are inlined, then gone)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import onnx_ir as ir
import pytest

from onnxscript.testing import run_model
from onnxscript.utils.replace import replace_functions, replace_functions_inplace

OPSETS = [oh.make_opsetid("", 18), oh.make_opsetid("custom", 1)]
MY_RELU = oh.make_function(
    "custom",
    "MyRelu",
    ["x"],
    ["y"],
    [oh.make_node("Relu", ["x"], ["t"]), oh.make_node("Neg", ["t"], ["y"])],
    [oh.make_opsetid("", 18)],
)


def _model(
    nodes: list[onnx.NodeProto], functions: list[onnx.FunctionProto] = ()
) -> onnx.ModelProto:
    graph = oh.make_graph(
        nodes,
        "g",
        [oh.make_tensor_value_info("a", 1, [2]), oh.make_tensor_value_info("cond", 9, [])],
        [oh.make_tensor_value_info("c", 1, [2])],
    )
    return oh.make_model(graph, opset_imports=OPSETS, functions=list(functions))


def test_calls_are_replaced_and_other_custom_ops_stay():
    calls = [
        oh.make_node("MyRelu", ["a"], ["b"], domain="custom"),
        oh.make_node("Other", ["b"], ["c"], domain="custom"),
    ]
    model = _model(calls)
    result = replace_functions(model, [MY_RELU])
    assert [(n.op_type, n.domain) for n in result.graph.node] == [
        ("Relu", ""),
        ("Neg", ""),
        ("Other", "custom"),
    ]
    assert list(result.functions) == []
    assert [n.op_type for n in model.graph.node] == ["MyRelu", "Other"]  # a copy is changed


def test_the_replaced_model_computes_what_the_function_did():
    model = _model([oh.make_node("MyRelu", ["a"], ["c"], domain="custom")])
    result = replace_functions(model, [MY_RELU])
    onnx.checker.check_model(result, full_check=True)
    a = np.array([-1.0, 2.0], dtype=np.float32)
    cond = np.array(True)
    (expected,) = run_model(
        _model([oh.make_node("MyRelu", ["a"], ["c"], domain="custom")], [MY_RELU]),
        [a, cond],
    )
    (got,) = run_model(result, [a, cond])
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, -np.maximum(a, 0))


def test_calls_in_subgraphs_and_in_the_given_functions_are_replaced():
    branch = oh.make_graph(
        [oh.make_node("MyRelu", ["a"], ["z"], domain="custom")],
        "branch",
        [],
        [oh.make_tensor_value_info("z", 1, [2])],
    )
    model = _model([oh.make_node("If", ["cond"], ["c"], then_branch=branch, else_branch=branch)])
    result = replace_functions(model, [MY_RELU])
    assert [n.op_type for n in result.graph.node[0].attribute[0].g.node] == ["Relu", "Neg"]
    outer = oh.make_function(
        "custom",
        "Outer",
        ["x"],
        ["y"],
        [oh.make_node("MyRelu", ["x"], ["y"], domain="custom")],
        OPSETS,
    )
    result = replace_functions(
        _model([oh.make_node("Outer", ["a"], ["c"], domain="custom")]), [outer, MY_RELU]
    )
    assert [(n.op_type, n.domain) for n in result.graph.node] == [("Relu", ""), ("Neg", "")]


def test_in_place_on_an_ir_model_and_models_with_functions_are_refused():
    model = ir.serde.deserialize_model(
        _model([oh.make_node("MyRelu", ["a"], ["c"], domain="custom")])
    )
    assert replace_functions_inplace(model, [ir.serde.deserialize_function(MY_RELU)]) is None
    assert [n.op_type for n in model.graph] == ["Relu", "Neg"] and not model.functions
    with pytest.raises(ValueError, match="model-local functions"):
        replace_functions(_model([], [MY_RELU]), [])
