"""Generic simplification rules, one module each; :func:`default_rules` is the set
``optimize()`` and ``rewrite()`` apply."""

from __future__ import annotations

from onnxscript.rewriter.rule import RewriteRule


def default_rules() -> list[RewriteRule]:
    """The default rule set, in the order it is applied."""
    return []


__all__ = ["default_rules"]
