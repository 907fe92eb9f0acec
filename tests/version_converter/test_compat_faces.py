"""onnxscript 0.7's ``version_converter._version_converter`` and ``_c_api_utils``: faces
over this converter. Each behaviour is compared with what 0.7.2 does on the same model
(its three adapters' results, its registry's answers), except where noted."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import onnx_ir as ir
import onnxruntime as ort
import pytest

from onnxscript import version_converter
from onnxscript.version_converter import _c_api_utils
from onnxscript.version_converter import _version_converter as vc
from onnxscript.version_converter import registry as adapters_registry


def _model(nodes, inputs, opset, outputs=None) -> ir.Model:
    outputs = outputs or [oh.make_tensor_value_info("y", 1, ["d0", "d1", "d2"])]
    graph = oh.make_graph(nodes, "g", inputs, outputs)
    return ir.from_proto(oh.make_model(graph, opset_imports=[oh.make_opsetid("", opset)]))


def _run(model: ir.Model, feeds: dict) -> list:
    proto = ir.to_proto(model)
    onnx.checker.check_model(proto, full_check=True)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, feeds)


def _dft_model() -> ir.Model:
    return _model(
        [oh.make_node("DFT", ["x", "n"], ["y"], axis=1, inverse=0, onesided=0)],
        [oh.make_tensor_value_info("x", 1, [1, 4, 1]), oh.make_tensor_value_info("n", 7, [])],
        19,
    )


def _group_norm_model() -> ir.Model:
    inputs = [
        oh.make_tensor_value_info("x", 1, [1, 4, 2]),
        oh.make_tensor_value_info("s", 1, [2]),
        oh.make_tensor_value_info("b", 1, [2]),
    ]
    node = oh.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2, epsilon=1e-3)
    return _model([node], inputs, 20)


def test_names_are_this_converters():
    assert vc.convert_version is version_converter.convert_version
    assert vc.VersionConverterError is version_converter.VersionConversionError
    assert issubclass(vc.VersionConverterError, RuntimeError)  # 0.7.2's base
    # ours converts from opset 7 to the newest the installed onnx has (0.7.2: 18 to 25)
    assert vc.SUPPORTED_MIN_ONNX_OPSET == 7
    assert onnx.defs.onnx_opset_version() == vc.SUPPORTED_MAX_ONNX_OPSET
    replacement = vc.Replacement(new_outputs=[], new_nodes=[])
    assert (replacement.new_outputs, replacement.new_nodes) == ([], [])


def test_version_supported_needs_both_opsets_in_range():
    model = _dft_model()
    assert vc.version_supported(model, 20) and vc.version_supported(model, 18)
    assert not vc.version_supported(model, 6)
    assert not vc.version_supported(model, vc.SUPPORTED_MAX_ONNX_OPSET + 1)
    old = _model([oh.make_node("Relu", ["x"], ["y"])], [oh.make_tensor_value_info("x", 1, [2])], 6)
    assert not vc.version_supported(old, 18)


def test_registry_has_0_7_2s_three_adapters_and_answers_with_ours():
    registry = vc.registry
    assert registry.lookup_adapters("", "DFT", 19, True) is vc.dft_19_20
    assert registry.lookup_adapters("", "GridSample", 19, True) is vc.gridsample_19_20
    assert (
        registry.lookup_adapters("", "GroupNormalization", 20, True) is vc.groupnormalization_20_21
    )
    # as 0.7.2: nothing for another domain spelling, nothing where the op does not change
    assert registry.lookup_adapters("ai.onnx", "DFT", 19, True) is None
    assert registry.lookup_adapters("", "DFT", 19, False) is None
    assert registry.lookup_adapters("", "Relu", 15, True) is None
    # beyond 0.7.2: every step this converter has an adapter for
    assert callable(registry.lookup_adapters("", "Softmax", 12, True))
    assert vc.AdapterRegistry().lookup_adapters("", "DFT", 19, True) is None


def test_dft_19_20_moves_axis_to_an_input_and_computes_the_same():
    model = _dft_model()
    x = np.arange(4, dtype=np.float32).reshape(1, 4, 1)
    n = np.array(4, dtype=np.int64)
    (expected,) = _run(model, {"x": x, "n": n})
    node = model.graph.node(0)
    result = vc.dft_19_20(node, None)
    # as 0.7.2: axis given as a Constant input, the rest unchanged
    dft = next(n for n in model.graph if n.op_type == "DFT")
    assert "axis" not in dft.attributes and dft.inputs[2] is not None
    assert dft.inputs[2].producer().op_type == "Constant"
    assert result is dft.outputs[0]
    model.opset_imports[""] = 20
    (got,) = _run(model, {"x": x, "n": n})
    np.testing.assert_allclose(got, expected, rtol=1e-6)


@pytest.mark.parametrize(("mode", "expected_mode"), [("bilinear", "linear"), ("bicubic", "cubic")])
def test_gridsample_19_20_renames_the_mode(mode, expected_mode):
    inputs = [
        oh.make_tensor_value_info("x", 1, [1, 1, 2, 2]),
        oh.make_tensor_value_info("g", 1, [1, 2, 2, 2]),
    ]
    model = _model([oh.make_node("GridSample", ["x", "g"], ["y"], mode=mode)], inputs, 19)
    vc.gridsample_19_20(model.graph.node(0), None)
    assert model.graph.node(0).attributes["mode"].value == expected_mode


def test_groupnormalization_20_21_computes_the_same_and_keeps_epsilon():
    model = _group_norm_model()
    feeds = {
        "x": np.random.default_rng(0).standard_normal((1, 4, 2)).astype(np.float32),
        "s": np.array([1.5, -0.5], dtype=np.float32),
        "b": np.array([0.25, 1.0], dtype=np.float32),
    }
    # GroupNormalization-18 is deprecated: the reference is the definition written out
    x = feeds["x"].reshape(1, 2, -1)
    normal = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-3)
    expected = (
        normal.reshape(1, 4, 2) * np.repeat(feeds["s"], 2)[:, None]
        + np.repeat(feeds["b"], 2)[:, None]
    )
    results = vc.groupnormalization_20_21(model.graph.node(0), None)
    assert isinstance(results, ir.Value)
    group_norm = next(n for n in model.graph if n.op_type == "GroupNormalization")
    assert group_norm.attributes["epsilon"].value == pytest.approx(1e-3)  # 0.7.2 drops it
    model.opset_imports[""] = 21
    (got,) = _run(model, feeds)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_a_registered_0_7_style_adapter_is_used_by_convert_version(monkeypatch):
    monkeypatch.setattr(adapters_registry, "ADAPTERS", dict(adapters_registry.ADAPTERS))
    registry = vc.AdapterRegistry()
    monkeypatch.setattr(vc, "registry", registry)
    calls = []

    @registry.register("DFT", node_version=19)
    def my_dft(node, op):
        calls.append(node.op_type)
        axis = op.Constant(value_int=node.attributes["axis"].value)
        return op.DFT(node.inputs[0], node.inputs[1], axis, inverse=0, onesided=0)

    assert registry.lookup_adapters("", "DFT", 19) is my_dft
    model = _dft_model()
    x = np.arange(4, dtype=np.float32).reshape(1, 4, 1)
    n = np.array(4, dtype=np.int64)
    (expected,) = _run(model, {"x": x, "n": n})
    vc.convert_version(model, 20)
    assert calls == ["DFT"]
    assert [node.op_type for node in model.graph] == ["Constant", "DFT"]
    (got,) = _run(model, {"x": x, "n": n})
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_call_onnx_api_leaves_big_initializers_out_and_the_model_unchanged():
    big = onnx.numpy_helper.from_array(np.ones(1001, np.float32), "w")
    small = onnx.numpy_helper.from_array(np.ones(1000, np.float32), "s")
    graph = oh.make_graph(
        [oh.make_node("Add", ["x", "w"], ["t"]), oh.make_node("Add", ["z", "s"], ["y"])],
        "g",
        [oh.make_tensor_value_info("x", 1, [1001]), oh.make_tensor_value_info("z", 1, [1000])],
        [oh.make_tensor_value_info("y", 1, None)],
        initializer=[big, small],
    )
    model = ir.from_proto(oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)]))
    before = ir.to_proto(model)
    seen = []
    assert _c_api_utils.call_onnx_api(lambda proto: seen.append(proto) or "done", model) == "done"
    (proto,) = seen
    # as 0.7.2: every initializer a graph input, those above 1000 elements without value
    assert [i.name for i in proto.graph.input] == ["x", "z", "w", "s"]
    assert [t.name for t in proto.graph.initializer] == ["s"]
    inferred = onnx.shape_inference.infer_shapes(proto)
    assert {v.name for v in inferred.graph.value_info} == {"t"}

    def fails(proto):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        _c_api_utils.call_onnx_api(fails, model)
    assert ir.to_proto(model) == before
