"""An all-zero constant bias dropped from Conv, ConvTranspose, QLinearConv and Gemm
(the bias is optional: omitting it adds nothing), where the op's schema at the model's
opset has the bias optional (Gemm's ``C`` is required before opset 11)."""

from __future__ import annotations

from typing import Any

from onnxscript import schemas
from onnxscript.ir_utils.value_facts import constant_array
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.rules.common.node_copies import rebuilt

_BIAS_INDEX = {"Conv": 2, "ConvTranspose": 2, "Gemm": 2, "QLinearConv": 8}


class _RemoveOptionalBias(RewriteRuleClassBase):
    """``Op(..., bias)`` with a constant all-zero bias -> ``Op(...)``."""

    _op_type = "Conv"

    def pattern(self, op: Any, x: Any) -> Any:
        return getattr(op, self._op_type)(x, _allow_other_inputs=True, _outputs=["out"])

    def check(self, context: Any, out: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        node = out.producer()
        index = _BIAS_INDEX[self._op_type]
        bias = node.inputs[index] if len(node.inputs) > index else None
        array = constant_array(bias, max_size=None)
        if array is None or array.any():
            return result.fail("Bias is not all zeros.", bias or node)
        facts = schemas.op_facts(node.domain, self._op_type, context.opset(node.domain))
        if facts is None or facts.inputs[index].option != schemas.OPTIONAL:
            return result.fail("the bias is a required input at this opset", node)
        return result

    def rewrite(self, op: Any, out: Any, **_: Any) -> Any:
        node = out.producer()
        return rebuilt(op, node, list(node.inputs)[: _BIAS_INDEX[self._op_type]])


class RemoveOptionalBiasFromConv(_RemoveOptionalBias):
    _op_type = "Conv"


class RemoveOptionalBiasFromConvTranspose(_RemoveOptionalBias):
    _op_type = "ConvTranspose"


class RemoveOptionalBiasFromQLinearConv(_RemoveOptionalBias):
    _op_type = "QLinearConv"


class RemoveOptionalBiasFromGemm(_RemoveOptionalBias):
    _op_type = "Gemm"


remove_optional_bias_from_conv_rule = RemoveOptionalBiasFromConv.rule()
remove_optional_bias_from_conv_transpose_rule = RemoveOptionalBiasFromConvTranspose.rule()
remove_optional_bias_from_qlinear_conv_rule = RemoveOptionalBiasFromQLinearConv.rule()
remove_optional_bias_from_gemm_rule = RemoveOptionalBiasFromGemm.rule()

__all__ = [
    "RemoveOptionalBiasFromConv",
    "RemoveOptionalBiasFromConvTranspose",
    "RemoveOptionalBiasFromGemm",
    "RemoveOptionalBiasFromQLinearConv",
    "remove_optional_bias_from_conv_rule",
    "remove_optional_bias_from_conv_transpose_rule",
    "remove_optional_bias_from_gemm_rule",
    "remove_optional_bias_from_qlinear_conv_rule",
]
