"""The Dropout rules: a Dropout is an Identity in inference mode or with ratio 0, and
before opset 7 only with ``is_test=1`` (Dropout-1 to 6 train by default)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import pytest

from onnxscript import rewriter
from onnxscript.rewriter.rules.common import dropout_inference_rule
from tests.helpers import assert_transform_keeps_results


def _rewritten(text: str) -> tuple[onnx.ModelProto, onnx.ModelProto]:
    model = onnx.parser.parse_model(text)
    onnx.checker.check_model(model, full_check=True)
    result = rewriter.rewrite(model, pattern_rewrite_rules=[dropout_inference_rule])
    onnx.checker.check_model(result, full_check=True)
    return model, result


@pytest.mark.parametrize(("is_test", "expected"), [(0, "Dropout"), (1, "Identity")])
def test_before_opset_7_only_is_test_is_inference(is_test: int, expected: str):
    """onnxruntime runs no Dropout before opset 7: the rewrite is told by its ops."""
    _, result = _rewritten(
        '<ir_version: 3, opset_import: ["" : 6]>\n'
        f"g (float[2,4] x) => (float[2,4] y) {{ y = Dropout<is_test={is_test}>(x) }}"
    )
    assert [n.op_type for n in result.graph.node] == [expected]


def test_from_opset_7_a_dropout_infers():
    model, result = _rewritten(
        '<ir_version: 10, opset_import: ["" : 13]>\n'
        "g (float[2,4] x) => (float[2,4] y) { y = Dropout(x) }"
    )
    assert [n.op_type for n in result.graph.node] == ["Identity"]
    assert_transform_keeps_results(model, result, {"x": np.ones((2, 4), np.float32)})
