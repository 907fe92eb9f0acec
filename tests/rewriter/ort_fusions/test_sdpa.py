"""Scaled-dot-product attention to the intermediate SDPA, then to MultiHeadAttention
(with the projections' reshapes, :mod:`.mha`) or as it is (:mod:`.sdpa_via_mha`):
hand-built attention graphs and a tiny Llama export with a KV cache, run in onnxruntime
before and after fusing at two sizes."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
import onnx
import onnx_ir as ir
import onnx_ir.passes.common as common
import pytest
from onnx import TensorProto, helper

from onnxscript.rewriter.ort_fusions import (
    cos_sin_cache,
    gqa,
    mha,
    rotary_embedding,
    sdpa,
    sdpa_via_mha,
)
from tests.rewriter.ort_fusions._exports import export_with_feeds

ort = pytest.importorskip("onnxruntime")

HEADS, KV_HEADS, HEAD = 4, 2, 8
MS_MHA = ("com.microsoft", "MultiHeadAttention")


def attention_model(
    scale_form: str, mask_form: str, zero_rows: bool, causal: bool = False
) -> onnx.ModelProto:
    """Attention of ``x [B, S, 32]`` projected to q (4 heads) and k, v (2 grouped heads,
    repeated as transformers' ``repeat_kv``), mask ``m [B, 1, S, S]`` (``causal``: made
    as transformers does, key positions <= query positions and a padding input ``pad [B,
    S]``), output reshaped back to ``[B, S, 32]``."""
    rng = np.random.default_rng(0)
    hidden, kv_hidden = HEADS * HEAD, KV_HEADS * HEAD
    inits = [
        helper.make_tensor(
            "wq", TensorProto.FLOAT, [hidden, hidden], rng.standard_normal(hidden * hidden)
        ),
        helper.make_tensor(
            "wk", TensorProto.FLOAT, [hidden, kv_hidden], rng.standard_normal(hidden * kv_hidden)
        ),
        helper.make_tensor(
            "wv", TensorProto.FLOAT, [hidden, kv_hidden], rng.standard_normal(hidden * kv_hidden)
        ),
        helper.make_tensor("shape_q", TensorProto.INT64, [4], [0, 0, HEADS, HEAD]),
        helper.make_tensor("shape_kv", TensorProto.INT64, [4], [0, 0, KV_HEADS, HEAD]),
        helper.make_tensor("shape_out", TensorProto.INT64, [3], [0, 0, hidden]),
        helper.make_tensor("rep", TensorProto.INT64, [5], [1, 1, HEADS // KV_HEADS, 1, 1]),
        helper.make_tensor("shape_rep", TensorProto.INT64, [4], [0, HEADS, -1, HEAD]),
        helper.make_tensor("two", TensorProto.INT64, [1], [2]),
        helper.make_tensor("root", TensorProto.FLOAT, [], [HEAD**-0.25]),
        helper.make_tensor("sqrt_d", TensorProto.FLOAT, [], [HEAD**0.5]),
        helper.make_tensor("ninf", TensorProto.FLOAT, [], [-np.inf]),
        helper.make_tensor("zero", TensorProto.FLOAT, [], [0.0]),
    ]
    nodes = []
    for name, weight, shape in (
        ("q", "wq", "shape_q"),
        ("k", "wk", "shape_kv"),
        ("v", "wv", "shape_kv"),
    ):
        nodes += [
            helper.make_node("MatMul", ["x", weight], [f"{name}3"]),
            helper.make_node("Reshape", [f"{name}3", shape], [f"{name}4"]),
            helper.make_node("Transpose", [f"{name}4"], [name], perm=[0, 2, 1, 3]),
        ]
    for name in ("k", "v"):
        nodes += [
            helper.make_node("Unsqueeze", [name, "two"], [f"{name}5"]),
            helper.make_node("Expand", [f"{name}5", "rep"], [f"{name}x"]),
            helper.make_node("Reshape", [f"{name}x", "shape_rep"], [f"{name}r"]),
        ]
    nodes.append(helper.make_node("Transpose", ["kr"], ["kt"], perm=[0, 1, 3, 2]))
    if scale_form == "split":
        nodes += [
            helper.make_node("Mul", ["q", "root"], ["qs"]),
            helper.make_node("Mul", ["kt", "root"], ["ks"]),
            helper.make_node("MatMul", ["qs", "ks"], ["s"]),
        ]
    else:
        nodes += [
            helper.make_node("MatMul", ["q", "kt"], ["s0"]),
            helper.make_node("Div", ["s0", "sqrt_d"], ["s"]),
        ]
    mask_type = TensorProto.BOOL if mask_form == "bool" else TensorProto.FLOAT
    mask_input = helper.make_tensor_value_info("m", mask_type, ["B", 1, "S", "S"])
    if causal:
        nodes[:0] = _causal_mask_nodes()
        mask_input = helper.make_tensor_value_info("pad", TensorProto.BOOL, ["B", "S"])
    if mask_form == "bool":
        nodes.append(helper.make_node("Where", ["m", "s", "ninf"], ["sm"]))
    else:
        nodes.append(helper.make_node("Add", ["s", "m"], ["sm"]))
    nodes.append(helper.make_node("Softmax", ["sm"], ["p"], axis=-1))
    probs = "p"
    if zero_rows:
        nodes.append(helper.make_node("Where", ["m", "p", "zero"], ["pz"]))
        probs = "pz"
    nodes += [
        helper.make_node("MatMul", [probs, "vr"], ["att"]),
        helper.make_node("Transpose", ["att"], ["att_t"], perm=[0, 2, 1, 3]),
        helper.make_node("Reshape", ["att_t", "shape_out"], ["y"]),
    ]
    inputs = [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", "S", hidden]),
        mask_input,
    ]
    output = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["B", "S", hidden])
    graph = helper.make_graph(nodes, "attention", inputs, [output], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    return onnx.shape_inference.infer_shapes(model)


def _causal_mask_nodes() -> list[onnx.NodeProto]:
    """``m = (arange(S)[None, None, None, :] <= arange(S)[None, None, :, None]) &
    pad[:, None, None, :]`` with S from ``x``."""
    const = helper.make_tensor

    def ints(name: str, values: list[int]) -> onnx.NodeProto:
        tensor = const(name, TensorProto.INT64, [len(values)], values)
        return helper.make_node("Constant", [], [name], value=tensor)

    scalar = const("", TensorProto.INT64, [], [0])
    return [
        ints("axes_k", [0, 1, 2]),
        ints("axes_q", [0, 1, 3]),
        ints("axes_pad", [1, 2]),
        helper.make_node("Constant", [], ["start"], value=scalar),
        helper.make_node("Constant", [], ["step"], value=const("", TensorProto.INT64, [], [1])),
        helper.make_node("Shape", ["x"], ["seq1"], start=1, end=2),
        helper.make_node("Squeeze", ["seq1"], ["seq"]),
        helper.make_node("Range", ["start", "seq", "step"], ["positions"]),
        helper.make_node("Unsqueeze", ["positions", "axes_k"], ["key_pos"]),
        helper.make_node("Unsqueeze", ["positions", "axes_q"], ["query_pos"]),
        helper.make_node("LessOrEqual", ["key_pos", "query_pos"], ["causal"]),
        helper.make_node("Unsqueeze", ["pad", "axes_pad"], ["pad4"]),
        helper.make_node("And", ["causal", "pad4"], ["m"]),
    ]


def feeds_of(mask_form: str, batch: int, seq: int, causal: bool = False) -> dict[str, np.ndarray]:
    """Random inputs; a causal mask with the first query of batch 0 left-padded (a row
    no key may be attended from); ``causal``: the padding input only."""
    rng = np.random.default_rng(batch * 10 + seq)
    allowed = np.tril(np.ones((seq, seq), dtype=bool))[None, None].repeat(batch, 0)
    allowed[0, 0, :, 0] = False
    mask: np.ndarray = allowed
    if mask_form == "add":
        mask = np.where(allowed, 0.0, -1e4).astype(np.float32)
    x = rng.standard_normal((batch, seq, HEADS * HEAD)).astype(np.float32)
    if causal:
        return {"x": x, "pad": allowed[:, 0, -1, :]}
    return {"x": x, "m": mask}


def run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[Any]:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return list(session.run(None, feeds))


def ops_of(model: ir.Model) -> collections.Counter[tuple[str, str]]:
    return collections.Counter((n.domain, n.op_type) for n in model.graph.all_nodes())


FORMS = [("split", "bool", True), ("split", "bool", False), ("div", "add", False)]


@pytest.mark.parametrize(("scale_form", "mask_form", "zero_rows"), FORMS)
@pytest.mark.parametrize("complete", ["mha", "sdpa_via_mha"])
def test_attention_to_mha_runs_like_the_original(
    scale_form: str, mask_form: str, zero_rows: bool, complete: str
) -> None:
    proto = attention_model(scale_form, mask_form, zero_rows)
    model = ir.from_proto(proto)
    assert sdpa.fuse_sdpa(model) == 1
    (fused,) = [n for n in model.graph if n.op_type == "SDPA"]
    assert fused.attributes.get_int("kv_num_heads") == KV_HEADS  # repeat_kv seen through
    # the scale is the default, 1 / sqrt(head): left out, as 0.7.2 leaves it
    assert "scale" not in fused.attributes
    if complete == "mha":
        assert mha.fuse_mha2(model) == 1
    assert sdpa_via_mha.replace_sdpa_by_mha(model) == (complete == "sdpa_via_mha")
    common.RemoveUnusedNodesPass()(model)
    ops = ops_of(model)
    assert ops[MS_MHA] == 1 and ops[("", "Softmax")] == 0
    assert all(domain in ("", "com.microsoft") for domain, _ in ops)
    if complete == "mha":  # q's and the output's reshapes went (grouped k, v stay 4-D)
        assert ops[("", "Transpose")] == 2
    result = ir.to_proto(model)
    for batch, seq in ((2, 5), (3, 9)):
        feeds = feeds_of(mask_form, batch, seq)
        want = run(proto, feeds)[0]
        got = run(result, feeds)[0]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
        if zero_rows:  # the fully masked query's output is zero, not NaN
            assert not np.isnan(got).any() and not got[0, 0].any()


def test_debug_reports_why_nothing_fused(capsys: pytest.CaptureFixture[str]) -> None:
    proto = attention_model("split", "bool", True)
    for node in proto.graph.node:
        if node.op_type == "Softmax":
            node.attribute[0].i = 1  # not over the last axis
    model = ir.from_proto(proto)
    assert sdpa.fuse_sdpa(model, debug=True) == 0
    report = capsys.readouterr().out
    assert "SDPA_split_bool_zero_rows" in report and "Softmax" in report


# A tiny Llama with a KV cache (tests/function_libs/real_models.py, dynamic shapes) -----

REFERENCE_072 = {"sdpa": 0, "gqa": 0, "mha1": 0, "mha2": 0, "sdpa_via_mha": 0}
"""0.7.2's counts on the same export (the saved dynamic-shape .onnx of this suite entry,
its optimize_for_ort run in /work/venv-torch-072): it matches none of the attention of
transformers 5.24 exports (``Where(mask, ·, -inf)`` and the second Where), nor on its own
export of the same model (``llama_kv_072``: sdpa 0, mha1 0)."""


@pytest.fixture(scope="module")
def llama_kv() -> tuple[onnx.ModelProto, list[dict[str, Any]]]:
    return export_with_feeds("llama_kv")


def test_llama_kv_attention_fused_and_outputs_equal(
    llama_kv: tuple[onnx.ModelProto, list[dict[str, Any]]],
) -> None:
    """The order optimize_for_ort uses: rotary and its cache first, then SDPA, MHA, and
    the leftovers; 2 layers, 4 query heads on 2 grouped key / value heads, a KV cache."""
    proto, feeds = llama_kv
    model = ir.from_proto(proto)
    assert rotary_embedding.fuse_rotary_embedding(model) == 4
    assert cos_sin_cache.fuse_cos_sin_cache(model) == 4
    counts = {
        "sdpa": sdpa.fuse_sdpa(model),
        "gqa": gqa.fuse_gqa(model),  # refused: a KV cache with batch and sequence > 1
        "mha1": mha.fuse_mha1(model),
        "mha2": mha.fuse_mha2(model),
        "sdpa_via_mha": sdpa_via_mha.replace_sdpa_by_mha(model),
    }
    assert counts == {"sdpa": 2, "gqa": 0, "mha1": 2, "mha2": 0, "sdpa_via_mha": 0}
    assert all(counts[k] >= v for k, v in REFERENCE_072.items())
    assert rotary_embedding.restore_unfused_rotary(model) == 0
    common.RemoveUnusedNodesPass()(model)
    ops = ops_of(model)
    assert ops[MS_MHA] == 2 and ops[("", "Softmax")] == 0
    biases = {n.inputs[5] for n in model.graph if n.op_type == "MultiHeadAttention"}
    assert len(biases) == 1  # one attention bias for the layers' shared mask
    fused = ir.to_proto(model)
    for inputs in feeds:
        for got, want in zip(run(fused, inputs), run(proto, inputs)):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
