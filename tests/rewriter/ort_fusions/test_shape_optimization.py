"""A slice of the shape of a head split read from the dims it was made of: Identity of
one dim, Concat of several, an empty constant; refused with ``allowzero=0`` (a 0 would
copy the input's dim) and with a start that is not constant; onnxruntime's results
equal before and after."""

from __future__ import annotations

import pytest

from onnxscript.rewriter.ort_fusions import shape_optimization
from tests.rewriter.ort_fusions.fusing import fuse_and_compare, ops

HEADER = '<ir_version: 10, opset_import: ["" : 18]>\n'


def model(start: str, end: str, allowzero: int = 1) -> str:
    return (
        HEADER
        + f"""g (float[B,S,16] x) => (int64[N] y, float[B,4,S,4] t) {{
  d0 = Shape <start = 0, end = 1> (x)
  d1 = Shape <start = 1, end = 2> (x)
  h = Constant <value = int64[1] {{4}}> ()
  dh = Constant <value = int64[1] {{4}}> ()
  shape = Concat <axis = 0> (d0, d1, h, dh)
  r = Reshape <allowzero = {allowzero}> (x, shape)
  t = Transpose <perm = [0, 2, 1, 3]> (r)
  s = Shape (t)
  start = {start}
  end = Constant <value = int64[1] {{{end}}}> ()
  y = Slice (s, start, end)
}}"""
    )


def const(value: int) -> str:
    return f"Constant <value = int64[1] {{{value}}}> ()"


@pytest.mark.parametrize(
    ("start", "end", "result"),
    [
        (0, 1, "Identity"),
        (2, 3, "Identity"),
        (0, 2, "Concat"),
        (-3, -1, "Concat"),
        (1, 9, "Concat"),
    ],
)
def test_shape_slice_is_read_from_the_dims(start: int, end: int, result: str) -> None:
    fused = fuse_and_compare(
        model(const(start), str(end)), shape_optimization.rules.apply_to_model, 1
    )
    assert ops(fused)[-1] == result
    assert "Slice" not in ops(fused)


def test_empty_slice_is_an_empty_constant() -> None:
    fused = fuse_and_compare(model(const(2), "2"), shape_optimization.rules.apply_to_model, 1)
    y = fused.graph.outputs[0]
    assert y.producer() is not None and y.producer().op_type == "Constant"


def test_allowzero_0_is_refused() -> None:
    fuse_and_compare(model(const(0), "1", allowzero=0), shape_optimization.rules.apply_to_model, 0)


def test_start_not_constant_is_refused() -> None:
    start = "Shape <start = 0, end = 1> (d0)"  # a value known only when run
    fuse_and_compare(model(start, "1"), shape_optimization.rules.apply_to_model, 0)
