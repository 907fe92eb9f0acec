"""The compatible-upgrade table against onnx's schemas, and models upgraded by their
opset import alone: checker-clean and computing what they computed before."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs
import pytest
from onnx import TensorProto, helper

from onnxscript.version_converter import COMPATIBLE_UPGRADES, upgrades_unchanged

KNOWN = {
    (op, v)
    for op, v in COMPATIBLE_UPGRADES
    if any(s.since_version == v for s in onnx.defs.get_all_schemas_with_history() if s.name == op)
}


def _previous(op: str, version: int) -> onnx.defs.OpSchema:
    return onnx.defs.get_schema(op, version - 1, "")


def _formal(params: list[onnx.defs.OpSchema.FormalParameter]) -> list[tuple[str, object, str]]:
    return [(p.name, p.option, p.type_str) for p in params]


@pytest.mark.parametrize(("op", "version"), sorted(KNOWN))
def test_entry_only_adds_types_and_optional_attributes(op: str, version: int):
    new = onnx.defs.get_schema(op, version, "")
    old = _previous(op, version)
    assert new.since_version == version and old.since_version < version
    assert _formal(new.inputs) == _formal(old.inputs)
    assert _formal(new.outputs) == _formal(old.outputs)
    for name, attr in old.attributes.items():
        assert name in new.attributes, name
        assert new.attributes[name].type == attr.type, name
        assert new.attributes[name].required == attr.required, name
        assert new.attributes[name].default_value == attr.default_value, name
    for name in set(new.attributes) - set(old.attributes):
        assert not new.attributes[name].required, name
    old_types = {c.type_param_str: set(c.allowed_type_strs) for c in old.type_constraints}
    new_types = {c.type_param_str: set(c.allowed_type_strs) for c in new.type_constraints}
    assert set(new_types) == set(old_types)
    for param, allowed in old_types.items():
        assert allowed <= new_types[param], param


def test_unlisted_changes_need_a_converter():
    assert not upgrades_unchanged("GridSample", 18, 20)  # mode names changed
    assert not upgrades_unchanged("DFT", 18, 20)  # axis became an input
    assert not upgrades_unchanged("GroupNormalization", 18, 21)  # per-channel scale
    assert upgrades_unchanged("Relu", 18, 25)  # no change at all
    assert upgrades_unchanged("Reshape", 18, 20)
    assert not upgrades_unchanged("Reshape", 20, 18)  # downgrades are not upgrades


def _shape_arithmetic_model(opset: int) -> onnx.ModelProto:
    """Ops exporters write at 18 that change (compatibly) by 20: Shape, ConstantOfShape,
    CastLike, Cast, Reshape, Equal, Identity, Resize, Pad, AveragePool."""
    nodes = [
        helper.make_node("Shape", ["x"], ["shape"]),
        helper.make_node(
            "ConstantOfShape",
            ["shape"],
            ["ones"],
            value=helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0]),
        ),
        helper.make_node("CastLike", ["ones", "x"], ["ones_like"]),
        helper.make_node("Add", ["x", "ones_like"], ["plus"]),
        helper.make_node("Cast", ["plus"], ["as_double"], to=TensorProto.DOUBLE),
        helper.make_node("Cast", ["as_double"], ["back"], to=TensorProto.FLOAT),
        helper.make_node("Reshape", ["back", "shape"], ["reshaped"]),
        helper.make_node("Equal", ["reshaped", "x"], ["same"]),
        helper.make_node("Identity", ["reshaped"], ["kept"]),
        helper.make_node("Pad", ["kept", "pads"], ["padded"], mode="reflect"),
        helper.make_node("AveragePool", ["padded"], ["pooled"], kernel_shape=[2, 2]),
        helper.make_node("Resize", ["pooled", "", "scales"], ["y"], mode="linear"),
    ]
    graph = helper.make_graph(
        nodes,
        "upgrade",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 5])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 10, 9]),
            helper.make_tensor_value_info("same", TensorProto.BOOL, [1, 1, 4, 5]),
        ],
        [
            helper.make_tensor("pads", TensorProto.INT64, [8], [0, 0, 1, 1, 0, 0, 1, 1]),
            helper.make_tensor("scales", TensorProto.FLOAT, [4], [1, 1, 2, 1.5]),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


@pytest.mark.parametrize("target", [19, 20, 21, 22])
def test_upgraded_model_computes_the_same(target: int):
    ort = pytest.importorskip("onnxruntime")
    old = _shape_arithmetic_model(18)
    assert all(upgrades_unchanged(n.op_type, 18, target) for n in old.graph.node)
    new = _shape_arithmetic_model(target)
    x = np.random.default_rng(0).standard_normal((1, 1, 4, 5)).astype(np.float32)
    results = []
    for model in (old, new):
        onnx.checker.check_model(model, full_check=True)
        session = ort.InferenceSession(model.SerializeToString())
        results.append(session.run(None, {"x": x}))
    for before, after in zip(*results):  # onnxruntime's kernels may differ by rounding
        np.testing.assert_allclose(before, after, rtol=1e-6, atol=1e-6)
