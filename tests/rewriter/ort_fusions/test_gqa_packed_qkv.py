"""GroupQueryAttention on three consecutive slices of one packed projection given the
packed tensor itself: same outputs in onnxruntime (a KV cache, with and without the op's
own rotation, at sizes its CPU kernel accepts); slices that are not the three
consecutive parts are refused."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
import pytest

from onnxscript.rewriter.ort_fusions import gqa_packed_qkv
from tests.rewriter import rule_checks
from tests.rewriter.ort_fusions.fusing import check_model, input_names, node, ops, parse

HEADER = '<ir_version: 10, opset_import: ["" : 18, "com.microsoft" : 1]>\n'
HEADS, KV_HEADS, HEAD = 4, 2, 16  # with cos / sin caches the CPU kernel takes multiples of 16
WIDTH = (HEADS + 2 * KV_HEADS) * HEAD


def model(bounds: tuple[int, int, int, int], rotary: int) -> str:
    q0, q1, k1, v1 = bounds
    return (
        HEADER
        + f"""g (float[B,S,{WIDTH}] qkv, float[B,{KV_HEADS},P,{HEAD}] pk,
       float[B,{KV_HEADS},P,{HEAD}] pv, int32[B] seqlens_k, int32 total,
       float[64,{HEAD // 2}] cos, float[64,{HEAD // 2}] sin)
    => (float[B,S,{HEADS * HEAD}] y, float[B,{KV_HEADS},T,{HEAD}] ck,
        float[B,{KV_HEADS},T,{HEAD}] cv) {{
  axis = Constant <value = int64[1] {{-1}}> ()
  step = Constant <value = int64[1] {{1}}> ()
  s0 = Constant <value = int64[1] {{{q0}}}> ()
  s1 = Constant <value = int64[1] {{{q1}}}> ()
  s2 = Constant <value = int64[1] {{{k1}}}> ()
  s3 = Constant <value = int64[1] {{{v1}}}> ()
  q = Slice (qkv, s0, s1, axis, step)
  k = Slice (qkv, s1, s2, axis, step)
  v = Slice (qkv, s2, s3, axis)
  y, ck, cv = com.microsoft.GroupQueryAttention <num_heads = {HEADS},
      kv_num_heads = {KV_HEADS}, do_rotary = {rotary}> (q, k, v, pk, pv, seqlens_k, total, cos, sin)
}}"""
    )


def feeds(batch: int, seq: int, past: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(batch * 10 + seq)

    def normal(*shape: int) -> np.ndarray:
        return rng.standard_normal(shape).astype(np.float32)

    return {
        "qkv": normal(batch, seq, WIDTH),
        "pk": normal(batch, KV_HEADS, past, HEAD),
        "pv": normal(batch, KV_HEADS, past, HEAD),
        "seqlens_k": np.full((batch,), past + seq - 1, np.int32),
        "total": np.array(past + seq, np.int32),
        "cos": normal(64, HEAD // 2),
        "sin": normal(64, HEAD // 2),
    }


QKV = (0, HEADS * HEAD, (HEADS + KV_HEADS) * HEAD, WIDTH)


@pytest.mark.parametrize("rotary", [0, 1])
def test_packed_projection_goes_into_the_op(rotary: int) -> None:
    before = parse(model(QKV, rotary), check=False)
    fused = ir.from_proto(before)
    assert gqa_packed_qkv.fuse_qkv_gqa(fused) == 1
    assert ops(fused) == ["com.microsoft::GroupQueryAttention"]
    assert input_names(node(fused, "GroupQueryAttention"))[:3] == ["qkv", "", ""]
    after = ir.to_proto(fused)
    check_model(after)
    # the CPU kernel takes a past with batch 1, or one new token per sequence
    for batch, seq, past in ((1, 3, 4), (3, 1, 2), (2, 3, 0)):
        inputs = feeds(batch, seq, past)
        for got, want in zip(rule_checks.run(after, inputs), rule_checks.run(before, inputs)):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize(
    "bounds",
    [
        (0, HEADS * HEAD, (HEADS + KV_HEADS) * HEAD, WIDTH - 1),  # the value slice is short
        (8, HEADS * HEAD, (HEADS + KV_HEADS) * HEAD, WIDTH),  # the query does not start at 0
    ],
)
def test_other_slices_are_refused(bounds: tuple[int, int, int, int]) -> None:
    fused = ir.from_proto(parse(model(bounds, 1), check=False))
    assert gqa_packed_qkv.fuse_qkv_gqa(fused) == 0
