"""``onnxscript.rewriter.onnxruntime.rewrite`` (0.7's deprecated entry point): the
default rules for onnxruntime (FusedMatMul, the float16 Softmax) and only the rules
given, on a ModelProto (a new one) or an ``ir.Model`` (in place); onnxruntime's results
equal before and after."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir

from onnxscript.rewriter import onnxruntime as ort_rewriter
from onnxscript.rewriter.ort_fusions import softmax
from tests.rewriter import rule_checks
from tests.rewriter.ort_fusions.fusing import check_model, parse

MODEL = """<ir_version: 10, opset_import: ["" : 18]>
g (float16[2,3,4] x, float[2,4,5] a, float[2,5,4] b) => (float16[2,3,4] y, float[2,4,4] z) {
  xf = Cast <to = 1> (x)
  s = Softmax <axis = -1> (xf)
  y = Cast <to = 10> (s)
  product = MatMul (a, b)
  two = Constant <value = float {2.0}> ()
  z = Div (product, two)
}"""


def ops(model: onnx.ModelProto) -> list[str]:
    return [n.op_type for n in model.graph.node if n.op_type != "Constant"]


def compare(before: onnx.ModelProto, after: onnx.ModelProto) -> None:
    feeds = rule_checks.random_inputs(before)
    for got, want in zip(rule_checks.run(after, feeds), rule_checks.run(before, feeds)):
        np.testing.assert_allclose(got, want, rtol=2e-3, atol=1e-3)


def test_default_rules_for_onnxruntime() -> None:
    before = parse(MODEL)
    after = ort_rewriter.rewrite(before)
    assert isinstance(after, onnx.ModelProto) and after is not before
    assert sorted(ops(after)) == ["FusedMatMul", "Softmax"]
    check_model(after)
    compare(before, after)


def test_given_rules_only_and_ir_models_in_place() -> None:
    before = parse(MODEL)
    model = ir.from_proto(parse(MODEL))
    result = ort_rewriter.rewrite(model, pattern_rules=softmax.rules.rules)
    assert result is model
    after = ir.to_proto(model)
    assert sorted(ops(after)) == ["Div", "MatMul", "Softmax"]
    compare(before, after)
