"""Rotary embeddings and their cos / sin caches: hand-built graphs of transformers'
``apply_rotary_pos_emb`` and a tiny Llama export with a KV cache, run in onnxruntime
before and after fusing at two sizes."""

from __future__ import annotations

import collections
import pickle
from typing import Any

import numpy as np
import onnx
import onnx_ir as ir
import onnx_ir.passes.common as common
import pytest
from onnx import TensorProto, helper

from onnxscript.rewriter.ort_fusions import cos_sin_cache, rotary_embedding

ort = pytest.importorskip("onnxruntime")

HEADS, SEQ_HEAD = 4, 8
INV_FREQ = (1.0 / 10000 ** (np.arange(0, SEQ_HEAD, 2) / SEQ_HEAD)).astype(np.float32)


def _rope_model(split: bool, cos_sin_inputs: bool = False) -> onnx.ModelProto:
    """``x * cos + rotate_half(x) * sin`` on ``x [B, 4, S, 8]``; cos / sin from position
    ids ``[B, S]`` and a constant inv_freq, or (``cos_sin_inputs``) given as inputs."""
    half = SEQ_HEAD // 2
    nodes = []
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["B", HEADS, "S", 8])]
    inits = [
        helper.make_tensor("one", TensorProto.INT64, [1], [1]),
        helper.make_tensor("two", TensorProto.INT64, [1], [2]),
        helper.make_tensor("halves", TensorProto.INT64, [2], [half, half]),
        helper.make_tensor("zero", TensorProto.INT64, [1], [0]),
        helper.make_tensor("hv", TensorProto.INT64, [1], [half]),
        helper.make_tensor("end", TensorProto.INT64, [1], [2**62]),
        helper.make_tensor("last", TensorProto.INT64, [1], [-1]),
    ]
    if cos_sin_inputs:
        for name in ("cos", "sin"):
            shape = ["B", 1, "S", 8]
            inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))
    else:
        inputs.append(helper.make_tensor_value_info("pos", TensorProto.INT64, ["B", "S"]))
        inits.append(helper.make_tensor("inv_freq", TensorProto.FLOAT, [half], INV_FREQ))
        nodes += [
            helper.make_node("Unsqueeze", ["pos", "two"], ["pos3"]),
            helper.make_node("Cast", ["pos3"], ["posf"], to=TensorProto.FLOAT),
            helper.make_node("Mul", ["posf", "inv_freq"], ["freqs"]),
            helper.make_node("Concat", ["freqs", "freqs"], ["angles"], axis=-1),
            helper.make_node("Cos", ["angles"], ["cos3"]),
            helper.make_node("Sin", ["angles"], ["sin3"]),
            helper.make_node("Unsqueeze", ["cos3", "one"], ["cos"]),
            helper.make_node("Unsqueeze", ["sin3", "one"], ["sin"]),
        ]
    if split:
        nodes.append(helper.make_node("Split", ["x", "halves"], ["a", "b"], axis=3))
    else:
        nodes.append(helper.make_node("Slice", ["x", "zero", "hv", "last"], ["a"]))
        nodes.append(helper.make_node("Slice", ["x", "hv", "end", "last"], ["b"]))
    nodes += [
        helper.make_node("Neg", ["b"], ["nb"]),
        helper.make_node("Concat", ["nb", "a"], ["rot"], axis=-1),
        helper.make_node("Mul", ["x", "cos"], ["xc"]),
        helper.make_node("Mul", ["rot", "sin"], ["rs"]),
        helper.make_node("Add", ["xc", "rs"], ["y"]),
    ]
    output = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["B", HEADS, "S", 8])
    graph = helper.make_graph(nodes, "rope", inputs, [output], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    return onnx.shape_inference.infer_shapes(model)


def _feeds(model: onnx.ModelProto, batch: int, seq: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(batch * 10 + seq)
    names = {i.name for i in model.graph.input}
    feeds = {"x": rng.standard_normal((batch, HEADS, seq, 8)).astype(np.float32)}
    positions = np.arange(3, 3 + seq)[None].repeat(batch, 0)
    if "pos" in names:
        feeds["pos"] = positions.astype(np.int64)
    else:
        angles = positions[..., None] * INV_FREQ
        angles = np.concatenate([angles, angles], -1)[:, None].astype(np.float32)
        feeds["cos"], feeds["sin"] = np.cos(angles), np.sin(angles)
    return feeds


def _run(model: onnx.ModelProto, feeds: dict[str, np.ndarray]) -> list[Any]:
    session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return list(session.run(None, feeds))


def _ops(model: ir.Model) -> collections.Counter[tuple[str, str]]:
    return collections.Counter((n.domain, n.op_type) for n in model.graph.all_nodes())


@pytest.mark.parametrize("split", [True, False], ids=["split", "slices"])
def test_rotary_with_cos_sin_cache_runs_like_the_original(split: bool) -> None:
    proto = _rope_model(split)
    model = ir.from_proto(proto)
    assert rotary_embedding.fuse_rotary_embedding(model) == 1
    assert cos_sin_cache.fuse_cos_sin_cache(model) == 1
    common.RemoveUnusedNodesPass()(model)
    ops = _ops(model)
    assert ops == {("com.microsoft", "RotaryEmbedding"): 1}
    fused = ir.to_proto(model)
    for batch, seq in ((2, 5), (3, 9)):
        feeds = _feeds(proto, batch, seq)
        np.testing.assert_allclose(_run(fused, feeds)[0], _run(proto, feeds)[0], atol=1e-5)


def test_unfinished_rotary_is_restored() -> None:
    """cos / sin given as inputs: no cache to make; restoring makes the model runnable."""
    proto = _rope_model(split=True, cos_sin_inputs=True)
    model = ir.from_proto(proto)
    assert rotary_embedding.fuse_rotary_embedding(model) == 1
    assert cos_sin_cache.fuse_cos_sin_cache(model) == 0
    assert rotary_embedding.restore_unfused_rotary(model) == 1
    common.RemoveUnusedNodesPass()(model)
    assert not any(n.domain for n in model.graph.all_nodes())
    restored = ir.to_proto(model)
    onnx.checker.check_model(restored, full_check=True)
    feeds = _feeds(proto, 2, 6)
    np.testing.assert_allclose(_run(restored, feeds)[0], _run(proto, feeds)[0], atol=1e-6)


def test_debug_reports_why_nothing_fused(capsys: pytest.CaptureFixture[str]) -> None:
    model = ir.from_proto(_rope_model(split=True, cos_sin_inputs=True))
    assert rotary_embedding.fuse_rotary_embedding(model) == 1
    assert cos_sin_cache.fuse_cos_sin_cache(model, debug=True) == 0
    report = capsys.readouterr().out
    assert "CosSinCache" in report and ("NO_MATCH" in report or "CONDITION_FAILED" in report)


# A tiny Llama with a KV cache (tests/function_libs/real_models.py, dynamic shapes) -----

REFERENCE_072 = {"rotary_embedding": 0, "cos_sin_cache": 0}
"""0.7.2's counts on the same export (its optimize_for_ort run in
/work/venv-torch-072 on the saved .onnx): it matches neither the Split form of
rotate_half our optimizer leaves nor, on its own exports, completes the cos / sin cache."""


@pytest.fixture(scope="module")
def llama_kv(tmp_path_factory: pytest.TempPathFactory) -> tuple[onnx.ModelProto, list[Any]]:
    pytest.importorskip("transformers")
    from tests.function_libs import dynamic_export, real_models

    entry = real_models.suite()["llama_kv"]
    module = entry.module()
    program = dynamic_export.export(module, entry.inputs(0), entry.dynamic_shapes(module))
    feeds = [
        [dynamic_export.numpy_of(t) for t in dynamic_export.flat_tensors(entry.inputs(w))]
        for w in (0, 1)
    ]
    return program.model_proto, pickle.loads(pickle.dumps(feeds))


def test_llama_kv_rotary_fused_and_outputs_equal(
    llama_kv: tuple[onnx.ModelProto, list[Any]],
) -> None:
    proto, feeds = llama_kv
    model = ir.from_proto(proto)
    counts = {
        "rotary_embedding": rotary_embedding.fuse_rotary_embedding(model),
        "partial_rotary_embedding": rotary_embedding.fuse_partial_rotary_embedding(model),
        "cos_sin_cache": cos_sin_cache.fuse_cos_sin_cache(model),
    }
    assert counts == {"rotary_embedding": 4, "partial_rotary_embedding": 0, "cos_sin_cache": 4}
    assert all(counts[k] >= v for k, v in REFERENCE_072.items())
    assert rotary_embedding.restore_unfused_rotary(model) == 0
    common.RemoveUnusedNodesPass()(model)
    assert _ops(model)[("com.microsoft", "RotaryEmbedding")] == 4
    caches = [n for n in model.graph.initializers if n.startswith(("cos_cache", "sin_cache"))]
    assert len(caches) == 2  # one cos / sin pair shared by the 4 rotations
    fused = ir.to_proto(model)
    for which in (0, 1):
        names = [i.name for i in proto.graph.input]
        inputs = dict(zip(names, feeds[which]))
        for got, want in zip(_run(fused, inputs), _run(proto, inputs)):
            np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
