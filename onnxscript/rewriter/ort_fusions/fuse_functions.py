"""How each ``fuse_*`` function of this package applies its rules: once over the model, in
place, returning the number of rewrites; with ``debug`` a tracer reports why nothing
matched (the question users ask when a fusion count is 0)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import onnx_ir as ir

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.tracer import MatchingTracer


class FuseFunction(Protocol):
    """``fuse_x(model, debug=False, apply_shape_inference=False) -> count``, as in 0.7."""

    def __call__(
        self, model: ir.Model, debug: bool = False, apply_shape_inference: bool = False
    ) -> int: ...


def apply_rules(
    rules: RewriteRuleSet | Sequence[RewriteRule], model: ir.Model, *, debug: bool = False
) -> int:
    """Apply ``rules`` to ``model`` once; print the tracer's report when ``debug`` and
    nothing was rewritten."""
    if not isinstance(rules, RewriteRuleSet):
        rules = RewriteRuleSet(list(rules))
    tracer = MatchingTracer() if debug else None
    count = rules.apply_to_model(model, tracer=tracer)
    if tracer is not None and count == 0:
        tracer.report()
    return count


def fuse_function(rules: RewriteRuleSet, doc: str) -> FuseFunction:
    """A ``fuse_*`` function applying ``rules``; ``apply_shape_inference`` is accepted for
    0.7's signature (the rules read the shapes the exporter recorded)."""

    def fuse(model: ir.Model, debug: bool = False, apply_shape_inference: bool = False) -> int:
        del apply_shape_inference
        return apply_rules(rules, model, debug=debug)

    fuse.__doc__ = doc
    return fuse


__all__ = ["FuseFunction", "apply_rules", "fuse_function"]
