"""0.7.2's module path for the fusions' helpers: shapes with named dims
(:mod:`onnxscript.rewriter.shape_bindings`) and ``fuse_*`` functions made of rules."""

from __future__ import annotations

from onnxscript.rewriter.fuse_functions import FuseFunction, fuse_function
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.shape_bindings import check_shape, check_shape_bool


def apply_fusion_rules(rules: RewriteRule | RewriteRuleSet) -> FuseFunction:
    """``fuse(model, debug=False, apply_shape_inference=False) -> count`` applying
    ``rules`` once to a model."""
    rule_set = rules if isinstance(rules, RewriteRuleSet) else RewriteRuleSet([rules])
    return fuse_function(rule_set, "Apply the fusion rules to the model; the number of fusions.")


__all__ = ["apply_fusion_rules", "check_shape", "check_shape_bool"]
