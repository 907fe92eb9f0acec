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


@pytest.mark.parametrize(("attrs", "w"), [("", "[2,3]"), ("<transB=1>", "[3,2]")])
def test_gemm_to_matmul_add(attrs: str, w: str) -> None:
    # 0.7.2's gemm_to_matmul_add_rule left every Gemm we gave it unchanged.
    text = f"""g (float[4,2] x, float{w} w, float[3] c) => (float[4,3] z) {{
  z = Gemm{attrs}(x, w, c) }}"""
    result = check_rule(text, [gemm_to_matmul_add_rule])
    assert "Gemm" not in op_types(result) and op_types(result)[-2:] == ["MatMul", "Add"]


@pytest.mark.parametrize("attrs", ["<alpha=2.0>", "<transA=1>"])
def test_gemm_to_matmul_add_refused(attrs: str) -> None:
    x = "[2,4]" if "transA" in attrs else "[4,2]"
    text = f"""g (float{x} x, float[2,3] w, float[3] c) => (float[4,3] z) {{
  z = Gemm{attrs}(x, w, c) }}"""
    assert op_types(check_rule(text, [gemm_to_matmul_add_rule])) == ["Gemm"]
