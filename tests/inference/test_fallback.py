"""onnx's inference for ops without a fast rule: the types it is given carry every shape
known, the element shapes of sequences and optionals included."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser

from onnxscript import optimizer
from tests.helpers import assert_transform_keeps_results


def test_an_optional_keeps_its_elements_shape_through_onnx_inference():
    """onnx's Attention inference reads a past of unknown shape as no past (a total
    length of 6, not 18): the optional's element shape must reach it."""
    model = onnx.parser.parse_model(
        """<ir_version: 10, opset_import: ["" : 23]>
        g (float[2,3,4,8] Q, float[2,3,6,8] K, float[2,3,6,8] V,
           float[2,3,12,8] PK, float[2,3,12,8] PV)
          => (float[2,3,4,8] Y, float[2,3,18,8] pk, float[2,3,18,8] pv2, int64[4] S) {
          o = Optional(PV)
          pv = OptionalGetElement(o)
          Y, pk, pv2, qk = Attention<qk_matmul_output_mode=0>(Q, K, V, , PK, pv)
          S = Shape(qk) }"""
    )
    onnx.checker.check_model(model, full_check=True)
    rng = np.random.default_rng(0)
    feeds = {
        name: rng.standard_normal(shape).astype(np.float32)
        for name, shape in (
            ("Q", (2, 3, 4, 8)),
            ("K", (2, 3, 6, 8)),
            ("V", (2, 3, 6, 8)),
            ("PK", (2, 3, 12, 8)),
            ("PV", (2, 3, 12, 8)),
        )
    }
    assert_transform_keeps_results(model, optimizer.optimize(model), feeds)
