"""A bfloat16 model's inputs and outputs made float16 (Casts to bfloat16 inside): the
model is checker-clean and onnxruntime runs it on float16 arrays, giving what the
bfloat16 model computes (values bfloat16 and float16 both hold exactly); other types
and a bfloat16 input passed straight to the output stay as they are."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import onnx_ir as ir

from onnxscript.rewriter.onnxruntime.bfloat16_utils.bfloat16_converter import (
    dtype_adapter_for_bfloat16_model,
)
from tests.rewriter import rule_checks

MODEL = """<ir_version: 10, opset_import: ["" : 18]>
g (bfloat16[2,3] x, float[2] f, bfloat16[N,3] z) => (bfloat16[3,2] y, float[2] h, bfloat16[N,3] w) {
  y = Transpose <perm = [1, 0]> (x)
  h = Neg (f)
  w = Identity (z)
}"""


def adapted(text: str) -> onnx.ModelProto:
    model = ir.from_proto(onnx.parser.parse_model(text))
    assert dtype_adapter_for_bfloat16_model(model) is None
    proto = ir.to_proto(model)
    onnx.checker.check_model(proto, full_check=True)
    return proto


def test_inputs_and_outputs_become_float16() -> None:
    proto = adapted(MODEL)
    types = {
        v.name: v.type.tensor_type.elem_type for v in [*proto.graph.input, *proto.graph.output]
    }
    f16, f32 = onnx.TensorProto.FLOAT16, onnx.TensorProto.FLOAT
    assert types == {"x": f16, "f": f32, "z": f16, "y": f16, "h": f32, "w": f16}
    assert [n.op_type for n in proto.graph.node].count("Cast") == 4
    x = np.arange(6, dtype=np.float16).reshape(2, 3) / 4
    z = -np.arange(9, dtype=np.float16).reshape(3, 3)
    f = np.array([1.5, -2.0], np.float32)
    y, h, w = rule_checks.run(proto, {"x": x, "f": f, "z": z})
    assert y.dtype == np.float16 and w.dtype == np.float16 and h.dtype == np.float32
    np.testing.assert_array_equal(y, x.T)
    np.testing.assert_array_equal(w, z)
    np.testing.assert_array_equal(h, -f)


def test_input_passed_to_the_output_and_other_types() -> None:
    proto = adapted(
        """<ir_version: 10, opset_import: ["" : 18]>
g (bfloat16[2] x, float[2] f) => (bfloat16[2] x, float[2] g) { g = Neg (f) }"""
    )
    assert [n.op_type for n in proto.graph.node] == ["Neg"]
    assert proto.graph.output[0].type.tensor_type.elem_type == onnx.TensorProto.FLOAT16
    x = np.array([1.0, -3.0], np.float16)
    np.testing.assert_array_equal(rule_checks.run(proto, {"x": x, "f": x.astype(np.float32)})[0], x)
