"""Residual Add + (Simplified)LayerNormalization to SkipSimplifiedLayerNormalization /
SkipLayerNormalization: bias forms, the sum used later, what must not fuse, outputs equal
in onnxruntime, a BERT export."""

from __future__ import annotations

import pytest

from onnxscript.rewriter.ort_fusions.bias_gelu import fuse_bias_gelu
from onnxscript.rewriter.ort_fusions.skip_normalization import (
    fuse_skip_layer_normalization,
    fuse_skip_rms_normalization,
)
from tests.rewriter.ort_fusions.fusing import (
    attributes,
    fuse_and_compare,
    fuse_export_and_compare,
    input_names,
    node,
    ops,
)

HEADER = '<ir_version: 10, opset_import: ["" : 20]>\n'
WEIGHTS = (
    "float[8] w = {1, 2, 3, 4, -1, -2, 0.5, 0.25}, float[8] b = {0, 1, 0, 1, 0, 1, 0, 1},"
    " float[8] bias = {1, 1, 1, 1, 2, 2, 2, 2}"
)
RMS = "y = SimplifiedLayerNormalization <axis = -1, epsilon = 1e-6, stash_type = 1> (h, w)"
LN = "y = LayerNormalization <axis = -1, epsilon = 1e-5> (h, w, b)"
SKIP_RMS = "com.microsoft::SkipSimplifiedLayerNormalization"
SKIP_LN = "com.microsoft::SkipLayerNormalization"


def model(
    body: str,
    x: str = "float[B,S,8]",
    skip: str = "",
    outputs: str = "",
    weights: str = WEIGHTS,
) -> str:
    signature = f"({x} x, {skip or x} r) => ({x} y{outputs})"
    return HEADER + f"g {signature} <{weights}> {{\n{body}\n}}"


def test_skip_rms_fuses() -> None:
    fused = fuse_and_compare(
        model("h = Add(x, r)\n" + RMS), fuse_skip_rms_normalization, 1, check_input=False
    )
    assert ops(fused) == [SKIP_RMS]
    skip_node = node(fused, "SkipSimplifiedLayerNormalization")
    assert attributes(skip_node) == {"epsilon": pytest.approx(1e-6)}
    assert input_names(skip_node) == ["x", "r", "w"]
    assert len(skip_node.outputs) == 1
    assert fused.opset_imports == {"": 20, "com.microsoft": 1}


@pytest.mark.parametrize(
    "sum_", ["h0 = Add(x, r)\nh = Add(h0, bias)", "h0 = Add(bias, x)\nh = Add(r, h0)"]
)
def test_skip_rms_with_bias(sum_: str) -> None:
    fused = fuse_and_compare(
        model(sum_ + "\n" + RMS), fuse_skip_rms_normalization, 1, check_input=False
    )
    assert ops(fused) == [SKIP_RMS]
    assert input_names(node(fused, "SkipSimplifiedLayerNormalization"))[3] == "bias"


def test_sum_used_later_is_the_fourth_output() -> None:
    text = model("h = Add(x, r)\n" + RMS.replace("y =", "n =") + "\ny = Add(h, n)")
    fused = fuse_and_compare(text, fuse_skip_rms_normalization, 1, check_input=False)
    assert ops(fused) == [SKIP_RMS, "Add"]
    skip_node = node(fused, "SkipSimplifiedLayerNormalization")
    assert len(skip_node.outputs) == 4
    assert {u.node.op_type for u in skip_node.outputs[3].uses()} == {"Add"}


def test_sum_as_graph_output_keeps_its_name() -> None:
    text = model("h = Add(x, r)\n" + RMS, outputs=", float[B,S,8] h")
    fused = fuse_and_compare(text, fuse_skip_rms_normalization, 1, check_input=False)
    assert [v.name for v in fused.graph.outputs] == ["y", "h"]
    assert fused.graph.outputs[1].producer() is node(fused, "SkipSimplifiedLayerNormalization")


def test_two_dimensional_tokens() -> None:
    text = model("h = Add(x, r)\n" + RMS, x="float[T,8]")
    fuse_and_compare(text, fuse_skip_rms_normalization, 1, check_input=False)


@pytest.mark.parametrize(
    "x, skip, body",
    [
        ("float[B,S,8]", "float[1,S,8]", "h = Add(x, r)\n" + RMS),  # broadcast skip
        ("float[A,B,S,8]", "", "h = Add(x, r)\n" + RMS),  # rank 4
        ("double[B,S,8]", "", "h = Add(x, r)\n" + RMS.replace("stash_type = 1", "stash_type = 11")),
        ("float[B,S,8]", "", "h = Add(x, r)\n" + RMS.replace("axis = -1", "axis = 1")),
        ("float[B,S,8]", "", "h = Add(x, r)\n" + RMS.replace("(h, w)", "(h, w2)")),
    ],
)
def test_skip_rms_does_not_fuse(x: str, skip: str, body: str) -> None:
    weights = WEIGHTS.replace("float[8] w", "double[8] w") if x.startswith("double") else WEIGHTS
    weights += ", float[1,8] w2 = {1, 2, 3, 4, 5, 6, 7, 8}"
    text = model(body, x=x, skip=skip, weights=weights)
    fused = fuse_and_compare(
        text, fuse_skip_rms_normalization, 0, check_input=False, sizes=({"A": 2, "B": 2, "S": 3},)
    )
    assert SKIP_RMS not in ops(fused)


def test_skip_layer_norm_fuses_with_and_without_beta() -> None:
    fused = fuse_and_compare(model("h = Add(x, r)\n" + LN), fuse_skip_layer_normalization, 1)
    assert ops(fused) == [SKIP_LN]
    assert input_names(node(fused, "SkipLayerNormalization")) == ["x", "r", "w", "b"]
    text = model("h = Add(r, x)\n" + LN.replace("(h, w, b)", "(h, w)"))
    fused = fuse_and_compare(text, fuse_skip_layer_normalization, 1)
    assert input_names(node(fused, "SkipLayerNormalization")) == ["r", "x", "w"]


@pytest.mark.parametrize(
    "sum_", ["h0 = Add(x, r)\nh = Add(bias, h0)", "h0 = Add(x, bias)\nh = Add(h0, r)"]
)
def test_skip_layer_norm_with_bias(sum_: str) -> None:
    fused = fuse_and_compare(model(sum_ + "\n" + LN), fuse_skip_layer_normalization, 1)
    names = input_names(node(fused, "SkipLayerNormalization"))
    assert names[2:] == ["w", "b", "bias"]


def test_skip_layer_norm_chain_shares_the_sum() -> None:
    body = (
        "h = Add(x, r)\n"
        + LN.replace("y =", "y1 =")
        + "\nh2 = Add(y1, h)\n"
        + LN.replace("(h,", "(h2,")
    )
    fused = fuse_and_compare(model(body), fuse_skip_layer_normalization, 2)
    assert ops(fused) == [SKIP_LN, SKIP_LN]


def test_skip_layer_norm_float16_default_axis() -> None:
    text = model(
        "h = Add(x, r)\ny = LayerNormalization <epsilon = 1e-5> (h, w, b)",
        x="float16[B,S,8]",
        weights="float unused = {0}",
    ).replace("float16[B,S,8] r)", "float16[B,S,8] r, float16[8] w, float16[8] b)")
    fused = fuse_and_compare(text, fuse_skip_layer_normalization, 1, rtol=5e-3, atol=5e-3)
    assert ops(fused) == [SKIP_LN]


def test_layer_norm_statistics_used_does_not_fuse() -> None:
    text = model(
        "h = Add(x, r)\ny, mu = LayerNormalization <axis = -1, epsilon = 1e-5> (h, w, b)",
        outputs=", float[B,S,1] mu",
    )
    fuse_and_compare(text, fuse_skip_layer_normalization, 0)


def test_debug_reports_why_nothing_fused(capsys: pytest.CaptureFixture[str]) -> None:
    text = model("h = Add(x, r)\n" + LN, skip="float[1,S,8]")
    fuse_and_compare(text, lambda m: fuse_skip_layer_normalization(m, debug=True), 0)
    assert "SkipLayerNorm" in capsys.readouterr().out


# 0.7.2's counts on the same export (its venv /work/venv-torch-072 running
# fuse_skip_layer_normalization then fuse_bias_gelu on this package's export of the suite's
# "bert" saved to a file, 2026-11): 4 skip layer norms, 2 BiasGelu.
BERT_0_7_2 = (4, 2)


def test_bert_export() -> None:
    fused, counts = fuse_export_and_compare("bert", [fuse_skip_layer_normalization, fuse_bias_gelu])
    assert counts[0] >= BERT_0_7_2[0] and counts[1] >= BERT_0_7_2[1]
    assert counts == [4, 2]
    assert ops(fused).count(SKIP_LN) == 4
