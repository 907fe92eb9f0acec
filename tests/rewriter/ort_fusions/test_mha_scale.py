"""A query's scalar scale folded into MultiHeadAttention's ``scale`` (times the given
scale, or the default ``1/sqrt(head)``), with and without a KV cache; refused for a
zero or a per-channel factor; onnxruntime's results equal before and after."""

from __future__ import annotations

import math

import pytest

from onnxscript.rewriter.ort_fusions import mha_scale
from tests.rewriter.ort_fusions.fusing import fuse_and_compare, node, ops

HEADER = '<ir_version: 10, opset_import: ["" : 18, "com.microsoft" : 1]>\n'


def model(factor: str, scale: str = "", past: bool = False) -> str:
    attrs = "num_heads = 4" + (f", scale = {scale}" if scale else "")
    if past:
        return (
            HEADER
            + f"""g (float[B,S,32] q, float[B,S,32] k, float[B,S,32] v,
               float[B,4,T,8] pk, float[B,4,T,8] pv)
            => (float[B,S,32] y, float[B,4,N,8] ck, float[B,4,N,8] cv) {{
  c = Constant <value = {factor}> ()
  qs = Mul (q, c)
  y, ck, cv = com.microsoft.MultiHeadAttention <{attrs}> (qs, k, v, , , , pk, pv)
}}"""
        )
    return (
        HEADER
        + f"""g (float[B,S,32] q, float[B,T,32] k, float[B,T,32] v) => (float[B,S,32] y) {{
  c = Constant <value = {factor}> ()
  qs = Mul (q, c)
  y = com.microsoft.MultiHeadAttention <{attrs}> (qs, k, v)
}}"""
    )


@pytest.mark.parametrize(
    ("factor", "scale", "expected"),
    [
        ("float {0.5}", "", 0.5 / math.sqrt(8)),
        ("float[1] {0.5}", "0.25", 0.125),
        ("float {-2.0}", "", -2.0 / math.sqrt(8)),
    ],
)
def test_query_scale_goes_into_the_op(factor: str, scale: str, expected: float) -> None:
    fused = fuse_and_compare(model(factor, scale), mha_scale.fuse_mha_scale, 1, check_input=False)
    assert ops(fused) == ["com.microsoft::MultiHeadAttention"]
    attention = node(fused, "MultiHeadAttention")
    assert attention.attributes.get_float("scale") == pytest.approx(expected, rel=1e-6)


def test_with_a_kv_cache() -> None:
    fused = fuse_and_compare(
        model("float {0.5}", past=True), mha_scale.fuse_mha_scale, 1, check_input=False
    )
    assert len(node(fused, "MultiHeadAttention").outputs) == 3


@pytest.mark.parametrize("factor", ["float {0.0}", "float[32] {" + ", ".join(["0.5"] * 32) + "}"])
def test_zero_or_per_channel_factor_is_refused(factor: str) -> None:
    fuse_and_compare(model(factor), mha_scale.fuse_mha_scale, 0, check_input=False)
