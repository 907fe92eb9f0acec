"""Group normalization simulated with InstanceNormalization (as torch's opset-18 export
writes it) to ``com.microsoft.GroupNorm``: the fused model computes what onnxruntime
computes for the original (the fused one evaluated by ``onnx.reference``, onnxruntime
having no CPU kernel for GroupNorm); refused when the group weights are not 1, or the
shapes differ from the simulation's; ``optimize_for_ort`` applies it only for CUDA."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
import pytest

from onnxscript.rewriter.ort_fusions import instance_to_group_normalization as gn
from onnxscript.rewriter.ort_fusions import optimize_for_ort
from tests.rewriter import rule_checks
from tests.rewriter.ort_fusions.fusing import check_model, ops, parse
from tests.rewriter.ort_fusions.group_norm_reference import evaluate

HEADER = '<ir_version: 10, opset_import: ["" : 18]>\n'
C, G = 8, 4
WEIGHT = ", ".join(str(0.5 + 0.1 * i) for i in range(C))
BIAS = ", ".join(str(0.2 * i - 0.5) for i in range(C))


def model(ones: str = "1, 1, 1, 1", adjusted: str = "0, 4, -1", original: str = "Shape (x)") -> str:
    return (
        HEADER
        + f"""g (float[2,{C},3,5] x) => (float[2,{C},3,5] y) {{
  adjusted = Constant <value = int64[3] {{{adjusted}}}> ()
  grouped = Reshape (x, adjusted)
  ones = Constant <value = float[{G}] {{{ones}}}> ()
  zeros = Constant <value = float[{G}] {{0, 0, 0, 0}}> ()
  normalized = InstanceNormalization <epsilon = 1e-5> (grouped, ones, zeros)
  sx = Shape (x)
  original = {original}
  back = Reshape (normalized, original)
  weight = Constant <value = float[{C},1,1] {{{WEIGHT}}}> ()
  bias = Constant <value = float[{C},1,1] {{{BIAS}}}> ()
  scaled = Mul (back, weight)
  y = Add (scaled, bias)
}}"""
    )


@pytest.mark.parametrize("original", ["Shape (x)", "Constant <value = int64[4] {2, 8, 3, 5}> ()"])
def test_simulated_group_norm_becomes_group_norm(original: str) -> None:
    before = parse(model(original=original))
    fused = ir.from_proto(before)
    assert gn.rules.apply_to_model(fused) == 1
    after = ir.to_proto(fused)
    check_model(after)
    assert "com.microsoft::GroupNorm" in ops(fused) and "InstanceNormalization" not in ops(fused)
    x = np.random.default_rng(0).standard_normal((2, C, 3, 5)).astype(np.float32)
    (want,) = rule_checks.run(before, {"x": x})
    (got,) = evaluate(after, {"x": x})
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize(
    "changes",
    [
        {"ones": "1, 1, 1, 2"},  # the group weights do something
        {"adjusted": "2, 4, -1"},  # the batch size is not copied
        {"original": "Abs (sx)"},  # a shape not known to be x's
    ],
)
def test_other_subgraphs_are_refused(changes: dict[str, str]) -> None:
    fused = ir.from_proto(parse(model(**changes)))
    assert gn.rules.apply_to_model(fused) == 0


def test_optimize_for_ort_applies_it_only_for_gpu_providers() -> None:
    cpu, _ = optimize_for_ort(ir.from_proto(parse(model())))
    assert "com.microsoft::GroupNorm" not in ops(cpu)  # onnxruntime's CPU has no kernel
    cuda, _ = optimize_for_ort(ir.from_proto(parse(model())), "CUDAExecutionProvider")
    assert ops(cuda) == ["Transpose", "com.microsoft::GroupNorm", "Transpose"]
    assert gn.runs_group_norm("cuda") and not gn.runs_group_norm(None)
