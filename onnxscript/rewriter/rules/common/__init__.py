"""Generic simplification rules, one module each; :func:`default_rules` is the set
``optimize()`` and ``rewrite()`` apply."""

from __future__ import annotations

import functools

from onnxscript.rewriter.rule import RewriteRule
from onnxscript.rewriter.rule_set import RewriteRuleSet


def default_rules() -> list[RewriteRule]:
    """The default rule set, in the order it is applied."""
    return []


@functools.cache
def default_rule_set() -> RewriteRuleSet:
    """The default rules as one set, built once (rules hold no state between models)."""
    return RewriteRuleSet(default_rules())


__all__ = ["default_rule_set", "default_rules"]
