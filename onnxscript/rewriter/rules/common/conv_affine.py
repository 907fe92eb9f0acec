"""A scalar affine map (``x * s + o``, constants) folded into an adjacent Conv.

``conv_affine_fusion_rule``: ``Conv(x, w, b) * s + o`` -> ``Conv(x, w * s, b * s + o)``
(no bias: ``o``). ``affine_conv_fusion_rule``: ``Conv(x * s + o, w, b)`` ->
``Conv(x, w * s, b + o * sum(w))`` (the sum over each output channel's weights), only
when the Conv pads nothing (padding adds zeros, not ``o``). Named rules, not in the
default set."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.metadata import record_folded_from
from onnxscript.ir_utils.value_facts import constant_array
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.rules.common.conv_pad import explicit_pads
from onnxscript.rewriter.rules.common.node_copies import has_ref_attributes, rebuilt


def _scalar(value: ir.Value | None) -> float | None:
    array = constant_array(value)
    return float(array.reshape(-1)[0]) if array is not None and array.size == 1 else None


def _weights(conv: ir.Node) -> tuple[np.ndarray, np.ndarray | None] | None:
    """The Conv's constant weight and bias (None when it has none)."""
    weight = constant_array(conv.inputs[1], max_size=None)
    bias_value = conv.inputs[2] if len(conv.inputs) > 2 else None
    bias = constant_array(bias_value, max_size=None) if bias_value is not None else None
    if weight is None or (bias_value is not None and bias is None):
        return None
    return weight, bias


def _usable(conv: ir.Node, scale: ir.Value, offset: ir.Value) -> MatchResult:
    result = MatchResult()
    if has_ref_attributes(conv) or _weights(conv) is None:
        return result.fail("the Conv's weight and bias must be constants", conv)
    if _scalar(scale) is None or _scalar(offset) is None:
        return result.fail("the scale and offset must be one-element constants", [scale, offset])
    return result


def _new_weights(
    op: Any, conv: ir.Node, weight: np.ndarray, bias: np.ndarray, sources: list[Any]
) -> list[Any]:
    name = conv.inputs[1].name or "weight"  # type: ignore[union-attr]
    values = []
    for array, suffix in ((weight, "scaled"), (bias, "offset")):
        value = op.initializer(ir.tensor(array), f"{name}_{suffix}")
        record_folded_from(value, sources)
        values.append(value)
    return values


class ConvAffineFusion(RewriteRuleClassBase):
    """``Conv(x, w, b) * s + o`` -> ``Conv(x, w * s, b * s + o)``."""

    def pattern(self, op: Any, x: Any, scale: Any, offset: Any) -> Any:
        y = op.Conv(x, _allow_other_inputs=True, _outputs=["y"])
        return op.Add(op.Mul(y, scale), offset)

    def check(self, context: Any, y: Any, scale: Any, offset: Any, **_: Any) -> MatchResult:
        return _usable(y.producer(), scale, offset)

    def rewrite(self, op: Any, x: Any, y: Any, scale: Any, offset: Any, **_: Any) -> Any:
        conv = y.producer()
        found = _weights(conv)
        s, o = _scalar(scale), _scalar(offset)
        assert found is not None and s is not None and o is not None
        weight, bias = found
        base = np.zeros(weight.shape[0]) if bias is None else bias.astype(np.float64)
        new_bias = (base * s + o).astype(weight.dtype)
        new_weight = (weight.astype(np.float64) * s).astype(weight.dtype)
        sources = [*conv.inputs[1:3], scale, offset]
        values = _new_weights(op, conv, new_weight, new_bias, sources)
        return rebuilt(op, conv, [x, *values])


class AffineConvFusion(RewriteRuleClassBase):
    """``Conv(x * s + o, w, b)`` (no padding) -> ``Conv(x, w * s, b + o * sum(w))``."""

    def pattern(self, op: Any, x: Any, scale: Any, offset: Any) -> Any:
        shifted = op.Add(op.Mul(x, scale), offset)
        return op.Conv(shifted, _allow_other_inputs=True, _outputs=["out"])

    def check(self, context: Any, out: Any, scale: Any, offset: Any, **_: Any) -> MatchResult:
        conv = out.producer()
        found = _usable(conv, scale, offset)
        if found:
            pads = explicit_pads(conv)
            if pads is None or any(pads):
                return found.fail("the Conv pads its input", conv)
        return found

    def rewrite(self, op: Any, x: Any, out: Any, scale: Any, offset: Any, **_: Any) -> Any:
        conv = out.producer()
        found = _weights(conv)
        s, o = _scalar(scale), _scalar(offset)
        assert found is not None and s is not None and o is not None
        weight, bias = found
        wide = weight.astype(np.float64)
        base = np.zeros(weight.shape[0]) if bias is None else bias.astype(np.float64)
        new_bias = (base + o * wide.reshape(wide.shape[0], -1).sum(axis=1)).astype(weight.dtype)
        sources = [*conv.inputs[1:3], scale, offset]
        values = _new_weights(op, conv, (wide * s).astype(weight.dtype), new_bias, sources)
        return rebuilt(op, conv, [x, *values], drop=["auto_pad"])


conv_affine_fusion_rule = ConvAffineFusion.rule()
affine_conv_fusion_rule = AffineConvFusion.rule()

__all__ = [
    "AffineConvFusion",
    "ConvAffineFusion",
    "affine_conv_fusion_rule",
    "conv_affine_fusion_rule",
]
