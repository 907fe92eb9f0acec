"""``x + 0``, ``x - 0``, ``x * 1``, ``x / 1`` -> ``x``: the second input is a one-element
constant equal to the neutral number (exactly: ``x + 1e-9`` is kept) and broadcasting
with it leaves ``x``'s shape as it is. As in 0.7, each rule matches the constant as the
second input; the default set adds the commuted forms of the Add and Mul rules."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import broadcast_keeps_shape, constant_array
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.replacement import RewriterContext


def add_0(op: Any, x: Any, neutral_value: Any) -> Any:
    return op.Add(x, neutral_value)


def sub_0(op: Any, x: Any, neutral_value: Any) -> Any:
    return op.Sub(x, neutral_value)


def mul_by_1(op: Any, x: Any, neutral_value: Any) -> Any:
    return op.Mul(x, neutral_value)


def div_by_1(op: Any, x: Any, neutral_value: Any) -> Any:
    return op.Div(x, neutral_value)


def identity(op: RewriterContext, x: ir.Value, **_: Any) -> ir.Value:
    """The replacement of every no-op rule: ``x`` itself."""
    value: ir.Value = op.Identity(x)
    return value


def _is_neutral(x: ir.Value, value: ir.Value, neutral: int) -> MatchResult:
    result = MatchResult()
    array = constant_array(value)
    if array is None or array.size != 1:
        return result.fail("not a one-element constant", value)
    if array.dtype == np.bool_ or not np.all(array == neutral):
        return result.fail(f"the constant is not {neutral}", value)
    if not broadcast_keeps_shape(x, array.shape):
        return result.fail("broadcasting with the constant changes the shape", x)
    return result


def _is_0(context: MatchContext, x: ir.Value, neutral_value: ir.Value) -> MatchResult:
    return _is_neutral(x, neutral_value, 0)


def _is_1(context: MatchContext, x: ir.Value, neutral_value: ir.Value) -> MatchResult:
    return _is_neutral(x, neutral_value, 1)


add_0_rule = RewriteRule(add_0, identity, _is_0, name="Add0")
sub_0_rule = RewriteRule(sub_0, identity, _is_0, name="Sub0")
mul_by_1_rule = RewriteRule(mul_by_1, identity, _is_1, name="MulBy1")
div_by_1_rule = RewriteRule(div_by_1, identity, _is_1, name="DivBy1")

__all__ = [
    "add_0",
    "add_0_rule",
    "div_by_1",
    "div_by_1_rule",
    "identity",
    "mul_by_1",
    "mul_by_1_rule",
    "sub_0",
    "sub_0_rule",
]
