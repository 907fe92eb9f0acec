"""An ordered set of rules applied together."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import onnx_ir as ir

from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.rule_walk import RuleIndex, apply_rules
from onnxscript.rewriter.tracer import MatchingTracer


class RewriteRuleSet:
    """Rules tried in order at each node (the first that rewrites wins there);
    ``commute=True`` adds every commuted form of each rule's pattern."""

    def __init__(self, rules: Sequence[RewriteRule], *, commute: bool = False) -> None:
        expanded: list[RewriteRule] = []
        for rule in rules:
            expanded.extend(rule.commute() if commute else [rule])
        self.rules = expanded
        self._index = RuleIndex(expanded)

    def __iter__(self) -> Iterator[RewriteRule]:
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def __repr__(self) -> str:
        return f"RewriteRuleSet({self.rules!r})"

    def apply_to_model(
        self,
        model: ir.Model,
        *,
        verbose: int | None = None,
        tracer: MatchingTracer | None = None,
    ) -> int:
        """Rewrite every match in ``model`` (graphs, subgraphs, functions); the number of
        rewrites."""
        return apply_rules(model, self._index, verbose=verbose, tracer=tracer)


__all__ = ["RewriteRuleSet"]
