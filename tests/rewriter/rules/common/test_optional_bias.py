"""Zero biases dropped. Op-type lists marked "0.7.2" were computed by running
onnxscript 0.7.2's ``rewriter.rewrite(model, pattern_rewrite_rules=[rule])`` on the same
model text."""

from __future__ import annotations

import pytest

from onnxscript.rewriter.rules.common import (
    remove_optional_bias_from_conv_rule,
    remove_optional_bias_from_conv_transpose_rule,
    remove_optional_bias_from_gemm_rule,
    remove_optional_bias_from_qlinear_conv_rule,
)
from tests.rewriter.rule_checks import check_rule

CONV = """g (float[1,2,5,5] x, float[3,2,3,3] w) => (float[a,b,c,d] z) <float[3] cb = {B}> {
  z = Conv(x, w, cb) }"""
CONV_T = """g (float[1,2,5,5] x, float[2,3,3,3] w) => (float[a,b,c,d] z) <float[3] cb = {B}> {
  z = ConvTranspose(x, w, cb) }"""
GEMM = """g (float[4,2] x, float[2,3] w) => (float[a,b] z) <float[3] cb = {B}> {
  z = Gemm<beta=2.0>(x, w, cb) }"""
QCONV = """g (uint8[1,2,5,5] x, uint8[3,2,3,3] w) => (uint8[a,b,c,d] z)
  <float xs = {0.1}, uint8 xz = {0}, float[3] ws = {0.1,0.1,0.1}, uint8[3] wz = {0,0,0},
   float ys = {0.2}, uint8 yz = {0}, int32[3] cb = {B}> {
  z = QLinearConv(x, xs, xz, w, ws, wz, ys, yz, cb) }"""

CASES = [
    (CONV, remove_optional_bias_from_conv_rule, 2),
    (CONV_T, remove_optional_bias_from_conv_transpose_rule, 2),
    (GEMM, remove_optional_bias_from_gemm_rule, 2),
    (QCONV, remove_optional_bias_from_qlinear_conv_rule, 8),
]


@pytest.mark.parametrize(("text", "rule", "count"), CASES)
def test_zero_bias_removed(text: str, rule: object, count: int) -> None:
    # 0.7.2 drops each of these biases too.
    result = check_rule(text.replace("{B}", "{0,0,0}"), [rule])
    assert len(result.graph.node[0].input) == count


@pytest.mark.parametrize(("text", "rule", "count"), CASES)
def test_nonzero_bias_kept(text: str, rule: object, count: int) -> None:
    result = check_rule(text.replace("{B}", "{0,1,0}"), [rule])
    assert len(result.graph.node[0].input) == count + 1


def test_bias_input_kept() -> None:
    text = """g (float[1,2,5,5] x, float[3,2,3,3] w, float[3] cb) => (float[a,b,c,d] z) {
  z = Conv(x, w, cb) }"""
    result = check_rule(text, [remove_optional_bias_from_conv_rule])
    assert len(result.graph.node[0].input) == 3


@pytest.mark.parametrize(("opset", "count"), [(10, 3), (11, 2)])
def test_gemm_bias_is_required_before_opset_11(opset: int, count: int) -> None:
    """Gemm's C is optional from opset 11: before, a zero C stays."""
    result = check_rule(
        GEMM.replace("{B}", "{0,0,0}"), [remove_optional_bias_from_gemm_rule], opset=opset
    )
    assert len(result.graph.node[0].input) == count
