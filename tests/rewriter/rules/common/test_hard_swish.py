"""HardSigmoid and HardSwish from their decompositions (0.7.2's ``fuse_hardswish_rules``;
the op lists are those 0.7.2's own tests expect)."""

from __future__ import annotations

import pytest

from onnxscript.rewriter.rules.common import fuse_hardswish_rules
from tests.rewriter.rule_checks import check_rule, op_types

CONSTANTS = """
  three = Constant<value = float[1] {3.0}>()
  six = Constant<value = float[1] {6.0}>()
  zero = Constant<value = float[1] {0.0}>()
  shifted = Add(x, three)
  clipped = Clip(shifted, zero, six)
"""


def model(body: str, constants: str = CONSTANTS) -> str:
    return f"g (float[N] x) => (float[N] y) {{{constants}{body}}}"


def fused(text: str) -> list[str]:
    result = check_rule(text, fuse_hardswish_rules().rules, sizes={"N": 16}, opset=18)
    return [t for t in op_types(result) if t != "Constant"]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("  y = Div(clipped, six)\n", ["HardSigmoid"]),
        ("  m = Mul(clipped, x)\n  y = Div(m, six)\n", ["HardSwish"]),
        ("  m = Mul(x, clipped)\n  y = Div(m, six)\n", ["HardSwish"]),  # commuted
        ("  d = Div(clipped, six)\n  y = Mul(d, x)\n", ["HardSwish"]),  # via HardSigmoid
    ],
)
def test_fused(body: str, expected: list[str]) -> None:
    assert fused(model(body)) == expected


def test_from_hard_sigmoid() -> None:
    text = model("  h = HardSigmoid<alpha=0.16666666, beta=0.5>(x)\n  y = Mul(h, x)\n", "\n")
    assert fused(text) == ["HardSwish"]


@pytest.mark.parametrize(
    "text",
    [
        model("  y = Div(clipped, six)\n", CONSTANTS.replace("{3.0}", "{2.0}")),
        model("  y = Div(clipped, six)\n", CONSTANTS.replace("{6.0}", "{5.0}")),
        model("  h = HardSigmoid<alpha=0.2, beta=0.5>(x)\n  y = Mul(h, x)\n", "\n"),
    ],
)
def test_other_constants_are_not_fused(text: str) -> None:
    assert "HardSigmoid" in fused(text) or "Clip" in fused(text)
    assert "HardSwish" not in fused(text)
