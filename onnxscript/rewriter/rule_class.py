"""Rules written as classes: ``pattern``, ``check`` and ``rewrite`` methods; ``.rule()``
makes the :class:`~onnxscript.rewriter.rule.RewriteRule`."""

from __future__ import annotations

import abc
from typing import Any

from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.rule import RewriteRule


class RewriteRuleClassBase(abc.ABC):
    """Subclass with ``pattern(self, op, ...)``, ``rewrite(self, op, ...)`` and optionally
    ``check(self, context, ...)``; ``setup``/``cleanup`` run before and after each graph.
    ``name`` (default: the class name), ``remove_nodes`` and ``as_function`` can be given
    to ``__init__`` or set as class attributes."""

    @classmethod
    def rule(cls, *args: Any, **kwargs: Any) -> RewriteRule:
        instance = cls(*args, **kwargs)
        return RewriteRule(
            instance.pattern,
            instance.rewrite,
            instance.check,
            name=getattr(instance, "name", None) or cls.__name__,
            remove_nodes=getattr(instance, "remove_nodes", True),
            graph_pre_visitor=instance.setup,
            graph_post_visitor=instance.cleanup,
            as_function=getattr(instance, "as_function", False),
        )

    def __init__(
        self, name: str | None = None, remove_nodes: bool = True, as_function: bool = False
    ) -> None:
        self.name = name or type(self).__name__
        self.remove_nodes = remove_nodes
        self.as_function = as_function

    @abc.abstractmethod
    def pattern(self, op: Any, *args: Any, **kwargs: Any) -> Any:
        """The target pattern."""

    def check(self, context: Any, *args: Any, **kwargs: Any) -> MatchResult | bool:
        """Whether a structural match may be rewritten (default: always)."""
        return MatchResult()

    @abc.abstractmethod
    def rewrite(self, op: Any, *args: Any, **kwargs: Any) -> Any:
        """The replacement."""

    def setup(self) -> None:  # noqa: B027 (a hook subclasses may leave alone)
        """Called before the rule is applied to a graph or function."""

    def cleanup(self) -> None:  # noqa: B027 (a hook subclasses may leave alone)
        """Called after the rule was applied to a graph or function."""


__all__ = ["RewriteRuleClassBase"]
