"""A bias Add followed by GELU, to one onnxruntime kernel: ``Gelu(x + bias)`` (ONNX's
exact ``Gelu`` or ``com.microsoft.Gelu``) to ``com.microsoft.BiasGelu(x, bias)``, and
the tanh approximation (ONNX ``Gelu`` with ``approximate="tanh"`` or
``com.microsoft.FastGelu``) to ``FastGelu(x, bias)``. ``bias`` is 1-D, of ``x``'s last
dim; the sum must have no other use."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions import cpu_kernels

_MS = "com.microsoft"


class BiasGeluFusion(RewriteRuleClassBase):
    """``Gelu(x + bias)``; ``contrib_op``: the Gelu is ``com.microsoft``'s; ``tanh``: the
    approximation (to FastGelu)."""

    def __init__(self, name: str, *, contrib_op: bool, tanh: bool = False) -> None:
        super().__init__(name)
        self._contrib_op = contrib_op
        self._tanh = tanh

    def pattern(self, op: Any, x: Any, bias: Any) -> Any:
        total = op.Add(x, bias)
        if self._contrib_op:
            op_type = "FastGelu" if self._tanh else "Gelu"
            return getattr(op, op_type)(total, _domain=_MS, _outputs=["gelu"])
        return op.Gelu(total, _outputs=["gelu"])

    def check(
        self, context: Any, x: ir.Value, bias: ir.Value, gelu: ir.Value, **_: Any
    ) -> MatchResult:
        result = MatchResult()
        node = gelu.producer()
        assert node is not None
        if not self._contrib_op:
            wanted = "tanh" if self._tanh else "none"
            if node.attributes.get_string("approximate", "none") != wanted:
                return result.fail(f"the Gelu's approximation is not {wanted!r}", node)
        elif len(node.inputs) > 1:
            return result.fail("the FastGelu has a bias already", node)
        fused = "FastGelu" if self._tanh else "BiasGelu"
        refused = cpu_kernels.gelu(fused, value_facts.tensor_dtype(x), value_facts.rank(x))
        if refused is not None:
            return result.fail(refused, x)
        if bias.dtype != x.dtype:
            return result.fail("x and bias are not of one type", [x, bias])
        if value_facts.rank(bias) != 1 or not value_facts.same_dim_at(bias, 0, x, -1):
            return result.fail("the bias is not 1-D of x's last dim", bias)
        return result

    def rewrite(self, op: Any, x: ir.Value, bias: ir.Value, **_: Any) -> Any:
        if self._tanh:
            return op.FastGelu(x, bias, _domain=_MS, _version=1)
        return op.BiasGelu(x, bias, _domain=_MS, _version=1)


bias_gelu_rules = RewriteRuleSet(
    [
        BiasGeluFusion.rule("gelu_onnx_op", contrib_op=False),
        BiasGeluFusion.rule("gelu_contrib_op", contrib_op=True),
        BiasGeluFusion.rule("fast_gelu_onnx_op", contrib_op=False, tanh=True),
        BiasGeluFusion.rule("fast_gelu_contrib_op", contrib_op=True, tanh=True),
    ],
    commute=True,
)

fuse_bias_gelu = fuse_function(
    bias_gelu_rules,
    "Fuse bias Adds into the GELUs after them (in place); the number fused.",
)

__all__ = ["BiasGeluFusion", "bias_gelu_rules", "fuse_bias_gelu"]
