"""Rules written as classes: ``pattern``, ``check`` and ``rewrite`` methods; ``.rule()``
makes the :class:`~onnxscript.rewriter.pattern_rules.RewriteRule`. :class:`PatternBase` is the
same without ``rewrite``: a pattern and its check, to match at a node."""

from __future__ import annotations

import abc
from typing import Any

import onnx_ir as ir

from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.pattern_rules import Pattern, RewriteRule
from onnxscript.rewriter.tracer import MatchingTracer


class PatternBase(abc.ABC):
    """Subclass with ``pattern(self, op, ...)`` and optionally ``check(self, context,
    ...)``; :meth:`match` tries them at a node."""

    def __init__(self, name: str | None = None, **kwargs: Any) -> None:
        self.name = name or type(self).__name__
        self._compiled: Pattern | None = None

    @abc.abstractmethod
    def pattern(self, op: Any, *args: Any, **kwargs: Any) -> Any:
        """The target pattern."""

    def check(self, context: Any, *args: Any, **kwargs: Any) -> MatchResult | bool:
        """Whether a structural match is accepted (default: always)."""
        return MatchResult()

    def match(
        self,
        model: ir.Model,
        graph_or_function: ir.Graph | ir.Function,
        node: ir.Node,
        *,
        verbose: int = 0,
        check_nodes_are_removable: bool = True,
        tracer: MatchingTracer | None = None,
    ) -> MatchResult:
        """Whether the pattern and the check match with the pattern's first output
        computed by ``node``."""
        if self._compiled is None:
            self._compiled = Pattern(self.pattern, self.check, name=self.name)
        return self._compiled.match(
            model,
            graph_or_function,
            node,
            verbose=verbose,
            check_nodes_are_removable=check_nodes_are_removable,
            tracer=tracer,
        )


class RewriteRuleClassBase(PatternBase):
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
        super().__init__(name)
        self.remove_nodes = remove_nodes
        self.as_function = as_function

    @abc.abstractmethod
    def rewrite(self, op: Any, *args: Any, **kwargs: Any) -> Any:
        """The replacement."""

    def setup(self) -> None:
        """Called before the rule is applied to a graph or function."""

    def cleanup(self) -> None:
        """Called after the rule was applied to a graph or function."""


__all__ = ["PatternBase", "RewriteRuleClassBase"]
