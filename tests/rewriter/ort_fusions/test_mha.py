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

from onnxscript.rewriter.ort_fusions import gqa, mha, mha_bias, mha_scale, sdpa, sdpa_via_mha
from tests.rewriter.ort_fusions._exports import export_with_feeds
from tests.rewriter.ort_fusions.test_sdpa import attention_model, feeds_of, ops_of, run

pytest.importorskip("onnxruntime")

MS_MHA = ("com.microsoft", "MultiHeadAttention")


def test_mha_bias_needs_constant_biases() -> None:
    """The hand-built attention has no projection bias: nothing to move."""
    model = ir.from_proto(attention_model("div", "add", zero_rows=False))
    assert sdpa.fuse_sdpa(model) == 1 and mha.fuse_mha2(model) == 1
    assert mha_bias.fuse_mha_bias(model) == 0
    common.RemoveUnusedNodesPass()(model)
    feeds = feeds_of("add", 2, 4)
    assert run(ir.to_proto(model), feeds)[0].shape == (2, 4, 32)


REFERENCE_072 = {"sdpa": 0, "mha2": 0, "mha_bias": 0, "attention": 0}
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
        "mha2": mha.fuse_mha2(model),
        "mha_bias": mha_bias.fuse_mha_bias(model),
        "sdpa_via_mha": sdpa_via_mha.replace_sdpa_by_mha(model),
    }
    assert counts == {"sdpa": 2, "gqa": 0, "mha2": 2, "mha_bias": 2, "sdpa_via_mha": 0}
    assert all(counts.get(k, 0) >= v for k, v in REFERENCE_072.items() if k != "attention")
    common.RemoveUnusedNodesPass()(model)
    ops = ops_of(model)
    assert ops[MS_MHA] == 2 and ops[("", "Softmax")] == 0
    assert ops[("", "Transpose")] == 0  # every head reshape went into the op
    fused = ir.to_proto(model)
    for inputs in feeds:
        for got, want in zip(run(fused, inputs), run(proto, inputs)):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def _prescaled_model(batch: int, seq: int, q_shape: list[int], kv_shape: list[int], allowzero: int):
    """Whisper's attention as exported with static shapes: q scaled by ``head ** -0.5``
    before its reshape, the head reshapes written with the batch size and one -1 (the
    heads of q, the sequence of k and v), an additive mask, no scale on the product."""
    rng = np.random.default_rng(1)
    heads, head = 4, 8
    hidden = heads * head
    inits = [
        onnx.helper.make_tensor(
            f"w{n}", onnx.TensorProto.FLOAT, [hidden, hidden], rng.standard_normal(hidden**2)
        )
        for n in "qkv"
    ] + [
        onnx.helper.make_tensor("shape_q", onnx.TensorProto.INT64, [4], q_shape),
        onnx.helper.make_tensor("shape_kv", onnx.TensorProto.INT64, [4], kv_shape),
        onnx.helper.make_tensor("shape_out", onnx.TensorProto.INT64, [3], [batch, seq, hidden]),
        onnx.helper.make_tensor("c", onnx.TensorProto.FLOAT, [], [head**-0.5]),
    ]
    make = onnx.helper.make_node
    nodes = [
        make("MatMul", ["x", "wq"], ["q3"]),
        make("Mul", ["q3", "c"], ["q3s"]),
        make("Reshape", ["q3s", "shape_q"], ["q4"], allowzero=allowzero),
        make("Transpose", ["q4"], ["q"], perm=[0, 2, 1, 3]),
    ]
    for n in "kv":
        nodes += [
            make("MatMul", ["x", f"w{n}"], [f"{n}3"]),
            make("Reshape", [f"{n}3", "shape_kv"], [f"{n}4"], allowzero=allowzero),
            make("Transpose", [f"{n}4"], [n], perm=[0, 2, 1, 3]),
        ]
    nodes += [
        make("Transpose", ["k"], ["kt"], perm=[0, 1, 3, 2]),
        make("MatMul", ["q", "kt"], ["s"]),
        make("Add", ["s", "m"], ["sm"]),
        make("Softmax", ["sm"], ["p"], axis=-1),
        make("MatMul", ["p", "v"], ["att"]),
        make("Transpose", ["att"], ["att_t"], perm=[0, 2, 1, 3]),
        make("Reshape", ["att_t", "shape_out"], ["y"]),
    ]
    info = onnx.helper.make_tensor_value_info
    graph = onnx.helper.make_graph(
        nodes,
        "prescaled",
        [
            info("x", onnx.TensorProto.FLOAT, [batch, seq, hidden]),
            info("m", onnx.TensorProto.FLOAT, [batch, 1, seq, seq]),
        ],
        [info("y", onnx.TensorProto.FLOAT, [batch, seq, hidden])],
        inits,
    )
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 20)])
    return onnx.shape_inference.infer_shapes(model)


@pytest.mark.parametrize(
    ("q_shape", "kv_shape", "allowzero", "reshapes_go"),
    [
        ([2, 5, -1, 8], [2, -1, 4, 8], 0, True),  # as whisper's static export writes them
        ([0, 0, 4, 8], [0, 0, -1, 8], 0, True),
        ([0, 0, 4, 8], [0, 0, 4, 8], 1, False),  # allowzero: a 0 is a size, not a copy
        ([2, 5, 4, 8], [2, 5, 4, 8], 0, True),
    ],
)
def test_static_head_reshapes_and_a_prescaled_query_go_into_the_op(
    q_shape: list[int], kv_shape: list[int], allowzero: int, reshapes_go: bool
) -> None:
    proto = _prescaled_model(2, 5, q_shape, kv_shape, allowzero)
    model = ir.from_proto(proto)
    assert sdpa.fuse_sdpa(model) == 1 and mha.fuse_mha2(model) == 1
    assert mha_scale.fuse_mha_scale(model) == int(reshapes_go)
    common.RemoveUnusedNodesPass()(model)
    ops = ops_of(model)
    (node,) = [n for n in model.graph if n.op_type == "MultiHeadAttention"]
    if reshapes_go:
        assert ops[("", "Transpose")] == 0 and ops[("", "Mul")] == 0
        assert node.attributes.get_float("scale") == pytest.approx(8**-0.5)
    else:
        assert ops[("", "Transpose")] > 0
    if allowzero:
        return  # a shape of zeros does not run: only the refusal is checked
    rng = np.random.default_rng(2)
    feeds = {
        "x": rng.standard_normal((2, 5, 32)).astype(np.float32),
        "m": np.where(rng.random((2, 1, 5, 5)) < 0.8, 0.0, -1e4).astype(np.float32),
    }
    (got,), (want,) = run(ir.to_proto(model), feeds), run(proto, feeds)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
