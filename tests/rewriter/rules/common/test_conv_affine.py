"""Scalar affine maps folded into Conv. Op-type lists marked "0.7.2" were computed by
running onnxscript 0.7.2's ``rewriter.rewrite(model, pattern_rewrite_rules=[rule])`` on
the same model text."""

from __future__ import annotations

import numpy as np
import pytest

from onnxscript.rewriter.rules.common import affine_conv_fusion_rule, conv_affine_fusion_rule
from tests.rewriter.rule_checks import check_rule, op_types

W = ",".join(str(v) for v in np.round(np.linspace(-1, 1, 54), 3))


def conv_affine(bias: bool, scale: str = "float s = {2}", offset: str = "float o = {1}") -> str:
    inits = f"float[3,2,3,3] w = {{{W}}}, float[3] cb = {{1,-1,0.5}}, {scale}, {offset}"
    return f"""g (float[1,2,5,5] x) => (float[a,b,c,d] z) <{inits}> {{
  y = Conv(x, w{", cb" if bias else ""})
  m = Mul(y, s)
  z = Add(m, o) }}"""


def affine_conv(bias: bool, conv_attrs: str = "") -> str:
    inits = (
        f"float[3,2,3,3] w = {{{W}}}, float[3] cb = {{1,-1,0.5}}, float s = {{2}}, float o = {{1}}"
    )
    return f"""g (float[1,2,5,5] x) => (float[a,b,c,d] z) <{inits}> {{
  m = Mul(x, s)
  a = Add(m, o)
  z = Conv{conv_attrs}(a, w{", cb" if bias else ""}) }}"""


@pytest.mark.parametrize("bias", [True, False])  # 0.7.2: ['Conv'] with bias; none without
def test_conv_affine(bias: bool) -> None:
    result = check_rule(conv_affine(bias), [conv_affine_fusion_rule], rtol=1e-4)
    assert op_types(result) == ["Conv"]


def test_conv_affine_per_channel_refused() -> None:
    # 0.7.2 leaves it alone too.
    text = conv_affine(True, "float[3,1,1] s = {1,2,3}", "float[3,1,1] o = {1,2,3}")
    assert "Mul" in op_types(check_rule(text, [conv_affine_fusion_rule]))


@pytest.mark.parametrize("bias", [True, False])
def test_affine_conv(bias: bool) -> None:
    # 0.7.2's affine_conv_fusion_rule left these unchanged.
    result = check_rule(affine_conv(bias), [affine_conv_fusion_rule], rtol=1e-4, atol=1e-4)
    assert op_types(result) == ["Conv"]


def test_affine_conv_padded_refused() -> None:
    text = affine_conv(True, "<pads=[1,1,1,1]>")
    assert "Mul" in op_types(check_rule(text, [affine_conv_fusion_rule]))
