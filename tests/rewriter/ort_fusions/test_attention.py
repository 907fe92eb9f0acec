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
