"""The exact GELU ``0.5 * x * (1 + erf(x / sqrt(2)))`` to ``com.microsoft.Gelu`` (the
erf rules of :mod:`gelu` alone, under 0.7's module name). ``rule1`` and ``rule2`` are
0.7's two groupings of the product, ``0.5 * (x * (erf + 1))`` and ``x * (0.5 * (erf +
1))``; ``rules`` takes every grouping and operand order."""

from __future__ import annotations

from typing import Any

from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.ort_fusions.gelu import GeluErfFusion, gelu_erf_rules
from onnxscript.rewriter.pattern import RewriteRuleSet

_FIRST = (1, True)
"""(grouping, swapped) of ``0.5 * (x * f)``: the root Mul's operands are 0.5 and ``x * f``."""
_SECOND = (2, False)
"""``x * (0.5 * f)``."""


def erf_gelu_pattern_1(op: Any, x: Any) -> Any:
    """The pattern ``0.5 * (x * (Erf(x / sqrt(2)) + 1))`` (operands in either order)."""
    return GeluErfFusion(*_FIRST).pattern(op, x)


def erf_gelu_pattern_2(op: Any, x: Any) -> Any:
    """The pattern ``x * (0.5 * (Erf(x / sqrt(2)) + 1))`` (operands in either order)."""
    return GeluErfFusion(*_SECOND).pattern(op, x)


def gelu(op: Any, x: Any) -> Any:
    """The replacement: ``com.microsoft.Gelu(x)``."""
    return op.Gelu(x, _domain="com.microsoft", _version=1)


rule1 = GeluErfFusion.rule(*_FIRST)
rule2 = GeluErfFusion.rule(*_SECOND)
rules = RewriteRuleSet(gelu_erf_rules)

fuse_erfgelu = fuse_function(
    rules, "Fuse exact (erf) GELU decompositions of ``model`` (in place); the number fused."
)

__all__ = [
    "erf_gelu_pattern_1",
    "erf_gelu_pattern_2",
    "fuse_erfgelu",
    "gelu",
    "rule1",
    "rule2",
    "rules",
]
