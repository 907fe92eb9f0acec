"""Reshape-MatMul-Reshape to a broadcast MatMul.

The op-type lists marked "0.7.2" were computed by running onnxscript 0.7.2's
``rewriter.rewrite(model, pattern_rewrite_rules=[rule])`` on the same model text."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
import pytest

from onnxscript import rewriter
from onnxscript.rewriter.rules.common import (
    one_reshape_matmul_reshape_rule,
    two_reshapes_matmul_reshape_rule,
)
from tests.rewriter.rule_checks import check_rule, op_types, parse

ONE = """
g (float{x} x, float{y} y) => (float{z} z) {{
  s1 = Constant<value=int64[{n1}] {{{s1}}}>()
  r1 = Reshape(x, s1)
  m = MatMul(r1, y)
  s2 = Constant<value=int64[{n2}] {{{s2}}}>()
  z = Reshape(m, s2)
}}
"""

TWO = """
g (float{x} x, float{y} y) => (float{z} z) {{
  s1 = Constant<value=int64[{n1}] {{{s1}}}>()
  r1 = Reshape(x, s1)
  s0 = Constant<value=int64[{n0}] {{{s0}}}>()
  r0 = Reshape(y, s0)
  m = MatMul(r1, r0)
  s2 = Constant<value=int64[{n2}] {{{s2}}}>()
  z = Reshape(m, s2)
}}
"""


def one(x: str, y: str, s1: list[int], s2: list[int], z: str) -> str:
    return ONE.format(
        x=x, y=y, z=z, n1=len(s1), s1=",".join(map(str, s1)), n2=len(s2),
        s2=",".join(map(str, s2)),
    )  # fmt: skip


def two(x: str, y: str, s1: list[int], s0: list[int], s2: list[int], z: str) -> str:
    return TWO.format(
        x=x, y=y, z=z, n1=len(s1), s1=",".join(map(str, s1)), n0=len(s0),
        s0=",".join(map(str, s0)), n2=len(s2), s2=",".join(map(str, s2)),
    )  # fmt: skip


@pytest.mark.parametrize(
    "text",
    [
        one("[2,3,4]", "[4,5]", [6, 4], [2, 3, 5], "[2,3,5]"),  # 0.7.2: ['MatMul']
        one("[2,3,4]", "[4,5]", [1, 6, 4], [2, 3, 5], "[2,3,5]"),  # 0.7.2: ['MatMul']
        one("[6,4]", "[4,5]", [2, 3, 4], [6, 5], "[6,5]"),  # 0.7.2: ['MatMul']
        # 0.7.2 leaves these three alone (-1 entries, unit batch dims of y):
        one("[2,3,4]", "[4,5]", [-1, 4], [2, 3, -1], "[2,3,5]"),
        one("[2,3,4]", "[1,4,5]", [6, 4], [2, 3, 5], "[2,3,5]"),
    ],
)
def test_one_reshape_rewritten(text: str) -> None:
    result = check_rule(text, [one_reshape_matmul_reshape_rule])
    assert op_types(result) == ["MatMul"]


def test_one_reshape_symbolic_batch() -> None:
    # A symbolic batch dim: the final shape says -1 for it (0.7.2 leaves it alone).
    text = one("[B,3,4]", "[4,5]", [-1, 4], [-1, 3, 5], "[B,3,5]")
    result = check_rule(text, [one_reshape_matmul_reshape_rule], sizes={"B": 4})
    assert op_types(result) == ["MatMul"]


@pytest.mark.parametrize(
    "text",
    [
        one("[2,3,4]", "[4,5]", [6, 4], [3, 2, 5], "[3,2,5]"),  # batch dims regrouped
        one("[2,3,4]", "[4,5]", [6, 4], [6, 5], "[6,5]"),  # batch dims not restored
        one("[2,3,4]", "[4,5]", [6, 4], [1, 2, 3, 5], "[1,2,3,5]"),  # rank changed
        one("[2,12]", "[4,5]", [6, 4], [2, 3, 5], "[2,3,5]"),  # K merged into rows
        one("[2,3,4]", "[3,4,5]", [3, 2, 4], [2, 3, 5], "[2,3,5]"),  # y batched
        one("[B,3,4]", "[4,5]", [-1, 4], [2, 3, 5], "[B,3,5]"),  # B unknown vs 2
    ],
)
def test_one_reshape_refused(text: str) -> None:
    # 0.7.2 leaves each of these unchanged too.
    result = check_rule(text, [one_reshape_matmul_reshape_rule], sizes={"B": 2})
    assert op_types(result) == ["Constant", "Reshape", "MatMul", "Constant", "Reshape"]


def test_one_reshape_unknown_shapes_refused() -> None:
    # 0.7.2 raises here (x without a shape); we leave the graph alone.
    text = one("[2,3,4]", "[4,5]", [6, 4], [2, 3, 5], "[2,3,5]").replace(
        "float[2,3,4] x", "float x"
    )
    feeds = {"x": np.ones((2, 3, 4), np.float32), "y": np.ones((4, 5), np.float32)}
    result = check_rule(text, [one_reshape_matmul_reshape_rule], feeds=feeds)
    assert op_types(result).count("Reshape") == 2


@pytest.mark.parametrize(
    "text",
    [
        two("[2,3,4]", "[4,5]", [6, 4], [4, 5], [2, 3, 5], "[2,3,5]"),  # 0.7.2: ['MatMul']
        two("[2,3,4]", "[4,5]", [6, 4], [1, 4, 5], [2, 3, 5], "[2,3,5]"),  # 0.7.2: ['MatMul']
        two("[2,3,4]", "[2,4,5]", [2, 3, 4], [2, 4, 5], [2, 3, 5], "[2,3,5]"),  # 0.7.2: same
        two("[6,4]", "[4,5]", [2, 3, 4], [4, 5], [6, 5], "[6,5]"),  # 0.7.2: ['MatMul']
        two("[2,3,4]", "[1,4,5]", [6, 4], [4, 5], [2, 3, 5], "[2,3,5]"),  # 0.7.2: refused
    ],
)
def test_two_reshapes_rewritten(text: str) -> None:
    result = check_rule(text, [two_reshapes_matmul_reshape_rule])
    assert op_types(result) == ["MatMul"]


@pytest.mark.parametrize(
    "text",
    [
        two("[2,3,4]", "[20]", [6, 4], [4, 5], [2, 3, 5], "[2,3,5]"),  # y regrouped
        two("[2,3,4]", "[5,4]", [6, 4], [4, 5], [2, 3, 5], "[2,3,5]"),  # y reinterpreted
    ],
)
def test_two_reshapes_refused(text: str) -> None:
    # 0.7.2 leaves both unchanged.
    result = check_rule(text, [two_reshapes_matmul_reshape_rule])
    assert op_types(result).count("Reshape") == 3


def test_metadata_of_replaced_nodes_kept() -> None:
    model = ir.from_proto(parse(one("[2,3,4]", "[4,5]", [6, 4], [2, 3, 5], "[2,3,5]")))
    for node in model.graph:
        node.metadata_props["namespace"] = f"from {node.op_type}"
    rewriter.rewrite(model, pattern_rewrite_rules=[one_reshape_matmul_reshape_rule])
    (matmul,) = model.graph
    assert matmul.metadata_props["namespace"] == "from Reshape"  # the root's comes first
    assert rewriter.RULE_NAME_TAG not in matmul.metadata_props  # as 0.7.2: no rule tag


@pytest.mark.parametrize(
    "text",
    [
        # Reshapes that only drop or add leading 1 dims (MatMul broadcasts past them).
        two("[1,4,6,5]", "[1,4,5,3]", [4, 6, 5], [4, 5, 3], [1, 4, 6, 3], "[1,4,6,3]"),
        # A vector made a row, and a vector made a column.
        two("[4]", "[2,3,4,5]", [1, 4], [2, 3, 4, 5], [2, 3, 5], "[2,3,5]"),
        two("[2,3,4,5]", "[5]", [2, 3, 4, 5], [5, 1], [2, 3, 4], "[2,3,4]"),
    ],
)
def test_reshapes_of_unit_dims_rewritten(text: str) -> None:
    result = check_rule(text, [two_reshapes_matmul_reshape_rule])
    assert op_types(result) == ["MatMul"]
