"""Successive Relu and Clip merged into one Clip only when it computes the same on every
value, infinities and NaN included: a Clip's absent bound is its type's lowest or largest
number (``Clip(x)`` turns inf into 3.4e38 on floats), a Relu's upper bound is inf."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import pytest

from onnxscript import rewriter
from onnxscript.rewriter.rules.common import (
    successive_clip_relu_rule,
    successive_clip_rule,
    successive_relu_clip_rule,
)
from tests.helpers import assert_transform_keeps_results

RULES = [successive_clip_rule, successive_clip_relu_rule, successive_relu_clip_rule]
SPECIAL = np.array([-np.inf, -5.0, -0.5, 0.0, 0.5, 5.0, np.inf, np.nan], np.float32)


def _model(body: str) -> onnx.ModelProto:
    text = (
        '<ir_version: 10, opset_import: ["" : 18]>\n'
        "g (float[8] X) => (float[8] Y) {\n"
        "  lo = Constant<value=float {-1.0}>()\n"
        "  hi = Constant<value=float {2.0}>()\n"
        "  zero = Constant<value=float {0.0}>()\n"
        "  ninf = Constant<value=float {-inf}>()\n"
        "  inf = Constant<value=float {inf}>()\n"
        f"  {body} }}"
    )
    model = onnx.parser.parse_model(text)
    onnx.checker.check_model(model, full_check=True)
    return model


@pytest.mark.parametrize(
    ("body", "merged"),
    [
        # max=-inf then a Clip without bounds: -inf becomes the lowest float; not one Clip
        ("a = Clip(X, , ninf)\n Y = Clip(a)", False),
        ("a = Clip(X)\n Y = Clip(a, , ninf)", False),
        # a Relu keeps inf, a Clip without max makes it 3.4e38: one Clip(x, 0)
        ("a = Relu(X)\n Y = Clip(a)", True),
        ("a = Clip(X)\n Y = Relu(a)", True),
        ("a = Clip(X, zero, inf)\n Y = Clip(a)", True),
        ("a = Clip(X, ninf, inf)\n Y = Clip(a, lo, inf)", True),
        ("a = Clip(X, lo, hi)\n Y = Clip(a, zero)", True),
        ("a = Relu(X)\n Y = Clip(a, lo, hi)", True),
        ("a = Clip(X, hi, lo)\n Y = Clip(a)", False),  # min > max: all max
    ],
)
def test_merged_clips_compute_the_same_on_infinities_and_nan(body: str, merged: bool):
    model = _model(body)
    result = rewriter.rewrite(model, pattern_rewrite_rules=RULES)
    assert_transform_keeps_results(model, result, {"X": SPECIAL})
    count = sum(n.op_type in ("Clip", "Relu") for n in result.graph.node)
    assert count == (1 if merged else 2)
