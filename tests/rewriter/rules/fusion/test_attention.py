"""Attention fusions: grouped key / value heads passed unrepeated, and the KV-cache
concatenations folded into Attention's past inputs and present outputs."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import onnx_ir as ir
import onnxruntime

from onnxscript.rewriter import onnx_fusions
from tests.rewriter.rules.fusion.fusing import fused, header

REPEAT = """
    two = Constant<value = int64[1] {2}>()
    s5 = Constant<value = int64[5] {2, 2, 2, 3, 8}>()
    s4 = Constant<value = int64[4] {2, 4, 3, 8}>()
    ku = Unsqueeze(k, two)
    ke = Expand(ku, s5)
    kr = Reshape(ke, s4)
    vu = Unsqueeze(v, two)
    ve = Expand(vu, s5)
    vr = Reshape(ve, s4)
    y = Attention<scale=0.3>(q, kr, vr, m)
"""
GQA_INPUTS = "float[2,4,3,8] q, float[2,2,3,8] k, float[2,2,3,8] v, float[2,1,3,3] m"


def test_repeated_kv_heads_are_passed_grouped() -> None:
    model, ops, counts = fused(header(GQA_INPUTS, "float[2,4,3,8] y") + " {" + REPEAT + "}")
    assert counts["GQA"] == 1 and ops == {"Attention": 1}
    node = model.graph.node[0]
    assert list(node.input) == ["q", "k", "v", "m"]


def test_repeat_along_another_axis_is_not_fused() -> None:
    text = header(GQA_INPUTS.replace("float[2,2,3,8] k", "float[2,2,3,8] k"), "float[2,4,3,8] y")
    body = REPEAT.replace(
        "s5 = Constant<value = int64[5] {2, 2, 2, 3, 8}>()",
        "s5 = Constant<value = int64[5] {2, 2, 2, 3, 8}>()",
    )
    # the keys repeated as blocks (Tile-like: heads 0,1,0,1), not interleaved
    body = body.replace(
        "ku = Unsqueeze(k, two)",
        "one = Constant<value = int64[1] {1}>()\n    ku = Unsqueeze(k, one)",
    )
    body = body.replace(
        "s5 = Constant<value = int64[5] {2, 2, 2, 3, 8}>()",
        "s5 = Constant<value = int64[5] {2, 2, 2, 3, 8}>()",
    )
    _, _, counts = fused(text + " {" + body + "}")
    assert counts["GQA"] == 0


CACHE = """
    kc = Concat<axis=2>(pk, k)
    vc = Concat<axis=2>(pv, v)
    y = Attention<scale=0.3>(q, kc, vc, m)
"""
CACHE_INPUTS = (
    "float[2,4,3,8] q, float[2,4,3,8] k, float[2,4,3,8] v, bool[2,1,3,8] m, "
    "float[2,4,5,8] pk, float[2,4,5,8] pv"
)
CACHE_OUTPUTS = "float[2,4,3,8] y, float[2,4,8,8] kc, float[2,4,8,8] vc"


def _run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
    session = onnxruntime.InferenceSession(
        model.SerializeToString(), providers=["CPUExecutionProvider"]
    )
    return list(session.run(None, feeds))


def _cache_feeds() -> dict[str, np.ndarray]:
    rng = np.random.default_rng(0)
    feeds = {n: rng.standard_normal((2, 4, 3, 8)).astype(np.float32) for n in "qkv"}
    feeds |= {n: rng.standard_normal((2, 4, 5, 8)).astype(np.float32) for n in ("pk", "pv")}
    feeds["m"] = rng.random((2, 1, 3, 8)) > 0.3
    return feeds


def _fuse_cache(body: str) -> tuple[onnx.ModelProto, onnx.ModelProto, dict[str, int]]:
    before = onnx.parser.parse_model(header(CACHE_INPUTS, CACHE_OUTPUTS) + " {" + body + "}")
    model = ir.from_proto(before)
    counts = onnx_fusions.fuse(model)
    return before, ir.to_proto(model), counts


def test_kv_cache_concatenations_become_past_inputs_and_present_outputs() -> None:
    before, after, counts = _fuse_cache(CACHE)
    onnx.checker.check_model(after, full_check=True)
    assert counts["GQA"] == 1
    (node,) = after.graph.node
    assert node.op_type == "Attention" and list(node.input) == ["q", "k", "v", "m", "pk", "pv"]
    assert [o.name for o in after.graph.output] == ["y", "kc", "vc"]
    feeds = _cache_feeds()
    for expected, got in zip(_run(before, feeds), _run(after, feeds)):
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_causal_attention_keeps_its_cache_concatenations() -> None:
    body = CACHE.replace("Attention<scale=0.3>(q, kc, vc, m)", "Attention<is_causal=1>(q, kc, vc)")
    _, after, counts = _fuse_cache(body)
    assert counts["GQA"] == 0 and len(after.graph.node) == 3


def test_a_scalar_unsqueeze_axis_is_accepted() -> None:
    # Models written with Unsqueeze(k, 2) (a 0-D axis, as onnxruntime accepts) fuse too.
    body = REPEAT.replace(
        "two = Constant<value = int64[1] {2}>()", "two = Constant<value = int64 {2}>()"
    )
    model, ops, counts = fused(header(GQA_INPUTS, "float[2,4,3,8] y") + " {" + body + "}")
    assert counts["GQA"] == 1 and ops == {"Attention": 1}
