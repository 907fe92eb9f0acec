"""The driver: graphs, subgraphs, functions, node versions, metadata, errors, fallback."""

from __future__ import annotations

from math import erf

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript import version_converter
from onnxscript.version_converter import ConvertVersionPass, VersionConversionError
from tests.version_converter.conversion import (
    FLOAT,
    assert_same,
    convert,
    info,
    make,
    node,
    out,
    rand,
    run,
    tensor,
    to_ir,
)

X = {"x": rand(2, 3, 4)}


def _all(proto: onnx.ModelProto) -> list[onnx.NodeProto]:
    def walk(graph: onnx.GraphProto) -> list[onnx.NodeProto]:
        found = []
        for n in graph.node:
            found.append(n)
            for a in n.attribute:
                if a.HasField("g"):
                    found += walk(a.g)
        return found

    found = walk(proto.graph)
    for function in proto.functions:
        found += list(function.node)
    return found


def test_model_local_function_converted_with_its_opset_import():
    imports = [helper.make_opsetid("", 11), helper.make_opsetid("local", 1)]
    body = [
        node("Softmax", ["v"], ["s"], axis=1),
        node("ReduceSum", ["s"], ["w"], axes=[2], keepdims=0),
    ]
    function = helper.make_function("local", "f", ["v"], ["w"], body, imports)
    model = make(
        [node("f", ["x"], ["y"], domain="local")],
        [info("x")],
        [out("y", 2)],
        11,
        functions=[function],
        extra_opsets=[helper.make_opsetid("local", 1)],
    )
    up = convert(model, 18)
    (converted,) = up.functions
    assert {o.domain: o.version for o in converted.opset_import}[""] == 18
    assert [n.op_type for n in converted.node] == [
        "Flatten",
        "Shape",
        "Softmax",
        "Reshape",
        "Constant",
        "ReduceSum",
    ]
    assert_same(model, up, X)
    assert_same(model, convert(up, 11), X)


def test_if_and_loop_bodies_converted():
    def branch(name: str, axes: list[int]) -> onnx.GraphProto:
        reduce = node("ReduceMean", ["x"], [name], axes=axes, keepdims=0)
        return helper.make_graph([reduce], name, [], [out(name, 2)])

    cond_body = helper.make_graph(
        [
            node("Identity", ["c_in"], ["c_out"]),
            node("Squeeze", ["acc"], ["squeezed"], axes=[0]),
            node("Unsqueeze", ["squeezed"], ["acc_out"], axes=[0]),
        ],
        "body",
        [info("i", TensorProto.INT64, []), info("c_in", TensorProto.BOOL, []), out("acc", 3)],
        [info("c_out", TensorProto.BOOL, []), out("acc_out", 3)],
    )
    nodes = [
        node("If", ["c"], ["r"], then_branch=branch("a", [1]), else_branch=branch("b", [2])),
        node("Unsqueeze", ["r"], ["u"], axes=[0]),
        node("Loop", ["n", "", "u"], ["y"], body=cond_body),
    ]
    model = make(
        nodes,
        [info("x"), info("c", TensorProto.BOOL, [])],
        [out("y", 3)],
        12,
        [tensor("n", 2, np.int64)],
    )
    up = convert(model, 18)
    inner = [n.op_type for n in _all(up)]
    assert inner.count("Constant") == 5  # axes of two ReduceMean, a Squeeze, two Unsqueeze
    for c in (True, False):
        feeds = {**X, "c": np.array(c)}
        assert_same(model, up, feeds)
        assert_same(model, convert(up, 12), feeds)


def test_names_and_metadata_kept_and_copied():
    model = to_ir(
        make(
            [node("ReduceSum", ["x"], ["y"], axes=[1], keepdims=0)], [info("x")], [out("y", 2)], 11
        )
    )
    reduce = next(iter(model.graph))
    reduce.name = "total"
    reduce.metadata_props["pkg.torch.onnx.stack_trace"] = "model.py:3"
    reduce.meta["mine"] = 7
    version_converter.convert_version(model, 18)
    constant, kept = list(model.graph)
    assert kept is reduce and kept.name == "total" and kept.meta["mine"] == 7
    assert kept.metadata_props == {"pkg.torch.onnx.stack_trace": "model.py:3"}
    assert constant.metadata_props == kept.metadata_props
    assert kept.outputs[0].name == "y"


def test_a_replaced_output_keeps_its_name():
    model = make([node("Softmax", ["x"], ["y"], axis=1)], [info("x")], [out("y", 3)], 11)
    up = convert(model, 13)
    assert [o.name for o in up.graph.output] == ["y"] and up.graph.node[-1].output == ["y"]


def test_initializers_are_not_copied():
    model = to_ir(
        make(
            [node("Reshape", ["x", "s"], ["r"]), node("Add", ["r", "w"], ["y"])],
            [info("x")],
            [out("y", 2)],
            9,
            [tensor("s", [6, 4]), tensor("w", np.ones(4), np.float32)],
        )
    )
    before = {name: v.const_value for name, v in model.graph.initializers.items()}
    version_converter.convert_version(model, 21)
    after = {name: v.const_value for name, v in model.graph.initializers.items()}
    assert after.keys() == before.keys() and all(after[k] is before[k] for k in before)
    assert model.ir_version >= 10  # opset 21 needs IR version 10


def test_node_versions_newer_than_the_model():
    """An exporter writes Gelu (opset 20) into an opset-18 model, naming its version."""
    model = to_ir(make([node("Relu", ["x"], ["r"])], [info("x")], [out("r", 3)], 18))
    gelu = ir.node("Gelu", [model.graph.outputs[0]], version=20)
    gelu.outputs[0].name = "y"
    gelu.outputs[0].dtype = ir.DataType.FLOAT
    gelu.outputs[0].shape = ir.Shape([2, 3, 4])
    model.graph.append(gelu)
    model.graph.outputs[0] = gelu.outputs[0]
    version_converter.convert_version(model, 20)
    assert [n.op_type for n in model.graph] == ["Relu", "Gelu"]
    assert all(n.version is None for n in model.graph)
    version_converter.convert_version(model, 17)
    assert "Gelu" not in [n.op_type for n in model.graph] and "Erf" in [
        n.op_type for n in model.graph
    ]
    proto = ir.serde.serialize_model(model)
    onnx.checker.check_model(proto, full_check=True)
    (y,) = run(proto, X)
    relu = np.maximum(X["x"], 0)
    expected = 0.5 * relu * (1 + np.vectorize(erf)(relu / np.sqrt(2)))
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


def test_pass_reports_whether_anything_changed():
    model = to_ir(make([node("Relu", ["x"], ["y"])], [info("x")], [out("y", 3)], 18))
    assert not ConvertVersionPass(18)(model).modified
    assert ConvertVersionPass(19)(model).modified
    assert model.opset_imports[""] == 19


def _reshape_1() -> onnx.ModelProto:
    """Reshape-1 (shape as an attribute) at opset 4: a step below opset 7, which no
    adapter covers."""
    graph = helper.make_graph(
        [node("Reshape", ["x"], ["y"], shape=[6, 4])], "g", [info("x")], [info("y", FLOAT, [6, 4])]
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 4)])
    model.ir_version = 4
    return model


def test_uncovered_step_is_an_error_naming_node_and_versions():
    model = to_ir(_reshape_1())
    next(iter(model.graph)).name = "flatten_me"
    with pytest.raises(
        VersionConversionError,
        match=r"Reshape node 'flatten_me' .* from opset 4 to 13: step 1 -> 5",
    ):
        version_converter.convert_version(model, 13)


def test_fallback_converts_only_the_uncovered_node(monkeypatch: pytest.MonkeyPatch):
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the model was serialized")

    monkeypatch.setattr(ir.serde, "serialize_model", refuse)
    model = to_ir(_reshape_1())
    relu = ir.node("Relu", [model.graph.outputs[0]])
    relu.metadata_props["source"] = "here"
    relu.outputs[0].dtype = ir.DataType.FLOAT
    relu.outputs[0].shape = ir.Shape([6, 4])
    model.graph.append(relu)
    model.graph.outputs[0] = relu.outputs[0]
    reshape = next(iter(model.graph))
    reshape.metadata_props["source"] = "there"
    version_converter.convert_version(model, 13, fallback=True)
    monkeypatch.undo()
    assert [n.op_type for n in model.graph] == ["Constant", "Reshape", "Relu"]
    assert all(n.metadata_props["source"] for n in model.graph)
    proto = ir.serde.serialize_model(model)
    onnx.checker.check_model(proto, full_check=True)
    (y,) = run(proto, X)
    np.testing.assert_array_equal(y, np.maximum(X["x"].reshape(6, 4), 0))


def test_adapter_refusals_are_errors_even_with_fallback():
    model = to_ir(
        make(
            [node("ReduceSum", ["x", "axes"], ["y"])],
            [info("x"), info("axes", TensorProto.INT64, [1])],
            [out("y", 3)],
            13,
        )
    )
    with pytest.raises(VersionConversionError, match="must be a constant"):
        version_converter.convert_version(model, 11, fallback=True)


def test_ai_onnx_import_spelled_out_is_kept():
    graph = helper.make_graph(
        [node("ReduceSum", ["x"], ["y"], axes=[1], keepdims=0, domain="ai.onnx")],
        "g",
        [info("x")],
        [out("y", 2)],
    )
    model = to_ir(helper.make_model(graph, opset_imports=[helper.make_opsetid("ai.onnx", 11)]))
    version_converter.convert_version(model, 13)
    assert dict(model.opset_imports) == {"ai.onnx": 13}
    assert [n.op_type for n in model.graph] == ["Constant", "ReduceSum"]


@pytest.mark.parametrize("target", [6, 99])
def test_target_outside_the_known_opsets_is_refused(target: int):
    model = to_ir(make([node("Relu", ["x"], ["y"])], [info("x")], [out("y", 3)], 18))
    with pytest.raises(VersionConversionError, match=f"opset {target} is outside"):
        version_converter.convert_version(model, target)


def test_a_value_taking_an_outputs_place_gains_its_metadata():
    model = to_ir(make([node("Softmax", ["x"], ["y"], axis=1)], [info("x")], [out("y", 3)], 11))
    model.graph.outputs[0].metadata_props["pkg.torch.export.graph_signature.OutputSpec.kind"] = (
        "USER_OUTPUT"
    )
    version_converter.convert_version(model, 13)
    (output,) = model.graph.outputs
    assert output.producer().op_type == "Reshape" and output.name == "y"
    assert output.metadata_props == {
        "pkg.torch.export.graph_signature.OutputSpec.kind": "USER_OUTPUT"
    }


def test_a_model_without_nodes_gets_the_ai_onnx_import():
    """torch.onnx writes no opset import for a graph without nodes (an identity module);
    onnxruntime refuses a model that imports no ai.onnx, so the converted one has it."""
    graph = helper.make_graph([], "g", [info("x")], [info("x")])
    model = to_ir(helper.make_model(graph, opset_imports=[]))
    version_converter.convert_version(model, 20)
    assert dict(model.opset_imports) == {"": 20}
    proto = ir.serde.serialize_model(model)
    session = pytest.importorskip("onnxruntime").InferenceSession(proto.SerializeToString())
    x = np.ones((2, 3, 4), dtype=np.float32)
    np.testing.assert_array_equal(session.run(None, {"x": x})[0], x)


def test_types_of_intermediate_values_are_inferred_before_adapters_read_them():
    """Dropout's mask changes type at 10 and its adapter needs the data's element type:
    an intermediate value records none (no value_info), so the graph's types are inferred
    at its opset before any node is converted (the check going down infers them too)."""
    before = make(
        [node("Transpose", ["x"], ["t"], perm=[1, 0]), node("Dropout", ["t"], ["y"])],
        [info("x", FLOAT, [1, 2])],
        [info("y", FLOAT, [2, 1])],
        7,
    )
    assert not before.graph.value_info  # t records no type
    feeds = {"x": rand(1, 2)}
    for target in (10, 12, 23):
        after = convert(before, target)
        assert not after.graph.value_info  # the inferred types are not written
        assert_same(before, after, feeds)
