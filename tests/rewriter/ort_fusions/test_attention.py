"""Attention on a packed QKV projection: a tiny GPT-2 export (``c_attn`` as a 2-D Gemm
between Reshapes, split in three) fused to ``com.microsoft::Attention`` and run in
onnxruntime before and after at two sizes; BERT's separate projections are left to
MultiHeadAttention."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx_ir as ir
import onnx_ir.passes.common as common
import pytest

from onnxscript.rewriter.ort_fusions import attention, mha, mha_bias, sdpa, sdpa_via_mha
from tests.rewriter.ort_fusions._exports import export_with_feeds
from tests.rewriter.ort_fusions.test_sdpa import attention_model, ops_of, run

pytest.importorskip("onnxruntime")

REFERENCE_072 = {"sdpa": 0, "mha2": 0, "attention": 0}
"""0.7.2's counts on the same export (the saved dynamic-shape .onnx of this suite entry
with its optimize_for_ort in /work/venv-torch-072; its own export ``gpt2_072`` too): no
attention fusion."""


@pytest.fixture(scope="module")
def gpt2() -> tuple[onnx.ModelProto, list[dict[str, Any]]]:
    return export_with_feeds("gpt2")


def test_gpt2_attention_fused_and_outputs_equal(
    gpt2: tuple[onnx.ModelProto, list[dict[str, Any]]],
) -> None:
    proto, feeds = gpt2
    model = ir.from_proto(proto)
    counts = {
        "sdpa": sdpa.fuse_sdpa(model),
        "mha2": mha.fuse_mha2(model),
        "mha_bias": mha_bias.fuse_mha_bias(model),
        "attention": attention.fuse_attention(model),
        "sdpa_via_mha": sdpa_via_mha.replace_sdpa_by_mha(model),
    }
    assert counts == {"sdpa": 2, "mha2": 2, "mha_bias": 0, "attention": 2, "sdpa_via_mha": 0}
    assert all(counts[k] >= v for k, v in REFERENCE_072.items())
    common.RemoveUnusedNodesPass()(model)
    ops = ops_of(model)
    assert ops[("com.microsoft", "Attention")] == 2
    assert ops[("com.microsoft", "MultiHeadAttention")] == 0 and ops[("", "Split")] == 0
    fused = ir.to_proto(model)
    for inputs in feeds:
        for got, want in zip(run(fused, inputs), run(proto, inputs)):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_separate_projections_are_not_packed() -> None:
    model = ir.from_proto(attention_model("split", "bool", zero_rows=True))
    assert sdpa.fuse_sdpa(model) == 1 and mha.fuse_mha2(model) == 1
    assert attention.fuse_attention(model) == 0


def _packed_mha_model(past: bool, separate: bool) -> str:
    """MultiHeadAttention (4 heads of 8) on a packed projection ``x @ W`` cut by three
    Slices (``separate``: three projections of ``x``), with its bias, and (``past``) a
    KV cache given as one stacked ``past [2, B, 4, P, 8]`` and returned the same way."""
    rng = np.random.default_rng(3)
    weights = ", ".join(f"{w:.4f}" for w in rng.standard_normal(32 * 96) * 0.2)
    bias = ", ".join(f"{b:.4f}" for b in rng.standard_normal(96) * 0.1)
    if separate:
        project = "\n".join(
            f"  w{i} = Slice (w, s{i}, e{i}, one)\n  {name} = MatMul (x, w{i})"
            for i, name in enumerate("qkv")
        )
    else:
        project = "  qkv = MatMul (x, w)\n" + "\n".join(
            f"  {name} = Slice (qkv, s{i}, e{i}, two)" for i, name in enumerate("qkv")
        )
    bounds = "\n".join(
        f"  s{i} = Constant <value = int64[1] {{{32 * i}}}> ()\n"
        f"  e{i} = Constant <value = int64[1] {{{32 * i + 32}}}> ()"
        for i in range(3)
    )
    signature = "float[B,S,32] x" + (", float[2,B,4,P,8] past" if past else "")
    outputs = "float[B,S,32] y" + (", float[2,B,4,T,8] present" if past else "")
    cache = (
        """  zero = Constant <value = int64[1] {0}> ()
  pk5 = Slice (past, zero, one, zero)
  pv5 = Slice (past, one, two, zero)
  pk = Squeeze (pk5, zero)
  pv = Squeeze (pv5, zero)
  y, ck, cv = com.microsoft.MultiHeadAttention <num_heads = 4> (q, k, v, b, , , pk, pv)
  ck5 = Unsqueeze (ck, zero)
  cv5 = Unsqueeze (cv, zero)
  present = Concat <axis = 0> (ck5, cv5)"""
        if past
        else "  y = com.microsoft.MultiHeadAttention <num_heads = 4> (q, k, v, b)"
    )
    return f"""<ir_version: 10, opset_import: ["" : 18, "com.microsoft" : 1]>
g ({signature}) => ({outputs}) {{
  w = Constant <value = float[32,96] {{{weights}}}> ()
  b = Constant <value = float[96] {{{bias}}}> ()
  one = Constant <value = int64[1] {{1}}> ()
  two = Constant <value = int64[1] {{2}}> ()
{bounds}
{project}
{cache}
}}"""


@pytest.mark.parametrize("separate", [False, True])
@pytest.mark.parametrize("past", [False, True])
def test_mha_on_projections_of_one_input_becomes_attention(past: bool, separate: bool) -> None:
    from tests.rewriter.ort_fusions.fusing import fuse_and_compare, ops

    fused = fuse_and_compare(
        _packed_mha_model(past, separate),
        attention.fuse_attention,
        1,
        check_input=False,
        rtol=1e-4,
        atol=1e-5,
        sizes=({"B": 2, "S": 3, "P": 4}, {"B": 1, "S": 1, "P": 2}),
    )
    assert "com.microsoft::Attention" in ops(fused)
    assert "com.microsoft::MultiHeadAttention" not in ops(fused)
