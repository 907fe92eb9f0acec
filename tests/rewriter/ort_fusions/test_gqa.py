"""Grouped heads under a causal mask to GroupQueryAttention: a hand-built attention with
transformers' causal and padding mask (left padding, a fully masked row), a mask it
must refuse, and a tiny Llama export without KV cache, run in onnxruntime before and
after fusing at two sizes."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx_ir as ir
import onnx_ir.passes.common as common
import pytest

from onnxscript.rewriter.ort_fusions import (
    cos_sin_cache,
    gqa,
    mha,
    rotary_embedding,
    sdpa,
    sdpa_via_mha,
)
from tests.rewriter.ort_fusions._exports import export_with_feeds
from tests.rewriter.ort_fusions.test_sdpa import attention_model, feeds_of, ops_of, run

pytest.importorskip("onnxruntime")

GQA_OP = ("com.microsoft", "GroupQueryAttention")


def test_causal_grouped_attention_to_gqa_runs_like_the_original() -> None:
    proto = attention_model("split", "bool", zero_rows=True, causal=True)
    model = ir.from_proto(proto)
    assert sdpa.fuse_sdpa(model) == 1
    assert gqa.fuse_gqa(model) == 1
    common.RemoveUnusedNodesPass()(model)
    ops = ops_of(model)
    assert ops[GQA_OP] == 1 and ops[("", "Softmax")] == 0
    assert ops[("", "Expand")] == 1  # seqlens_k only: keys and values are not repeated
    result = ir.to_proto(model)
    for batch, seq in ((2, 5), (3, 9)):
        feeds = feeds_of("bool", batch, seq, causal=True)
        got, want = run(result, feeds)[0], run(proto, feeds)[0]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        assert not got[0, 0].any()  # the left-padded, fully masked query


def test_mask_not_known_causal_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """A mask given as an input may be bidirectional: GroupQueryAttention would add
    causality, so the fusion is refused and MultiHeadAttention takes it."""
    model = ir.from_proto(attention_model("split", "bool", zero_rows=True))
    assert sdpa.fuse_sdpa(model) == 1
    assert gqa.fuse_gqa(model, debug=True) == 0
    assert "not recognisably causal" in capsys.readouterr().out
    assert mha.fuse_mha2(model) == 1


REFERENCE_072 = {"sdpa": 0, "gqa": 0}
"""0.7.2's counts on the same export (the saved dynamic-shape .onnx of this suite entry
with its optimize_for_ort in /work/venv-torch-072): no attention fusion at all."""


@pytest.fixture(scope="module")
def llama() -> tuple[onnx.ModelProto, list[dict[str, Any]]]:
    return export_with_feeds("llama")


def test_llama_gqa_fused_and_outputs_equal(
    llama: tuple[onnx.ModelProto, list[dict[str, Any]]],
) -> None:
    """2 layers, 4 query heads on 2 key / value heads, left padding in the inputs."""
    proto, feeds = llama
    model = ir.from_proto(proto)
    assert rotary_embedding.fuse_rotary_embedding(model) == 4
    assert cos_sin_cache.fuse_cos_sin_cache(model) == 4
    counts = {"sdpa": sdpa.fuse_sdpa(model), "gqa": gqa.fuse_gqa(model)}
    assert counts == {"sdpa": 2, "gqa": 2}
    assert all(counts[k] >= v for k, v in REFERENCE_072.items())
    assert mha.fuse_mha1(model) == 0 and mha.fuse_mha2(model) == 0
    assert sdpa_via_mha.replace_sdpa_by_mha(model) == 0
    common.RemoveUnusedNodesPass()(model)
    ops = ops_of(model)
    assert ops[GQA_OP] == 2 and ops[("com.microsoft", "RotaryEmbedding")] == 4
    fused = ir.to_proto(model)
    for inputs in feeds:
        for got, want in zip(run(fused, inputs), run(proto, inputs)):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
