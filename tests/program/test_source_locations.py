"""Source locations in models: off by default (output independent of where code lives), on
with ``source_locations=True`` (every node says file, line, column and function)."""

from __future__ import annotations

from typing import Any

import onnx

from onnxscript import FLOAT, proto2python, script
from onnxscript import opset18 as op
from onnxscript.program.lowering import LOCATION_KEYS
from tests.helpers import checked_model, define

SOURCE = """\
@script()
def inner(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Relu(x) * 2.0


@script()
def f(x: FLOAT["N"]) -> FLOAT["N"]:
    y = inner(x)
    if op.ReduceSum(y, keepdims=0) > 0.0:
        y = y + 1.0
    return y
"""


def _compile() -> Any:
    return define(SOURCE, {"FLOAT": FLOAT, "op": op, "script": script})


def _every_node(model: onnx.ModelProto) -> list[onnx.NodeProto]:
    nodes: list[onnx.NodeProto] = []
    pending = [model.graph]
    for function in model.functions:
        nodes.extend(function.node)
    while pending:
        graph = pending.pop()
        for node in graph.node:
            nodes.append(node)
            pending.extend(a.g for a in node.attribute if a.type == onnx.AttributeProto.GRAPH)
    return nodes


def _location(node: onnx.NodeProto) -> dict[str, str]:
    return {p.key: p.value for p in node.metadata_props}


def test_models_carry_no_location_by_default_and_do_not_depend_on_the_file():
    first, second = _compile(), _compile()  # two registered sources, two file names
    a = first.to_model_proto()
    b = second.to_model_proto()
    assert not any(node.metadata_props for node in _every_node(a))
    assert a.SerializeToString() == b.SerializeToString()
    function = first.to_function_proto()
    assert not any(node.metadata_props for node in function.node)


def test_every_node_records_where_it_came_from():
    f = _compile()
    model = checked_model(f, source_locations=True)
    nodes = _every_node(model)
    assert nodes and all(list(_location(n)) == list(LOCATION_KEYS) for n in nodes)
    by_op = {n.op_type: _location(n) for n in nodes}
    filename = by_op["If"]["onnxscript.source.file"]
    assert filename.startswith("<test-source-")
    assert by_op["inner"]["onnxscript.source.line"] == "8"  # y = inner(x)
    assert by_op["If"]["onnxscript.source.line"] == "9"
    assert by_op["ReduceSum"]["onnxscript.source.column"] == "8"
    assert by_op["Add"]["onnxscript.source.line"] == "10"  # inside the then-branch
    assert by_op["Relu"]["onnxscript.source.function"] == "inner"  # in model.functions
    assert by_op["Relu"]["onnxscript.source.line"] == "3"
    assert by_op["If"]["onnxscript.source.function"] == "f"


def test_an_operator_node_points_at_its_whole_expression():
    f = _compile()
    model = f.to_model_proto(source_locations=True)
    greater = next(n for n in _every_node(model) if n.op_type == "Greater")
    assert _location(greater)["onnxscript.source.column"] == "8"  # `op.ReduceSum(...) > 0.0`


def test_function_protos_and_old_ir_versions_take_locations_too():
    f = _compile()
    function = f.to_function_proto(source_locations=True)
    assert all(_location(n)["onnxscript.source.function"] == "f" for n in function.node)
    old = f.to_model_proto(source_locations=True, ir_version=8)
    onnx.checker.check_model(old, full_check=True)


def test_the_reverse_translator_ignores_locations():
    f = _compile()
    with_locations = f.to_model_proto(source_locations=True)
    without = f.to_model_proto()
    assert proto2python(with_locations) == proto2python(without)


def test_every_construct_leaves_no_node_without_a_location():
    from tests.converter import determinism_cases

    model = determinism_cases.everything.to_model_proto(source_locations=True)
    nodes = _every_node(model)
    assert len(nodes) > 40
    missing = [n.op_type for n in nodes if list(_location(n)) != list(LOCATION_KEYS)]
    assert missing == []
