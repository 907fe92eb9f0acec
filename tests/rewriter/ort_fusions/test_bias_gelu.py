"""Add(bias) + Gelu to com.microsoft BiasGelu (exact) and FastGelu with a bias (tanh):
bias forms and what must not fuse, outputs equal in onnxruntime. (The BERT export's
BiasGelu count is checked in test_skip_normalization.)"""

from __future__ import annotations

import pytest

from onnxscript.rewriter.ort_fusions.bias_gelu import fuse_bias_gelu
from tests.rewriter.ort_fusions.fusing import fuse_and_compare, input_names, ops

HEADER = '<ir_version: 10, opset_import: ["" : 20, "com.microsoft" : 1]>\n'
BIAS = "float[8] bias = {1, -1, 0.5, 2, 0, -2, 3, 0.25}"


def model(body: str, x: str = "float[B,S,8] x", weights: str = BIAS, outputs: str = "") -> str:
    output = x.rsplit(" ", 1)[0] + " y"
    return HEADER + f"g ({x}) => ({output}{outputs}) <{weights}> {{\n{body}\n}}"


@pytest.mark.parametrize(
    "body",
    [
        "h = Add(x, bias)\n y = Gelu(h)",
        'h = Add(bias, x)\n y = Gelu <approximate = "none"> (h)',
        "h = Add(x, bias)\n y = com.microsoft.Gelu(h)",
    ],
)
def test_exact_gelu_becomes_bias_gelu(body: str) -> None:
    fused = fuse_and_compare(model(body), fuse_bias_gelu, 1, check_input=False)
    assert ops(fused) == ["com.microsoft::BiasGelu"]
    assert input_names(fused.graph.node(0)) == ["x", "bias"]


@pytest.mark.parametrize(
    "body",
    [
        'h = Add(x, bias)\n y = Gelu <approximate = "tanh"> (h)',
        "h = Add(bias, x)\n y = com.microsoft.FastGelu(h)",
    ],
)
def test_tanh_gelu_becomes_fast_gelu_with_bias(body: str) -> None:
    fused = fuse_and_compare(model(body), fuse_bias_gelu, 1, check_input=False)
    assert ops(fused) == ["com.microsoft::FastGelu"]
    assert len(fused.graph.node(0).inputs) == 2


def test_bias_as_input_and_two_dimensional_x() -> None:
    text = model("h = Add(x, b)\n y = Gelu(h)", x="float[T,8] x", weights="float unused = {0}")
    text = text.replace("(float[T,8] x)", "(float[T,8] x, float[8] b)")
    fuse_and_compare(text, fuse_bias_gelu, 1)


@pytest.mark.parametrize(
    "x, weights, outputs",
    [
        ("float[B,S,8] x", "float[1,8] bias = {1, 2, 3, 4, 5, 6, 7, 8}", ""),  # 2-D bias
        ("float[B,S,1] x", BIAS, ""),  # the bias broadcasts x
        ("float[B,S,8] x", BIAS, ", float[B,S,8] h"),  # the sum used elsewhere
    ],
)
def test_does_not_fuse(x: str, weights: str, outputs: str) -> None:
    text = model("h = Add(x, bias)\n y = Gelu(h)", x=x, weights=weights, outputs=outputs)
    if "S,1] x" in x:
        text = text.replace("=> (float[B,S,1] y", "=> (float[B,S,8] y")
    fused = fuse_and_compare(text, fuse_bias_gelu, 0)
    assert "com.microsoft::BiasGelu" not in ops(fused)


def test_debug_reports_why_nothing_fused(capsys: pytest.CaptureFixture[str]) -> None:
    text = model(
        "h = Add(x, bias)\n y = Gelu(h)", weights="float[1,8] bias = {1, 2, 3, 4, 5, 6, 7, 8}"
    )
    fuse_and_compare(text, lambda m: fuse_bias_gelu(m, debug=True), 0)
    assert "1-D" in capsys.readouterr().out
