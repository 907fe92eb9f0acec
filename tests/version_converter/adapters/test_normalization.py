"""BatchNormalization and GroupNormalization across their versions."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from tests.version_converter.conversion import (
    FLOAT,
    assert_same,
    attrs,
    convert,
    converts,
    info,
    make,
    node,
    ops,
    out,
    pair,
    rand,
    reference,
    tensor,
    the,
)

SHAPE = [2, 4, 3, 3]
X = {"x": rand(*SHAPE)}


def _bn_params(*shape: int) -> list:
    rng = np.random.default_rng(1)
    values = {
        "scale": rng.standard_normal(shape),
        "bias": rng.standard_normal(shape),
        "mean": rng.standard_normal(shape),
        "var": np.abs(rng.standard_normal(shape)) + 0.5,
    }
    return [tensor(name, value, np.float32) for name, value in values.items()]


def _bn(opset: int, params: list, **attributes: object) -> object:
    return make(
        [node("BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["y"], **attributes)],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        opset,
        params,
    )


def test_batch_norm_inference_across_versions():
    old, new = _bn(7, _bn_params(4)), _bn(15, _bn_params(4))
    up, down = pair(old, new, X)
    assert ops(up) == ["BatchNormalization"] and ops(down) == ["BatchNormalization"]


def test_batch_norm_non_spatial_written_out():
    """spatial=0: statistics per element (C x H x W), which arithmetic broadcasts."""
    old = _bn(7, _bn_params(4, 3, 3), spatial=0)
    up = converts(old, 9, X)
    assert "BatchNormalization" not in ops(up) and "Sqrt" in ops(up)


def test_batch_norm_training_outputs():
    """Training mode: five outputs at 9, training_mode=1 with three at 14."""
    params = _bn_params(4)
    outputs = [out("y", 4), out("running_mean", 1), out("running_var", 1)]
    new = make(
        [
            node(
                "BatchNormalization",
                ["x", "scale", "bias", "mean", "var"],
                ["y", "running_mean", "running_var"],
                training_mode=1,
            )
        ],
        [info("x", FLOAT, SHAPE)],
        outputs,
        14,
        params,
    )
    down = convert(new, 9)
    assert len(the(down, "BatchNormalization").output) == 5
    up = convert(down, 14)
    assert attrs(the(up, "BatchNormalization")) == {"training_mode": 1}


def test_batch_norm_15_scale_cast_to_the_input_type():
    params = _bn_params(4)
    params[0] = tensor("scale", np.ones(4), np.float64)
    params[1] = tensor("bias", np.zeros(4), np.float64)
    new = make(
        [node("BatchNormalization", ["x", "scale", "bias", "mean", "var"], ["y"])],
        [info("x", FLOAT, SHAPE)],
        [out("y", 4)],
        15,
        params,
    )
    down = converts(new, 14, X, runner=reference)
    assert ops(down) == ["Cast", "Cast", "BatchNormalization"]


def _group_norm(opset: int, scale: list, bias: list, check: bool = True) -> object:
    nodes = [node("GroupNormalization", ["x", "scale", "bias"], ["y"], num_groups=2)]
    inits = [tensor("scale", scale, np.float32), tensor("bias", bias, np.float32)]
    if check:
        return make(nodes, [info("x", FLOAT, SHAPE)], [out("y", 4)], opset, inits)
    graph = helper.make_graph(nodes, "g", [info("x", FLOAT, SHAPE)], [out("y", 4)], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def test_group_norm_18_per_group_to_per_channel():
    """GroupNormalization-18 is deprecated (onnx's checker refuses it): only converted up."""
    old = _group_norm(18, [0.5, 2.0], [1.0, -1.0], check=False)
    new = _group_norm(21, [0.5, 0.5, 2.0, 2.0], [1.0, 1.0, -1.0, -1.0])
    up = convert(old, 21)
    assert ops(up) == ["Constant", "Constant", "GroupNormalization"]
    assert_same(new, up, X, runner=reference, atol=1e-5)


def test_group_norm_18_scale_from_a_graph_input():
    nodes = [node("GroupNormalization", ["x", "scale", "bias"], ["y"], num_groups=2)]
    inputs = [info("x", FLOAT, SHAPE), info("scale", FLOAT, [2]), info("bias", FLOAT, [2])]
    graph = helper.make_graph(nodes, "g", inputs, [out("y", 4)])
    old = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    up = convert(old, 21)
    assert "Expand" in ops(up)
    scale = np.array([0.5, 2.0], np.float32)
    feeds = {**X, "scale": scale, "bias": np.ones(2, np.float32)}
    new = _group_norm(21, [0.5, 0.5, 2.0, 2.0], [1.0] * 4)
    (expected,) = reference(new, X)
    (actual,) = reference(up, feeds)
    np.testing.assert_allclose(actual, expected, atol=1e-5)


@pytest.mark.parametrize("target", [20, 17, 13])
def test_group_norm_21_written_out_below(target: int):
    new = _group_norm(21, [0.5, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0])
    down = converts(new, target, X, runner=reference, atol=1e-5)
    assert "GroupNormalization" not in ops(down)
    assert_same(new, down, X, atol=1e-5)
