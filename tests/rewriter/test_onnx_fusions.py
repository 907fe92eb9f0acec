"""``onnx_fusions.fuse``: 0.7's signature and counts, the opset gate, and a transformers
Llama exported by torch.onnx at opset 23 (which calls it through ``optimize``)."""

from __future__ import annotations

import collections
import inspect

import numpy as np
import onnx
import onnx.parser
import onnx_ir as ir
import pytest

from onnxscript.rewriter import onnx_fusions
from tests.rewriter.rules.fusion.test_rms_normalization import LLAMA, rms


def test_signature_is_0_7s() -> None:
    parameters = inspect.signature(onnx_fusions.fuse).parameters
    assert list(parameters) == ["model", "debug"]
    assert parameters["debug"].kind is inspect.Parameter.KEYWORD_ONLY


@pytest.mark.parametrize("opset", [18, 22])
def test_models_below_opset_23_are_left_alone(opset: int) -> None:
    model = ir.from_proto(onnx.parser.parse_model(rms(LLAMA).replace('"" : 23', f'"" : {opset}')))
    assert onnx_fusions.fuse(model) == {}
    assert [n.op_type for n in model.graph][-1] == "Mul"


def test_counts_every_kind_and_fuses_at_opset_24() -> None:
    model = ir.from_proto(onnx.parser.parse_model(rms(LLAMA).replace('"" : 23', '"" : 24')))
    counts = onnx_fusions.fuse(model)
    assert counts == {
        "RMSNormalization": 1,
        "LayerNormalization": 0,
        "RotaryEmbedding": 0,
        "GQA": 0,
    }


def test_debug_reports_why_nothing_fused(capsys: pytest.CaptureFixture[str]) -> None:
    text = rms(LLAMA).replace("r = Reciprocal(s)", "r = Neg(s)")
    counts = onnx_fusions.fuse(ir.from_proto(onnx.parser.parse_model(text)), debug=True)
    assert not any(counts.values())
    assert "RmsNormFusion" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["llama", "llama_kv"])
def test_llama_exported_at_opset_23_gets_fused_ops_and_matches_torch(name: str) -> None:
    torch = pytest.importorskip("torch")
    pytest.importorskip("transformers")
    ort = pytest.importorskip("onnxruntime")
    from tests.function_libs import real_models

    (case,) = [m for m in real_models.transformers_models() if m.name == name]
    module = case.module()
    program = torch.onnx.export(
        module,
        case.inputs(0),
        dynamic_shapes=case.dynamic_shapes(module),
        dynamo=True,
        opset_version=23,
    )
    ops = collections.Counter(node.op_type for node in program.model.graph)
    layers = module.model.config.num_hidden_layers
    assert ops["RMSNormalization"] == 2 * layers + 1
    assert ops["RotaryEmbedding"] == 2 * layers
    assert ops["Attention"] == layers
    assert "Pow" not in ops and "Neg" not in ops
    proto = ir.to_proto(program.model)
    onnx.checker.check_model(proto, full_check=True)
    session = ort.InferenceSession(proto.SerializeToString(), providers=["CPUExecutionProvider"])
    for which in (0, 1):
        inputs = case.inputs(which)
        with torch.no_grad():
            expected = module(*inputs)
        feeds = {i.name: x.numpy() for i, x in zip(session.get_inputs(), inputs)}
        for got, want in zip(session.run(None, feeds), expected):
            np.testing.assert_allclose(got, want.numpy(), rtol=1e-4, atol=1e-5)
