"""The group-A rules where 0.7.2 comparison does not reach: inside functions and
subgraphs, metadata, the default tuple's order, and helpers' edge cases."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
import pytest

import onnxscript.rewriter.rules.common as common
from onnxscript.rewriter.rules.common.default_set import DEFAULT_RULES
from onnxscript.rewriter.rules.common.flatten_to_reshape import flattened_shape
from onnxscript.rewriter.rules.common.relu_clip import intersection
from onnxscript.rewriter.rules.common.unsqueeze_unsqueeze import merged_axes
from tests.rewriter import rule_checks

pytest.importorskip("onnxruntime")

_FUNCTION_MODEL = """
g (float[N,4] x) => (float[N,4] y) { y = local.f(x) }
<domain: "local", opset_import: ["" : 18]>
f (a) => (b) {
  t = Relu(a)
  u = Relu(t)
  one = Constant<value=float {1.0}>()
  b = Mul(u, one)
}
"""


def test_rules_apply_inside_functions() -> None:
    model = rule_checks.parse(_FUNCTION_MODEL, 18)
    after = rule_checks.apply(model, [common.successive_relu_rule, common.mul_by_1_rule])
    # the function body has no shapes: x * 1 needs none (a scalar keeps any shape)
    assert [n.op_type for n in after.functions[0].node] == ["Relu", "Identity"]
    rule_checks.assert_same_results(model, after)


_IF_MODEL = """
g (float[N,4] x, bool c) => (float[N,4] y) {
  y = If(c) <
    then_branch = g1 () => (float[N,4] r1) { t1 = Relu(x)
      r1 = Relu(t1) },
    else_branch = g2 () => (float[N,4] r2) { t2 = Transpose<perm=[0,1]>(x)
      r2 = Neg(t2) }
  >
}
"""


def test_rules_apply_inside_subgraphs() -> None:
    model = rule_checks.parse(_IF_MODEL, 18)
    after = rule_checks.apply(model, [common.successive_relu_rule, common.no_op_transpose_rule])
    branches = {a.name: [n.op_type for n in a.g.node] for a in after.graph.node[0].attribute}
    assert branches == {"then_branch": ["Relu"], "else_branch": ["Identity", "Neg"]}
    for flag in (True, False):
        feeds = {**rule_checks.random_inputs(model), "c": np.array(flag)}
        rule_checks.assert_same_results(model, after, feeds=feeds)


def test_metadata_of_the_replaced_nodes_is_kept() -> None:
    model = ir.serde.deserialize_model(
        rule_checks.parse("g (float[2,3] x) => (float[2,3] y) { t = Relu(x)\n y = Relu(t) }")
    )
    for node in model.graph:
        node.metadata_props["namespace"] = f"from {node.outputs[0].name}"
    assert common.successive_relu_rule.apply_to_model(model) == 1
    (node,) = list(model.graph)
    assert node.metadata_props["namespace"] == "from y"


def test_default_tuple_order_and_commuted_forms() -> None:
    names = [rule.name for rule in DEFAULT_RULES]
    assert names[:6] == ["MulBy1", "MulBy1", "Add0", "Add0", "Sub0", "DivBy1"]
    assert names[24:28] == [  # the last of the elementwise rules
        "TransposeIdentity",
        "TransposeTranspose",
        "UnsqueezeUnsqueeze",
        "SqueezeReshape1d",
    ]
    before = rule_checks.parse(
        "g (float[N,4] x) => (float[N,4] y) { zero = Constant<value=float {0.0}>()\n"
        " y = Add(zero, x)}"
    )
    after = rule_checks.apply(before, list(DEFAULT_RULES))
    assert rule_checks.op_types(after) == ["Identity"]
    rule_checks.assert_same_results(before, after)


@pytest.mark.parametrize(
    ("first", "second", "rank", "expected"),
    [
        ([0], [2], 2, [0, 2]),
        ([0], [0], None, [0, 1]),
        ([1], [0], None, [0, 2]),
        ([-1], [0], 2, [0, 3]),
        ([0, 3], [1], 2, [0, 1, 4]),
        ([-1], [0], None, None),
        ([0, 0], [1], 2, None),
    ],
)
def test_merged_axes(
    first: list[int], second: list[int], rank: int | None, expected: list[int] | None
) -> None:
    assert merged_axes(first, second, rank) == expected


@pytest.mark.parametrize(
    ("dims", "axis", "expected"),
    [
        ([2, 3, 4], 1, [2, 12]),
        (["N", 3, 4], 1, [0, 12]),
        (["N", "M", 4], 1, None),
        ([0, 3, 4], 1, [0, 12]),
        ([2, 3, 0], 1, None),
        ([2, 3, 4], -1, [6, 4]),
        (None, 0, [1, -1]),
        (None, 1, None),
    ],
)
def test_flattened_shape(dims: list[object] | None, axis: int, expected: list[int] | None) -> None:
    assert flattened_shape(dims, axis) == expected


def test_clip_ranges_meet_or_refuse() -> None:
    def r(low: float | None, high: float | None) -> tuple[object, object]:
        return (
            None if low is None else np.float32(low),
            None if high is None else np.float32(high),
        )

    f32 = ir.DataType.FLOAT
    assert intersection(r(-1, 5), r(0, 3), f32) == (0, 3)  # type: ignore[arg-type]
    assert intersection(r(-1, None), r(None, 3), f32) == (-1, 3)  # type: ignore[arg-type]
    assert intersection(r(-1, 0), r(1, 3), f32) is None  # type: ignore[arg-type]
    assert intersection(r(2, 1), r(None, None), f32) is None  # type: ignore[arg-type]
    # an absent bound is the type's limit: max=-inf is below it (the ranges do not meet)
    assert intersection(r(None, -np.inf), r(None, None), f32) is None  # type: ignore[arg-type]
    # inf where the other Clip leaves max to the type: the type's max (absent) wins
    assert intersection(r(0, np.inf), r(None, None), f32) == (0, None)  # type: ignore[arg-type]
    assert intersection(r(0, np.inf), r(-1, np.inf), f32) == (0, np.inf)  # type: ignore[arg-type]
    assert intersection(r(np.nan, None), r(None, None), f32) is None  # type: ignore[arg-type]
    assert intersection(r(0, 1), r(None, None), ir.DataType.BFLOAT16) is None  # type: ignore[arg-type]
