"""ScatterND writing every row. Op-type lists marked "0.7.2" were computed by running
onnxscript 0.7.2's ``rewriter.rewrite(model, pattern_rewrite_rules=[rule])`` on the same
model text."""

from __future__ import annotations

import onnx.shape_inference
import pytest

from onnxscript.rewriter.rules.common import (
    no_op_dynamic_scatter_nd_rule,
    no_op_static_scatter_nd_rule,
)
from tests.rewriter.rule_checks import check_rule, op_types, parse


def static(indices: str, rows: int = 3, reduction: str = "") -> str:
    count = indices.count(",") + 1
    attrs = f'<reduction="{reduction}">' if reduction else ""
    return f"""
g (float[3,4] data, float[{rows},4] upd) => (float[3,4] z) {{
  idx = Constant<value=int64[{count},1] {{{indices}}}>()
  z = ScatterND{attrs}(data, idx, upd)
}}"""


def test_static() -> None:
    # 0.7.2: ['Identity']
    assert op_types(check_rule(static("0,1,2"), [no_op_static_scatter_nd_rule])) == ["Identity"]


@pytest.mark.parametrize(
    "text", [static("2,1,0"), static("0,1", rows=2), static("0,1,2", reduction="add")]
)
def test_static_refused(text: str) -> None:
    # 0.7.2 leaves the first two alone too.
    assert "ScatterND" in op_types(check_rule(text, [no_op_static_scatter_nd_rule]))


def dynamic(axes: int = 1, start: int = 0, index: str = "int64 {0}") -> str:
    return f"""
g (float[N,4] data, float[N,4] upd) => (float[N,4] z) {{
  sh = Shape(data)
  zero = Constant<value=int64 {{{start}}}>()
  one = Constant<value=int64 {{1}}>()
  i0 = Constant<value={index}>()
  d0 = Gather<axis=0>(sh, i0)
  r = Range(zero, d0, one)
  ax = Constant<value=int64[1] {{{axes}}}>()
  idx = Unsqueeze(r, ax)
  z = ScatterND(data, idx, upd)
}}"""


@pytest.mark.parametrize("axes", [1, -1])
def test_dynamic(axes: int) -> None:
    # 0.7.2 leaves this graph alone (we found no graph its dynamic rule rewrites).
    result = check_rule(dynamic(axes), [no_op_dynamic_scatter_nd_rule], sizes={"N": 5})
    assert op_types(result) == ["Identity"]


def test_dynamic_refused_other_start() -> None:
    text = dynamic(start=1).replace("float[N,4] upd", "float[M,4] upd")
    result = check_rule(text, [no_op_dynamic_scatter_nd_rule], sizes={"N": 5, "M": 4})
    assert "ScatterND" in op_types(result)


def test_static_refused_for_updates_of_another_shape() -> None:
    # An invalid model (updates [3,8] for data [3,4]): left alone, as 0.7.2 does.
    text = static("0,1,2").replace("float[3,4] upd", "float[3,8] upd")
    from onnxscript import ir

    model = ir.from_onnx_text(
        '<ir_version: 10, opset_import: ["" : 20]>' + text.replace("float[3,4] z", "float[3,4] z")
    )
    assert no_op_static_scatter_nd_rule.apply_to_model(model) == 0


def test_dynamic_over_a_dim_known_to_be_datas_first() -> None:
    # The range ends at dim 1 of x, which is the transposed data's dim 0 (named N).
    text = """
g (float[4,N,2] x, float[N,4,2] upd) => (float[N,4,2] z) {
  data = Transpose<perm=[1,0,2]>(x)
  sh = Shape(x)
  zero = Constant<value=int64 {0}>()
  one = Constant<value=int64 {1}>()
  i1 = Constant<value=int64 {1}>()
  d1 = Gather<axis=0>(sh, i1)
  r = Range(zero, d1, one)
  ax = Constant<value=int64[1] {-1}>()
  idx = Unsqueeze(r, ax)
  z = ScatterND(data, idx, upd)
}"""
    # Shapes inferred first, as the exporter records them (0.7.2's test does the same).
    model = onnx.shape_inference.infer_shapes(parse(text))
    result = check_rule(model, [no_op_dynamic_scatter_nd_rule], sizes={"N": 5})
    assert "ScatterND" not in op_types(result)
