"""The private domain of the intermediate ops that one ort fusion makes and a later one
completes (rotary embeddings before their cos / sin caches are found, scaled-dot-product
attention before its projections are), and how to apply a rule list once with a tracer."""

from __future__ import annotations

from collections.abc import Sequence

import onnx_ir as ir

from onnxscript.rewriter.rule import RewriteRule
from onnxscript.rewriter.rule_set import RewriteRuleSet
from onnxscript.rewriter.tracer import MatchingTracer

DOMAIN = "ai.onnxruntime._fusion"
"""Domain of the intermediate ops (as 0.7.2 names it); onnxruntime cannot run them."""

MS_DOMAIN = "com.microsoft"


def apply_once(rules: RewriteRuleSet | Sequence[RewriteRule], model: ir.Model, debug: bool) -> int:
    """Apply ``rules`` to ``model`` once (in place); the number of rewrites. ``debug``:
    when nothing matched, print the MatchingTracer's report of why."""
    ruleset = rules if isinstance(rules, RewriteRuleSet) else RewriteRuleSet(list(rules))
    tracer = MatchingTracer() if debug else None
    count = ruleset.apply_to_model(model, tracer=tracer)
    if count == 0 and tracer is not None:
        tracer.report()
    return count


__all__ = ["DOMAIN", "MS_DOMAIN", "apply_once"]
