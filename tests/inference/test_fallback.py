"""onnx's inference for ops without a fast rule: the types it is given carry every shape
known, the element shapes of sequences and optionals included; its shapes are not
taken when an input's rank is unknown (onnx reads such an input as absent)."""

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


_LOOP_OF_UNKNOWN_RANK = """
  c = Constant<value=bool {1}>()
  T = Loop(n, c, c4) <body = b (int64 i, bool ci, int64[] ti) => (bool co, int64[] to) {
    co = Identity(ci)
    seq = SequenceConstruct(ti)
    to = SequenceAt(seq, i)
  }>"""
"""T: the int64[1] {-1} given, through a Loop whose body's output has no known rank."""


def test_onnx_shapes_are_not_taken_when_an_input_has_unknown_rank():
    """onnx's Slice inference reads steps it has no shape of as absent (step 1): x[-1:-big]
    of a dim of 2 has 0 elements by it, 2 with steps -1. Shape was folded to [2, 0]."""
    model = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2,2] X) => (int64[2] S)
            <int64[1] c3 = {-1}, int64[1] c4 = {-1}, int64 n = {1}> {"""
        + _LOOP_OF_UNKNOWN_RANK
        + """
          c1 = Constant<value=int64[1] {-1}>()
          c2 = Constant<value=int64[1] {-9223372036854775807}>()
          r1 = Slice(X, c1, c2, c3, T)
          r2 = Slice(r1, c1, c2, c3, T)
          S = Shape(r2) }"""
    )
    onnx.checker.check_model(model, full_check=True)
    feeds = {"X": np.arange(4, dtype=np.float32).reshape(2, 2)}
    after = optimizer.optimize(model)
    assert "Shape" in [n.op_type for n in after.graph.node]  # its input's dims are unknown
    assert_transform_keeps_results(model, after, feeds)
