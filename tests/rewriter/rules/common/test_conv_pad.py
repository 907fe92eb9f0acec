"""Explicit Conv padding and Pad folded into Conv / ConvInteger. Op-type lists marked
"0.7.2" were computed by running onnxscript 0.7.2's ``rewriter.rewrite(model,
pattern_rewrite_rules=[rule])`` on the same model text."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx.reference import ReferenceEvaluator

from onnxscript import rewriter
from onnxscript.rewriter.rules.common import (
    fuse_pad_into_conv_integer_rule,
    fuse_pad_into_conv_rule,
    normalize_pad_format_conv_integer_rule,
    normalize_pad_format_conv_rule,
)
from tests.rewriter.rule_checks import check_rule, op_types, parse, random_inputs, run


def attrs(model: onnx.ModelProto, index: int = -1) -> dict[str, object]:
    node = model.graph.node[index]
    return {a.name: onnx.helper.get_attribute_value(a) for a in node.attribute}


def conv(x: str, w: str, attributes: str, out: str = "[a,b,c,d]") -> str:
    return f"""
g (float{x} x, float{w} w) => (float{out} z) {{
  z = Conv<{attributes}>(x, w)
}}"""


@pytest.mark.parametrize(
    ("x", "w", "attributes", "pads"),
    [
        ("[1,2,5,5]", "[3,2,3,3]", 'auto_pad="SAME_UPPER"', [1, 1, 1, 1]),  # 0.7.2 same
        ("[1,2,6,6]", "[3,2,4,4]", 'auto_pad="SAME_UPPER", strides=[2,2]', [1, 1, 1, 1]),
        ("[1,2,6,6]", "[3,2,4,4]", 'auto_pad="SAME_LOWER", strides=[2,2]', [1, 1, 1, 1]),
        ("[1,2,6,6]", "[3,2,2,2]", 'auto_pad="SAME_UPPER"', [0, 0, 1, 1]),
        ("[1,2,6,6]", "[3,2,2,2]", 'auto_pad="SAME_LOWER"', [1, 1, 0, 0]),
        ("[1,2,H,W]", "[3,2,3,3]", 'auto_pad="VALID"', [0, 0, 0, 0]),  # 0.7.2: refused
    ],
)
def test_normalize(x: str, w: str, attributes: str, pads: list[int]) -> None:
    # As 0.7.2: auto_pad="NOTSET" written, with the pads.
    result = check_rule(conv(x, w, attributes), [normalize_pad_format_conv_rule])
    found = attrs(result)
    assert found.get("auto_pad") == b"NOTSET" and found.get("pads") == pads


def test_normalize_dilated() -> None:
    # onnxruntime refuses SAME with dilations, so the reference evaluator runs the
    # original. 0.7.2 gives pads [1, 1, 1, 1] here, which changes the output's shape.
    text = conv("[1,2,7,7]", "[3,2,3,3]", 'auto_pad="SAME_UPPER", dilations=[2,2]')
    model = parse(text)
    result = rewriter.rewrite(model, pattern_rewrite_rules=[normalize_pad_format_conv_rule])
    onnx.checker.check_model(result, full_check=True)
    assert attrs(result)["pads"] == [2, 2, 2, 2]
    feeds = random_inputs(model)
    (expected,) = ReferenceEvaluator(model).run(None, feeds)
    (actual,) = run(result, feeds)
    np.testing.assert_allclose(actual, expected, rtol=1e-5, atol=1e-5)


def test_normalize_symbolic_same_refused() -> None:
    text = conv("[1,2,H,W]", "[3,2,3,3]", 'auto_pad="SAME_LOWER"')
    result = check_rule(text, [normalize_pad_format_conv_rule])  # 0.7.2: unchanged too
    assert attrs(result)["auto_pad"] == b"SAME_LOWER"


def test_normalize_conv_integer() -> None:
    text = """
g (uint8[1,2,5,5] x, uint8[3,2,3,3] w) => (int32[a,b,c,d] z) {
  z = ConvInteger<auto_pad="SAME_UPPER">(x, w)
}"""
    result = check_rule(text, [normalize_pad_format_conv_integer_rule])
    assert attrs(result) == {"auto_pad": b"NOTSET", "pads": [1, 1, 1, 1]}


def padded(pads: str, extra: str = "", conv_attrs: str = "", pad_attrs: str = "") -> str:
    count = pads.count(",") + 1
    return f"""
g (float[1,2,5,5] x, float[3,2,3,3] w) => (float[a,b,c,d] z) {{
  p = Constant<value=int64[{count}] {{{pads}}}>()
  {extra}
  y = Pad{pad_attrs}(x, p{", cv" if "cv =" in extra else ""}{", , ax" if "ax =" in extra else ""})
  z = Conv{conv_attrs}(y, w)
}}"""


@pytest.mark.parametrize(
    ("text", "pads"),
    [
        (padded("0,0,1,2,0,0,1,2", conv_attrs="<pads=[1,1,1,1]>"), [2, 3, 2, 3]),  # 0.7.2
        (padded("0,0,1,2,0,0,1,2", "cv = Constant<value=float {0}>()"), [1, 2, 1, 2]),
        (padded("1,2,1,2", "ax = Constant<value=int64[2] {2,3}>()"), [1, 2, 1, 2]),
        (padded("1,2,1,2", "ax = Constant<value=int64[2] {-2,-1}>()"), [1, 2, 1, 2]),
        (padded("0,0,1,2,0,0,1,2", conv_attrs='<auto_pad="VALID">'), [1, 2, 1, 2]),
    ],
)
def test_fuse_pad(text: str, pads: list[int]) -> None:
    # 0.7.2: ['Conv'] with the same pads for the first four.
    result = check_rule(text, [fuse_pad_into_conv_rule])
    assert op_types(result) == ["Conv"]
    assert attrs(result)["pads"] == pads


@pytest.mark.parametrize(
    "text",
    [
        padded("0,0,1,2,0,0,1,2", "cv = Constant<value=float {1}>()"),  # pads with 1
        padded("0,0,1,2,0,0,1,2", pad_attrs='<mode="reflect">'),
        padded("0,0,-1,0,0,0,0,0"),  # crops
        padded("0,0,1,2,0,0,1,2", conv_attrs='<auto_pad="SAME_UPPER">'),
    ],
)
def test_fuse_pad_refused(text: str) -> None:
    # 0.7.2 leaves each alone too.
    assert "Pad" in op_types(check_rule(text, [fuse_pad_into_conv_rule]))


def test_fuse_pad_on_channels_refused() -> None:
    text = padded("0,1,1,2,0,0,1,2").replace("float[3,2,3,3] w", "float[3,3,3,3] w")
    assert "Pad" in op_types(check_rule(text, [fuse_pad_into_conv_rule]))


def conv_integer(pad_value: str, zero_point: str) -> str:
    pad_input = ", zpp" if pad_value else ""
    conv_input = ", zp" if zero_point else ""
    return f"""
g (uint8[1,2,5,5] x, uint8[3,2,3,3] w) => (int32[a,b,c,d] z) {{
  p = Constant<value=int64[8] {{0,0,1,2,0,0,1,2}}>()
  zpp = Constant<value=uint8 {{{pad_value or 0}}}>()
  zp = Constant<value=uint8 {{{zero_point or 0}}}>()
  y = Pad(x, p{pad_input})
  z = ConvInteger(y, w{conv_input})
}}"""


@pytest.mark.parametrize(("pad_value", "zero_point"), [("", ""), ("3", "3"), ("", "0")])
def test_fuse_pad_conv_integer(pad_value: str, zero_point: str) -> None:
    # 0.7.2 fuses the first, leaves the second (pad value = zero point) alone.
    result = check_rule(conv_integer(pad_value, zero_point), [fuse_pad_into_conv_integer_rule])
    assert "Pad" not in op_types(result)
    assert attrs(result)["pads"] == [1, 2, 1, 2]


def test_fuse_pad_conv_integer_zero_point_refused() -> None:
    # 0.7.2 folds this Pad of 0 (ConvInteger pads with its zero point 3) and so changes
    # the result; we leave it.
    result = check_rule(conv_integer("", "3"), [fuse_pad_into_conv_integer_rule])
    assert "Pad" in op_types(result)


@pytest.mark.parametrize(
    ("pads", "extra", "pad_attrs", "reason"),
    [
        ("0,1,0,0,0,1,0,0", "", "", "must be zero in non-spatial dimensions"),
        ("0,0,-1,0,0,0,0,0", "", "", "must not contain negative values"),
        ("0,0,1,1,0,0,1,1", "", '<mode="edge">', "mode must be 'constant'"),
        ("0,0,1,1,0,0,1,1", "cv = Constant<value=float {1.0}>()", "", "must be equal to 0"),
    ],
)
def test_fuse_pad_refusal_reasons(pads: str, extra: str, pad_attrs: str, reason: str) -> None:
    # The tracer says why, in 0.7.2's words (its tests match them).
    from onnxscript import ir
    from onnxscript.rewriter import MatchingTracer

    model = ir.from_proto(parse(padded(pads, extra, pad_attrs=pad_attrs)))
    tracer = MatchingTracer()
    assert fuse_pad_into_conv_rule.apply_to_model(model, tracer=tracer) == 0
    (best,) = tracer.best_matches_map[fuse_pad_into_conv_rule]
    assert reason in best.match_result.reason
