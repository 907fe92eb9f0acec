"""An Expand removed before a broadcasting binary op (0.7.2's
``expand_before_binary_op_rules``): the op's own broadcasting gives the same result."""

from __future__ import annotations

import pytest

from onnxscript.rewriter.rules.common import expand_before_binary_op_rules
from onnxscript.rewriter.rules.common.expand_before_binary_op import BINARY_OPS, broadcast
from tests.rewriter.rule_checks import check_rule, op_types


def model(x: str, y: str, out: str, shape: list[int], op: str, first: bool = True) -> str:
    inputs = "expanded, y" if first else "y, expanded"
    return f"""g (float{x} x, float{y} y) => (float{out} z) {{
  shape = Constant<value = int64[{len(shape)}] {{{", ".join(map(str, shape))}}}>()
  expanded = Expand(x, shape)
  z = {op}({inputs}) }}"""


def rewritten(text: str) -> list[str]:
    result = check_rule(text, expand_before_binary_op_rules.rules, sizes={"N": 4}, opset=18)
    return [t for t in op_types(result) if t != "Constant"]


@pytest.mark.parametrize("op", ["Add", "Sub", "Mul", "Div", "Pow"])
def test_same_shape(op: str) -> None:
    assert rewritten(model("[3,4]", "[3,4]", "[3,4]", [3, 4], op)) == [op]


@pytest.mark.parametrize(
    ("x", "y", "out", "shape", "first"),
    [
        ("[3,4]", "[4,3,4]", "[4,3,4]", [4, 3, 4], True),  # the other input broadcasts too
        ("[3,4]", "[4,3,4]", "[4,3,4]", [4, 3, 4], False),  # Expand on the second input
        ("[3]", "[4,1]", "[4,3]", [4, 3], True),
        ("[N,4]", "[N,4]", "[N,4]", [1, 4], True),  # symbolic dims compared by name
    ],
)
def test_broadcast_covered(x: str, y: str, out: str, shape: list[int], first: bool) -> None:
    assert rewritten(model(x, y, out, shape, "Add", first)) == ["Add"]


@pytest.mark.parametrize(
    ("x", "y", "out", "shape"),
    [
        ("[3]", "[1]", "[4,3]", [4, 3]),  # without the Expand the result is [3]
        ("[N]", "[3,4]", "[3,4]", [3, 4]),  # N may be 1 or 4
    ],
)
def test_kept_when_the_result_would_change(x: str, y: str, out: str, shape: list[int]) -> None:
    assert "Expand" in rewritten(model(x, y, out, shape, "Add"))


def test_prelu_slope_must_broadcast_to_the_input() -> None:
    # PRelu(Expand(x), slope) with x smaller than slope: the slope would not broadcast.
    text = model("[1,4]", "[3,4]", "[3,4]", [3, 4], "PRelu")
    assert "Expand" in rewritten(text)
    assert rewritten(model("[3,4]", "[4]", "[3,4]", [3, 4], "PRelu")) == ["PRelu"]


def test_rule_names_as_072() -> None:
    names = [r.name for r in expand_before_binary_op_rules.rules]
    assert names[:4] == [
        "ExpandFirst_Add",
        "ExpandSecond_Add",
        "ExpandFirst_And",
        "ExpandSecond_And",
    ]
    assert len(names) == 2 * len(BINARY_OPS) == 38


def test_broadcast() -> None:
    assert broadcast([3, 1], [4]) == [3, 4]
    assert broadcast(["N", 4], [1, 4]) == ["N", 4]
    assert broadcast(["N"], [4]) is None
