"""MultiHeadAttention from the intermediate SDPA and its projections, and the
projection biases moved into the op: a tiny BERT export (additive projections, a
padding mask, left-padded inputs) run in onnxruntime before and after at two sizes."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx_ir as ir
import onnx_ir.passes.common as common
import pytest

from onnxscript.rewriter.ort_fusions import gqa, mha, mha_bias, sdpa, sdpa_via_mha
from tests.rewriter.ort_fusions._exports import export_with_feeds
from tests.rewriter.ort_fusions.test_sdpa import attention_model, feeds_of, ops_of, run

pytest.importorskip("onnxruntime")

MS_MHA = ("com.microsoft", "MultiHeadAttention")


def test_mha_bias_needs_constant_biases() -> None:
    """The hand-built attention has no projection bias: nothing to move."""
    model = ir.from_proto(attention_model("div", "add", zero_rows=False))
    assert sdpa.fuse_sdpa(model) == 1 and mha.fuse_mha1(model) == 1
    assert mha_bias.fuse_mha_bias(model) == 0
    common.RemoveUnusedNodesPass()(model)
    feeds = feeds_of("add", 2, 4)
    assert run(ir.to_proto(model), feeds)[0].shape == (2, 4, 32)


REFERENCE_072 = {"sdpa": 0, "mha1": 0, "mha_bias": 0, "attention": 0}
"""0.7.2's counts on the same export (the saved dynamic-shape .onnx of this suite entry
with its optimize_for_ort in /work/venv-torch-072; its own export ``bert_072`` too): no
attention fusion."""


@pytest.fixture(scope="module")
def bert() -> tuple[onnx.ModelProto, list[dict[str, Any]]]:
    return export_with_feeds("bert")


def test_bert_mha_with_bias_and_outputs_equal(
    bert: tuple[onnx.ModelProto, list[dict[str, Any]]],
) -> None:
    """2 layers of 4 heads; the padded query rows are zeroed as the export does."""
    proto, feeds = bert
    model = ir.from_proto(proto)
    counts = {
        "sdpa": sdpa.fuse_sdpa(model),
        "gqa": gqa.fuse_gqa(model),  # refused: the heads are not grouped
        "mha1": mha.fuse_mha1(model),
        "mha_bias": mha_bias.fuse_mha_bias(model),
        "sdpa_via_mha": sdpa_via_mha.replace_sdpa_by_mha(model),
    }
    assert counts == {"sdpa": 2, "gqa": 0, "mha1": 2, "mha_bias": 2, "sdpa_via_mha": 0}
    assert all(counts.get(k, 0) >= v for k, v in REFERENCE_072.items() if k != "attention")
    common.RemoveUnusedNodesPass()(model)
    ops = ops_of(model)
    assert ops[MS_MHA] == 2 and ops[("", "Softmax")] == 0
    assert ops[("", "Transpose")] == 0  # every head reshape went into the op
    fused = ir.to_proto(model)
    for inputs in feeds:
        for got, want in zip(run(fused, inputs), run(proto, inputs)):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
