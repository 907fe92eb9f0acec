"""How each ``fuse_*`` function of this package applies its rules: once over the model, in
place, returning the number of rewrites; with ``debug`` a tracer reports why nothing
matched (the question users ask when a fusion count is 0)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.tracer import MatchingTracer


class FuseFunction(Protocol):
    """``fuse_x(model, debug=False, apply_shape_inference=False, **kwargs) -> count``, as
    in 0.7."""

    def __call__(
        self,
        model: ir.Model,
        debug: bool = False,
        apply_shape_inference: bool = False,
        **kwargs: Any,
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


def fuse_function(
    rules: RewriteRuleSet | Sequence[RewriteRuleSet],
    doc: str,
    *,
    before: Callable[[ir.Model], object] | None = None,
    after: Callable[[ir.Model], object] | None = None,
) -> FuseFunction:
    """A ``fuse_*`` function applying ``rules`` (rule sets one after the other; after
    ``before(model)`` and followed by ``after(model)`` when something fused, when given);
    ``apply_shape_inference=True`` runs onnx's shape inference on the model first (the
    rules read types and shapes; exporters record them, hand-built models may not);
    other keyword arguments are accepted and ignored, as 0.7's were."""

    steps = [rules] if isinstance(rules, RewriteRuleSet) else list(rules)

    def fuse(
        model: ir.Model, debug: bool = False, apply_shape_inference: bool = False, **kwargs: Any
    ) -> int:
        del kwargs
        if apply_shape_inference:
            common.ShapeInferencePass()(model)
        if before is not None:
            before(model)
        count = sum(apply_rules(step, model, debug=debug) for step in steps)
        if count and after is not None:
            after(model)
        return count

    fuse.__doc__ = doc
    return fuse


__all__ = ["FuseFunction", "apply_rules", "fuse_function"]
