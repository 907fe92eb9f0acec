"""Gemm to MatMul + Add and back. Op-type lists marked "0.7.2" were computed by running
onnxscript 0.7.2's ``rewriter.rewrite(model, pattern_rewrite_rules=[rule])`` on the same
model text."""

from __future__ import annotations

import pytest

from onnxscript.rewriter.rules.common import (
    gemm_to_matmul_add_rule,
    matmul_add_to_gemm_rule,
    transpose_a_matmul_add_to_gemm_rule,
    transpose_ab_matmul_add_to_gemm_rule,
    transpose_b_matmul_add_to_gemm_rule,
)
from tests.rewriter.rule_checks import check_rule, op_types


def matmul_add(
    x: str, w: str, c: str, left: str = "x", right: str = "w", add: str = "y, c", out: str = "[p,q]"
) -> str:
    ta = "ta = Transpose<perm=[1,0]>(x)" if left == "ta" else ""
    tb = "tb = Transpose<perm=[1,0]>(w)" if right == "tb" else ""
    return f"""g (float{x} x, float{w} w, float{c} c) => (float{out} z) {{
  {ta}
  {tb}
  y = MatMul({left}, {right})
  z = Add({add}) }}"""


@pytest.mark.parametrize(
    ("text", "rule", "attrs"),
    [
        (matmul_add("[4,2]", "[2,3]", "[3]"), matmul_add_to_gemm_rule, {}),  # 0.7.2: Gemm
        (matmul_add("[N,2]", "[2,3]", "[3]"), matmul_add_to_gemm_rule, {}),  # 0.7.2: Gemm
        (matmul_add("[4,2]", "[2,3]", "[4,3]"), matmul_add_to_gemm_rule, {}),  # 0.7.2: Gemm
        (matmul_add("[4,2]", "[2,3]", "[4,1]"), matmul_add_to_gemm_rule, {}),
        (
            matmul_add("[2,4]", "[2,3]", "[3]", left="ta"),
            transpose_a_matmul_add_to_gemm_rule,
            {"transA": 1},
        ),  # 0.7.2: Gemm transA
        (
            matmul_add("[4,2]", "[3,2]", "[3]", right="tb"),
            transpose_b_matmul_add_to_gemm_rule,
            {"transB": 1},
        ),
        (
            matmul_add("[2,4]", "[3,2]", "[3]", left="ta", right="tb"),
            transpose_ab_matmul_add_to_gemm_rule,
            {"transA": 1, "transB": 1},
        ),
    ],
)
def test_to_gemm(text: str, rule: object, attrs: dict[str, int]) -> None:
    result = check_rule(text, [rule], sizes={"N": 5})
    gemm = [n for n in result.graph.node if n.op_type == "Gemm"]
    assert len(gemm) == 1 and "MatMul" not in op_types(result)
    assert {a.name: a.i for a in gemm[0].attribute} == attrs


@pytest.mark.parametrize(
    "text",
    [
        matmul_add("[5,4,2]", "[2,3]", "[3]", out="[p,q,r]"),  # rank 3 (0.7.2: unchanged)
        matmul_add("[4,2]", "[2,3]", "[3]", add="c, y"),  # not commuted (0.7.2: unchanged)
        matmul_add("[4,2]", "[2,3]", "[2,4,3]", out="[p,q,r]"),  # the addend broadcasts the product
        matmul_add("[N,2]", "[2,3]", "[M,3]"),  # M unknown against N
    ],
)
def test_to_gemm_refused(text: str) -> None:
    result = check_rule(text, [matmul_add_to_gemm_rule], sizes={"N": 4, "M": 4})
    assert "MatMul" in op_types(result)


def reshape_gemm_reshape(x: str, flat: str, c: str, out: str, attrs: str = "") -> str:
    return f"""g (float{x} x, float[3,5] w, float{c} c) => (float{out} z) {{
  s1 = Constant<value_ints={flat}>()
  r = Reshape(x, s1)
  y = Gemm{attrs}(r, w, c)
  s2 = Constant<value_ints={out}>()
  z = Reshape(y, s2) }}"""


@pytest.mark.parametrize(
    "text",
    [
        reshape_gemm_reshape("[2,4,3]", "[8,3]", "[5]", "[2,4,5]"),
        reshape_gemm_reshape("[2,4,3]", "[-1,3]", "[1,5]", "[2,4,5]"),
        reshape_gemm_reshape("[8,3]", "[8,3]", "[8,5]", "[8,5]"),  # nothing reshaped
    ],
)
def test_gemm_to_matmul_add(text: str) -> None:
    # 0.7.2's gemm_to_matmul_add_rule: Reshape-Gemm-Reshape -> MatMul + Add.
    result = check_rule(text, [gemm_to_matmul_add_rule])
    assert [t for t in op_types(result) if t != "Constant"] == ["MatMul", "Add"]


@pytest.mark.parametrize(
    "text",
    [
        reshape_gemm_reshape("[2,4,3]", "[8,3]", "[8,5]", "[2,4,5]"),  # a bias per row
        reshape_gemm_reshape("[2,4,3]", "[8,3]", "[5]", "[2,4,5]", "<alpha=2.0>"),
        reshape_gemm_reshape("[2,4,3]", "[8,3]", "[5]", "[4,2,5]"),  # rows regrouped
    ],
)
def test_gemm_to_matmul_add_refused(text: str) -> None:
    assert "Gemm" in op_types(check_rule(text, [gemm_to_matmul_add_rule]))


def test_plain_gemm_is_not_rewritten() -> None:
    text = """g (float[4,3] x, float[3,5] w, float[5] c) => (float[4,5] z) {
  z = Gemm(x, w, c) }"""
    assert op_types(check_rule(text, [gemm_to_matmul_add_rule])) == ["Gemm"]
