"""A float16 Softmax computed in float32 between Casts (``Cast(Softmax(Cast(x, float)),
float16)``, as torch exports ``softmax(x, dtype=float32).half()``) to a Softmax on the
float16 input: onnxruntime's float16 Softmax accumulates in float32 already.

Two rules, as in 0.7: with an ``axis`` attribute and without one (the default axis)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.rewriter.pattern import RewriteRule, RewriteRuleSet


def softmax_with_fp32_upcast(op: Any, input: Any, axis: Any) -> Any:
    """The pattern: ``Cast(Softmax(Cast(input, float), axis), float16)``."""
    upcast = op.Cast(input, to=int(ir.DataType.FLOAT))
    return op.Cast(op.Softmax(upcast, axis=axis), to=int(ir.DataType.FLOAT16))


def softmax(op: Any, input: Any, axis: Any) -> Any:
    """The replacement: ``Softmax(input, axis)``."""
    return op.Softmax(input, axis=axis)


def softmax_with_fp32_upcast_without_axis(op: Any, input: Any) -> Any:
    """The pattern with the Softmax's default axis."""
    upcast = op.Cast(input, to=int(ir.DataType.FLOAT))
    return op.Cast(op.Softmax(upcast), to=int(ir.DataType.FLOAT16))


def softmax_without_axis(op: Any, input: Any) -> Any:
    """The replacement with the default axis."""
    return op.Softmax(input)


def check_if_fp16_input(context: Any, input: ir.Value, **_: Any) -> bool:
    """Whether the Softmax's original input is float16 (the upcast and the downcast are
    then both exact round trips of its precision)."""
    return input.dtype == ir.DataType.FLOAT16


softmax_with_fp32_upcast_rule = RewriteRule(
    softmax_with_fp32_upcast, softmax, check_if_fp16_input, name="SoftmaxUpcast"
)
softmax_with_fp32_upcast_without_axis_rule = RewriteRule(
    softmax_with_fp32_upcast_without_axis,
    softmax_without_axis,
    check_if_fp16_input,
    name="SoftmaxUpcastDefaultAxis",
)
rules = RewriteRuleSet([softmax_with_fp32_upcast_rule, softmax_with_fp32_upcast_without_axis_rule])

__all__ = [
    "check_if_fp16_input",
    "rules",
    "softmax",
    "softmax_with_fp32_upcast",
    "softmax_with_fp32_upcast_rule",
    "softmax_with_fp32_upcast_without_axis",
    "softmax_with_fp32_upcast_without_axis_rule",
    "softmax_without_axis",
]
