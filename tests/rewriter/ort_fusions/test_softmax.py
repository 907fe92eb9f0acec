"""Casts around a float32 Softmax of a float16 tensor removed; outputs equal in
onnxruntime within float16 precision."""

from __future__ import annotations

import pytest

from onnxscript.rewriter.ort_fusions import softmax
from tests.rewriter.ort_fusions.fusing import attributes, fuse_and_compare, node, ops

HEADER = '<ir_version: 10, opset_import: ["" : 18]>\n'


def model(x: str, body: str) -> str:
    return HEADER + f"g ({x}[B,S,8] x) => ({x}[B,S,8] y) {{ {body} }}"


@pytest.mark.parametrize("axis", ["<axis = -1>", "<axis = 1>", ""])
def test_float16_softmax_loses_its_casts(axis: str) -> None:
    body = f"xf = Cast <to = 1> (x)\n s = Softmax {axis} (xf)\n y = Cast <to = 10> (s)"
    fused = fuse_and_compare(
        model("float16", body), softmax.rules.apply_to_model, 1, rtol=2e-3, atol=1e-3
    )
    assert ops(fused) == ["Softmax"]
    expected = {"axis": int(axis[8:-1])} if axis else {}
    assert attributes(node(fused, "Softmax")) == expected


@pytest.mark.parametrize(
    "x, body",
    [
        ("float", "xf = Cast <to = 1> (x)\n s = Softmax (xf)\n y = Cast <to = 1> (s)"),
        ("float16", "xf = Cast <to = 11> (x)\n s = Softmax (xf)\n y = Cast <to = 10> (s)"),
        ("float16", "y = Softmax (x)"),
    ],
)
def test_other_casts_stay(x: str, body: str) -> None:
    fuse_and_compare(model(x, body), softmax.rules.apply_to_model, 0)
