"""HardSigmoid and HardSwish from their decompositions (as torch exports ``hardsigmoid`` and
``hardswish`` before opset 14, and as models written by hand have them):

- ``Clip(x + 3, 0, 6) / 6`` -> ``HardSigmoid(x, alpha=1/6, beta=0.5)``;
- ``Clip(x + 3, 0, 6) * x / 6`` -> ``HardSwish(x)``;
- ``HardSigmoid(x, alpha=1/6, beta=0.5) * x`` -> ``HardSwish(x)`` (so ``Clip(x + 3, 0, 6) / 6
  * x`` becomes HardSwish in two steps).

The constants must be one-element constants of those values; the input a floating-point
tensor (the ops are defined for floats only). :func:`fuse_hardswish_rules` gives the three
rules with the commuted forms of their Add and Mul."""

from __future__ import annotations

import math
from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.value_facts import is_singleton
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet

_FLOATS = frozenset(
    {ir.DataType.FLOAT, ir.DataType.DOUBLE, ir.DataType.FLOAT16, ir.DataType.BFLOAT16}
)
_ALPHA, _BETA = 1 / 6, 0.5


def _relu6_of_shifted(op: Any, x: Any) -> Any:
    """``Clip(x + 3, 0, 6)``, its constants bound to ``three``, ``zero``, ``six``."""
    return op.Clip(op.Add(x, "three"), "zero", "six")


class _HardSigmoidFusionBase(RewriteRuleClassBase):
    """The checks both decompositions share: the constants and the input's type."""

    def check(self, context: Any, x: ir.Value, **bindings: Any) -> MatchResult:
        result = MatchResult()
        if x.dtype not in _FLOATS:
            return result.fail("x is not a known floating-point tensor", x)
        for name, expected in (("three", 3), ("zero", 0), ("six", 6), ("divisor", 6)):
            value = bindings.get(name)
            if value is not None and not is_singleton(value, expected):
                return result.fail(f"{name} is not a constant {expected}", value)
        return result


class HardSigmoidFusion(_HardSigmoidFusionBase):
    """``Clip(x + 3, 0, 6) / 6`` -> ``HardSigmoid(x, alpha=1/6, beta=0.5)``."""

    def pattern(self, op: Any, x: Any) -> Any:
        return op.Div(_relu6_of_shifted(op, x), "divisor")

    def rewrite(self, op: Any, x: ir.Value, **_: Any) -> Any:
        return op.HardSigmoid(x, alpha=_ALPHA, beta=_BETA)


class HardSwishFusion(_HardSigmoidFusionBase):
    """``Clip(x + 3, 0, 6) * x / 6`` -> ``HardSwish(x)`` (``Clip(x + 3, 0, 6) / 6 * x``
    becomes HardSigmoid times x first, then HardSwish)."""

    def pattern(self, op: Any, x: Any) -> Any:
        return op.Div(op.Mul(_relu6_of_shifted(op, x), x), "divisor")

    def rewrite(self, op: Any, x: ir.Value, **_: Any) -> Any:
        return op.HardSwish(x)


class HardSwishFusionFromHardSigmoid(RewriteRuleClassBase):
    """``HardSigmoid(x, alpha=1/6, beta=0.5) * x`` -> ``HardSwish(x)``."""

    def pattern(self, op: Any, x: Any) -> Any:
        return op.Mul(op.HardSigmoid(x, _outputs=["gate"]), x)

    def check(self, context: Any, x: ir.Value, gate: ir.Value) -> MatchResult:
        result = MatchResult()
        node = gate.producer()
        assert node is not None
        alpha = node.attributes.get_float("alpha", 0.2)
        beta = node.attributes.get_float("beta", 0.5)
        if not (math.isclose(alpha, _ALPHA, rel_tol=1e-5) and math.isclose(beta, _BETA)):
            return result.fail("the HardSigmoid is not x / 6 + 0.5", node)
        return result

    def rewrite(self, op: Any, x: ir.Value, **_: Any) -> Any:
        return op.HardSwish(x)


def fuse_hardswish_rules() -> RewriteRuleSet:
    """The HardSwish and HardSigmoid fusions, with their commuted forms."""
    return RewriteRuleSet(
        [
            HardSwishFusion.rule(),
            HardSigmoidFusion.rule(),
            HardSwishFusionFromHardSigmoid.rule(),
        ],
        commute=True,
    )


__all__ = [
    "HardSigmoidFusion",
    "HardSwishFusion",
    "HardSwishFusionFromHardSigmoid",
    "fuse_hardswish_rules",
]
