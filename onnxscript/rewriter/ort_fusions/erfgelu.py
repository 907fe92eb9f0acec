"""The exact GELU ``0.5 * x * (1 + erf(x / sqrt(2)))`` to ``com.microsoft.Gelu`` (the
erf rule of :mod:`gelu` alone, under 0.7's module name)."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions.fuse_functions import fuse_function
from onnxscript.rewriter.ort_fusions.gelu import gelu_erf_rules

rules = RewriteRuleSet(gelu_erf_rules)

fuse_erfgelu = fuse_function(
    rules, "Fuse exact (erf) GELU decompositions of ``model`` (in place); the number fused."
)

__all__ = ["fuse_erfgelu", "rules"]
