"""Slice collapsing and Slices to Split. Op-type lists marked "0.7.2" were computed by
running onnxscript 0.7.2's ``rewriter.rewrite(model, pattern_rewrite_rules=[rule])`` on
the same model text."""

from __future__ import annotations

import onnx
import pytest

from onnxscript.rewriter.rules.common import (
    collapse_slice2_rule,
    collapse_slice_rule,
    slice_split_rule,
)
from tests.rewriter.rule_checks import check_rule, op_types, parse

MAX = 9223372036854775807


def sliced(x: str, start: int, end: int, step: int = 1, out: str = "[d0,d1]") -> str:
    return f"""
g (float{x} x) => (float{out} z) {{
  st = Constant<value=int64[1] {{{start}}}>()
  en = Constant<value=int64[1] {{{end}}}>()
  ax = Constant<value=int64[1] {{1}}>()
  sp = Constant<value=int64[1] {{{step}}}>()
  y = Slice(x, st, en, ax, sp)
  z = Relu(y)
}}"""


@pytest.mark.parametrize(
    ("x", "start", "end"),
    [("[4,6]", 0, MAX), ("[4,6]", 0, 6), ("[4,6]", 0, 100), ("[4,N]", 0, MAX), ("[4,6]", -6, 6)],
)
def test_collapse_slice(x: str, start: int, end: int) -> None:
    # 0.7.2 (the first four): ['Identity', 'Relu']
    result = check_rule(sliced(x, start, end), [collapse_slice_rule])
    assert op_types(result) == ["Identity", "Relu"]


@pytest.mark.parametrize(
    ("x", "start", "end", "step"),
    [("[4,6]", 0, 5, 1), ("[4,N]", 0, 100, 1), ("[4,6]", -1, -MAX, -1), ("[4,1]", 0, 1, 2)],
)
def test_collapse_slice_refused(x: str, start: int, end: int, step: int) -> None:
    # 0.7.2 leaves each alone too.
    result = check_rule(sliced(x, start, end, step), [collapse_slice_rule], sizes={"N": 200})
    assert "Slice" in op_types(result)


def test_collapse_slice_three_inputs() -> None:
    # Omitted axes and steps (0.7.2 only matches the five-input form).
    text = f"""
g (float[4,6] x) => (float[4,6] z) {{
  st = Constant<value=int64[2] {{0,0}}>()
  en = Constant<value=int64[2] {{{MAX},{MAX}}}>()
  y = Slice(x, st, en)
  z = Relu(y)
}}"""
    assert op_types(check_rule(text, [collapse_slice_rule])) == ["Identity", "Relu"]


def with_output_shape(text: str, shape: list[object]) -> onnx.ModelProto:
    model = parse(text)
    model.graph.value_info.append(onnx.helper.make_tensor_value_info("y", 1, shape))
    return model


@pytest.mark.parametrize(("x", "end", "y_shape"), [("[4,6]", 6, [4, 6]), ("[4,N]", 100, [4, "N"])])
def test_collapse_slice2(x: str, end: int, y_shape: list[object]) -> None:
    # 0.7.2: ['Identity', 'Relu'] for both.
    model = with_output_shape(sliced(x, 0, end), y_shape)
    result = check_rule(model, [collapse_slice2_rule], sizes={"N": 7})
    assert op_types(result) == ["Identity", "Relu"]


@pytest.mark.parametrize(
    ("x", "start", "end", "step", "y_shape"),
    [
        ("[4,6]", 0, 3, 1, None),  # output shape unknown
        ("[4,N]", 0, 100, 1, [4, "M"]),  # another symbol
        ("[4,6]", -1, -MAX, -1, [4, 6]),  # reversed: same shape, other order
    ],
)
def test_collapse_slice2_refused(
    x: str, start: int, end: int, step: int, y_shape: list[object] | None
) -> None:
    text = sliced(x, start, end, step)
    model = with_output_shape(text, y_shape) if y_shape else parse(text)
    result = check_rule(model, [collapse_slice2_rule])
    assert "Slice" in op_types(result)


def halves(x: str, mid: int, axis: int = 1, end: int = 8, first_last: bool = True) -> str:
    slices = [
        "y1 = Slice(x, mid, e1, a0)",
        "y0 = Slice(x, s0, mid, a0)",
    ]
    if not first_last:
        slices.reverse()
    body = "\n  ".join(slices)
    return f"""
g (float{x} x) => (float[p0,p1] y0, float[q0,q1] y1) {{
  s0 = Constant<value=int64[1] {{0}}>()
  mid = Constant<value=int64[1] {{{mid}}}>()
  e1 = Constant<value=int64[1] {{{end}}}>()
  a0 = Constant<value=int64[1] {{{axis}}}>()
  {body}
}}"""


@pytest.mark.parametrize(
    "text",
    [
        halves("[2,8]", 4),  # 0.7.2: ['Split'] (num_outputs=2; ours gives sizes)
        halves("[2,8]", 4, axis=-1),  # 0.7.2: ['Split']
        halves("[N,8]", 4),  # 0.7.2: ['Split']
        halves("[2,8]", 4, first_last=False),  # 0.7.2: unchanged (matcher order)
        halves("[2,8]", 2),  # 0.7.2: unchanged (it only splits in halves)
        halves("[4,8]", 1, axis=0, end=4),  # 0.7.2: unchanged (last axis only)
        halves("[2,8]", 4, end=MAX),  # 0.7.2: unchanged
    ],
)
def test_slice_split(text: str) -> None:
    result = check_rule(text, [slice_split_rule])
    assert op_types(result) == ["Constant", "Split"]


@pytest.mark.parametrize(
    "text",
    [
        halves("[2,N]", 4, end=MAX),  # split point unknown relative to N
        halves("[2,8]", 4, end=7),  # not covering
    ],
)
def test_slice_split_refused(text: str) -> None:
    result = check_rule(text, [slice_split_rule], sizes={"N": 9})
    assert op_types(result).count("Slice") == 2


def test_slice_split_needs_opset_13() -> None:
    result = check_rule(halves("[2,8]", 4), [slice_split_rule], opset=12)
    assert op_types(result).count("Slice") == 2
