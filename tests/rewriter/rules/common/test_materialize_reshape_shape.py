"""A Reshape whose result's shape is known gets it as a constant; ``allowzero`` only from
opset 14 (Reshape-13 has no such attribute)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import pytest

from onnxscript import rewriter
from onnxscript.rewriter.rules.common import materialize_reshape_shape_rule
from tests.helpers import assert_transform_keeps_results


def _model(opset: int, source: str, result: str) -> onnx.ModelProto:
    """``Reshape(X, Concat(Shape(X)[:2], [2, 3]))`` with the result's shape declared."""
    model = onnx.parser.parse_model(
        f"""<ir_version: 8, opset_import: ["" : {opset}]>
        g ({source} X) => ({result} Y) {{
          z = Constant<value_ints=[0]>()
          two = Constant<value_ints=[2]>()
          b = Constant<value_ints=[2,3]>()
          s = Shape(X)
          a = Slice(s, z, two)
          t = Concat<axis=0>(a, b)
          Y = Reshape(X, t) }}"""
    )
    onnx.checker.check_model(model, full_check=True)
    return model


def _reshapes(model: onnx.ModelProto) -> list[onnx.NodeProto]:
    return [n for n in model.graph.node if n.op_type == "Reshape"]


@pytest.mark.parametrize("opset", [13, 14, 18])
def test_the_shape_becomes_a_constant_with_allowzero_from_opset_14(opset: int):
    model = _model(opset, "float[2,N,6]", "float[2,N,2,3]")
    result = rewriter.rewrite(model, pattern_rewrite_rules=[materialize_reshape_shape_rule])
    (reshape,) = _reshapes(result)
    attributes = {a.name: a.i for a in reshape.attribute}
    assert attributes == ({"allowzero": 1} if opset >= 14 else {})
    assert "Shape" not in [n.op_type for n in result.graph.node]
    feeds = {"X": np.arange(36, dtype=np.float32).reshape(2, 3, 6)}
    assert_transform_keeps_results(model, result, feeds)


def test_a_zero_dim_read_as_it_is_is_left_alone_before_opset_14():
    model = _model(13, "float[0,4,6]", "float[0,4,2,3]")
    result = rewriter.rewrite(model, pattern_rewrite_rules=[materialize_reshape_shape_rule])
    onnx.checker.check_model(result, full_check=True)
    assert "Shape" in [n.op_type for n in result.graph.node]
