"""Ops newer than the target opset written with older ops: Gelu (20)."""

from __future__ import annotations

import math

import onnx_ir as ir

from onnxscript.version_converter._context import Adapter, Rewrite
from onnxscript.version_converter.adapters._tables import Table


def _gelu(rewrite: Rewrite) -> None:
    """0.5 x (1 + erf(x / sqrt 2)), or with tanh: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715
    x^3)))."""
    x = rewrite.input(0)
    dtype = rewrite.required_dtype(x)

    def const(value: float) -> ir.Value:
        return rewrite.const(value, dtype)

    if rewrite.attr("approximate", "none") == "tanh":
        cube = rewrite.op1("Mul", [rewrite.op1("Mul", [x, x]), x])
        inner = rewrite.op1("Add", [x, rewrite.op1("Mul", [cube, const(0.044715)])])
        scaled = rewrite.op1("Mul", [inner, const(math.sqrt(2 / math.pi))])
        curve = rewrite.op1("Tanh", [scaled])
    else:
        curve = rewrite.op1("Erf", [rewrite.op1("Div", [x, const(math.sqrt(2))])])
    shifted = rewrite.op1("Add", [curve, const(1.0)])
    half = rewrite.op1("Mul", [x, const(0.5)])
    rewrite.replace_outputs([rewrite.op1("Mul", [half, shifted])])


ADAPTERS: Table = {
    ("Gelu", 20, 19): Adapter(_gelu, "written with Erf (or Tanh for approximate='tanh')"),
}

__all__ = ["ADAPTERS"]
