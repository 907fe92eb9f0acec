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


def _kv_cache_model(batch: int | str) -> onnx.ModelProto:
    """Grouped attention (4 query heads of 8 on 2 key / value heads) of ``x [batch, S,
    32]`` with a KV cache ``pk``, ``pv [batch, 2, P, 8]`` concatenated with the new keys
    and values (returned as the presents), repeated for the query heads, and a causal
    mask of key positions ``0..P+S-1`` against query positions ``P..P+S-1``."""
    from onnx import TensorProto, helper

    rng = np.random.default_rng(5)

    def weight(name: str, cols: int) -> onnx.TensorProto:
        values = rng.standard_normal(32 * cols) * 0.3
        return helper.make_tensor(name, TensorProto.FLOAT, [32, cols], values)

    def ints(name: str, values: list[int]) -> onnx.TensorProto:
        return helper.make_tensor(name, TensorProto.INT64, [len(values)], values)

    inits = [
        weight("wq", 32),
        weight("wk", 16),
        weight("wv", 16),
        ints("shape_q", [0, 0, 4, 8]),
        ints("shape_kv", [0, 0, 2, 8]),
        ints("shape_out", [0, 0, 32]),
        ints("rep", [1, 1, 2, 1, 1]),
        ints("shape_rep", [0, 4, -1, 8]),
        ints("two", [2]),
        ints("row", [1, 1, 1, -1]),
        ints("column", [1, 1, -1, 1]),
        helper.make_tensor("sqrt_d", TensorProto.FLOAT, [], [8**0.5]),
        helper.make_tensor("ninf", TensorProto.FLOAT, [], [-np.inf]),
        helper.make_tensor("zero", TensorProto.INT64, [], [0]),
        helper.make_tensor("one", TensorProto.INT64, [], [1]),
    ]
    nodes = []
    for name, weight_name, shape in (
        ("q", "wq", "shape_q"),
        ("kn", "wk", "shape_kv"),
        ("vn", "wv", "shape_kv"),
    ):
        nodes += [
            helper.make_node("MatMul", ["x", weight_name], [f"{name}3"]),
            helper.make_node("Reshape", [f"{name}3", shape], [f"{name}4"]),
            helper.make_node("Transpose", [f"{name}4"], [name], perm=[0, 2, 1, 3]),
        ]
    nodes += [
        helper.make_node("Concat", ["pk", "kn"], ["k"], axis=2),
        helper.make_node("Concat", ["pv", "vn"], ["v"], axis=2),
    ]
    for name in ("k", "v"):
        nodes += [
            helper.make_node("Unsqueeze", [name, "two"], [f"{name}5"]),
            helper.make_node("Expand", [f"{name}5", "rep"], [f"{name}x"]),
            helper.make_node("Reshape", [f"{name}x", "shape_rep"], [f"{name}r"]),
        ]
    nodes += [
        helper.make_node("Shape", ["k"], ["total1"], start=2, end=3),
        helper.make_node("Shape", ["pk"], ["past1"], start=2, end=3),
        helper.make_node("Squeeze", ["total1"], ["total"]),
        helper.make_node("Squeeze", ["past1"], ["past"]),
        helper.make_node("Range", ["zero", "total", "one"], ["keys1"]),
        helper.make_node("Range", ["past", "total", "one"], ["queries1"]),
        helper.make_node("Reshape", ["keys1", "row"], ["keys"]),
        helper.make_node("Reshape", ["queries1", "column"], ["queries"]),
        helper.make_node("LessOrEqual", ["keys", "queries"], ["m"]),
        helper.make_node("Transpose", ["kr"], ["kt"], perm=[0, 1, 3, 2]),
        helper.make_node("MatMul", ["q", "kt"], ["s0"]),
        helper.make_node("Div", ["s0", "sqrt_d"], ["s"]),
        helper.make_node("Where", ["m", "s", "ninf"], ["sm"]),
        helper.make_node("Softmax", ["sm"], ["p"], axis=-1),
        helper.make_node("MatMul", ["p", "vr"], ["att"]),
        helper.make_node("Transpose", ["att"], ["att_t"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["att_t", "shape_out"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "kv_cache",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, "S", 32]),
            helper.make_tensor_value_info("pk", TensorProto.FLOAT, [batch, 2, "P", 8]),
            helper.make_tensor_value_info("pv", TensorProto.FLOAT, [batch, 2, "P", 8]),
        ],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [batch, "S", 32]),
            helper.make_tensor_value_info("k", TensorProto.FLOAT, [batch, 2, "T", 8]),
            helper.make_tensor_value_info("v", TensorProto.FLOAT, [batch, 2, "T", 8]),
        ],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    return onnx.shape_inference.infer_shapes(model)


def test_kv_cache_with_batch_1_to_gqa_with_past() -> None:
    proto = _kv_cache_model(1)
    model = ir.from_proto(proto)
    assert sdpa.fuse_sdpa(model) == 1
    assert gqa.fuse_gqa(model) == 1
    common.RemoveUnusedNodesPass()(model)
    (node,) = [n for n in model.graph if n.op_type == "GroupQueryAttention"]
    assert node.inputs[3] is not None and node.inputs[3].name == "pk"  # the past
    fused = ir.to_proto(model)
    rng = np.random.default_rng(6)
    for seq, past in ((3, 4), (1, 5), (4, 0)):
        feeds = {
            "x": rng.standard_normal((1, seq, 32)).astype(np.float32),
            "pk": rng.standard_normal((1, 2, past, 8)).astype(np.float32),
            "pv": rng.standard_normal((1, 2, past, 8)).astype(np.float32),
        }
        for got, want in zip(run(fused, feeds), run(proto, feeds)):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_kv_cache_with_batch_and_sequence_maybe_over_1_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """onnxruntime's CPU kernel rejects a past with batch > 1 and sequence > 1."""
    model = ir.from_proto(_kv_cache_model("B"))
    assert sdpa.fuse_sdpa(model) == 1
    assert gqa.fuse_gqa(model, debug=True) == 0
    assert "a past with batch and new sequence length" in capsys.readouterr().out
