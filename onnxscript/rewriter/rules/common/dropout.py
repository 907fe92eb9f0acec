"""A Dropout that drops nothing -> its input: ``dropout_zero_rule`` when the ratio is a
constant 0 (the ``ratio`` input of opset 12 on, or the attribute before), and
``dropout_inference_rule`` when ``training_mode`` is absent or a constant false (a model
runs in inference mode; before opset 7, when ``is_test`` is 1). The mask output must be
unused (it would be all true)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import attr_int, constant_array
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.rules.common.no_op_arithmetic import identity


def dropout_zero(op: Any, x: Any) -> Any:
    return op.Dropout(x, _allow_other_inputs=True)


def dropout_inference(op: Any, x: Any) -> Any:
    return op.Dropout(x, _allow_other_inputs=True)


def _input(node: ir.Node, index: int) -> ir.Value | None:
    return node.inputs[index] if len(node.inputs) > index else None


def _ratio_is_zero(context: MatchContext, x: ir.Value) -> MatchResult:
    node = context.root
    result = MatchResult()
    ratio = _input(node, 1)
    if ratio is not None:
        array = constant_array(ratio)
        if array is None or array.size != 1 or float(array.ravel()[0]) != 0.0:
            return result.fail("the ratio is not a constant 0", ratio)
        return result
    attr = node.attributes.get("ratio")
    if attr is None or attr.is_ref() or float(attr.value) != 0.0:
        return result.fail("the ratio is not 0 (0.5 when not given)", node)
    return result


def _inference_mode(context: MatchContext, x: ir.Value) -> MatchResult:
    training = _input(context.root, 2)
    result = MatchResult()
    if context.opset() < 7 and attr_int(context.root, "is_test", 0) != 1:
        return result.fail("before opset 7 a Dropout trains unless is_test=1", context.root)
    if training is None:
        return result
    array = constant_array(training)
    if array is None or array.size != 1 or bool(np.asarray(array).ravel()[0]):
        return result.fail("training_mode is not a constant false", training)
    return result


dropout_zero_rule = RewriteRule(dropout_zero, identity, _ratio_is_zero, name="DropoutZero")
dropout_inference_rule = RewriteRule(
    dropout_inference, identity, _inference_mode, name="DropoutInference"
)

__all__ = ["dropout_inference", "dropout_inference_rule", "dropout_zero", "dropout_zero_rule"]
