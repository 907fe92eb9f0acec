"""The compatible upgrades (the steps up whose adapter does nothing, read from the one
table of adapters) against onnx's schemas, and models upgraded by their opset import
alone: checker-clean and computing what they computed before."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript.version_converter import (
    COMPATIBLE_UPGRADES,
    VersionConversionError,
    convert_version,
    upgrades_unchanged,
)
from onnxscript.version_converter._context import nothing
from onnxscript.version_converter.registry import ADAPTERS

OPTIONAL = onnx.defs.OpSchema.FormalParameterOption.Optional

TYPES_DROPPED = {("Erf", 13), ("ReduceLogSum", 28), ("ReduceLogSumExp", 28)}
"""Upgrades whose newer schema no longer takes some element types (integers): a node of
another type is unchanged, one of those is refused by the converter's type check."""


def _allowed(schema: onnx.defs.OpSchema, formal: onnx.defs.OpSchema.FormalParameter) -> set[str]:
    constraints = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
    return constraints.get(formal.type_str, {formal.type_str})


def test_the_compatible_upgrades_are_the_adapters_steps_up_that_do_nothing():
    steps = {
        (op, new) for (op, old, new), a in ADAPTERS.items() if new > old and a.apply is nothing
    }
    assert steps == COMPATIBLE_UPGRADES
    assert len(COMPATIBLE_UPGRADES) > 300


@pytest.mark.parametrize(("op", "version"), sorted(COMPATIBLE_UPGRADES))
def test_every_node_of_the_older_version_stays_valid(op: str, version: int):
    """Same inputs and outputs by position (new ones optional), the older types still
    allowed (but :data:`TYPES_DROPPED`), no attribute dropped or newly required."""
    new = onnx.defs.get_schema(op, version, "")
    old = onnx.defs.get_schema(op, version - 1, "")
    assert new.since_version == version and old.since_version < version
    for side in ("inputs", "outputs"):
        before, after = getattr(old, side), getattr(new, side)
        assert len(after) >= len(before)
        assert all(f.option == OPTIONAL for f in after[len(before) :]) or side == "outputs"
        for formal_old, formal_new in zip(before, after):
            assert formal_new.option in (formal_old.option, OPTIONAL)
            dropped = _allowed(old, formal_old) - _allowed(new, formal_new)
            assert not dropped or (op, version) in TYPES_DROPPED, (side, dropped)
    for name, attr in old.attributes.items():
        assert name in new.attributes and new.attributes[name].type == attr.type, name
    for name, attr in new.attributes.items():
        assert not attr.required or (name in old.attributes and old.attributes[name].required)


def test_a_node_of_a_dropped_type_is_refused_going_up():
    node = helper.make_node("Erf", ["x"], ["y"])
    graph = helper.make_graph(
        [node],
        "erf",
        [helper.make_tensor_value_info("x", TensorProto.INT32, [2])],
        [helper.make_tensor_value_info("y", TensorProto.INT32, [2])],
    )
    model = ir.from_proto(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)]))
    with pytest.raises(VersionConversionError, match="Erf-13 does not accept"):
        convert_version(model, 13)


def test_unlisted_changes_need_a_converter():
    assert not upgrades_unchanged("GridSample", 18, 20)  # mode names changed
    assert not upgrades_unchanged("DFT", 18, 20)  # axis became an input
    assert not upgrades_unchanged("GroupNormalization", 18, 21)  # per-channel scale
    assert not upgrades_unchanged("AveragePool", 18, 22)  # ceil_mode's windows checked
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


@pytest.mark.parametrize("target", [19, 20, 21])
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
