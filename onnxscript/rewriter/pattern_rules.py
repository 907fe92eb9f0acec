"""A pattern with its condition (:class:`Pattern`), and with a replacement
(:class:`RewriteRule`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import onnx_ir as ir

from onnxscript.rewriter.calling import call_with_bindings
from onnxscript.rewriter.commute import commuted
from onnxscript.rewriter.extraction import extraction_refusal
from onnxscript.rewriter.graph_matching import match
from onnxscript.rewriter.match_result import MatchFailureError, MatchResult, as_match_result
from onnxscript.rewriter.pattern_builder import trace_pattern
from onnxscript.rewriter.pattern_graph import GraphPattern
from onnxscript.rewriter.replacement import ReplacementSubgraph, RewriterContext
from onnxscript.rewriter.rule_walk import RuleIndex, apply_rules
from onnxscript.rewriter.tracer import MatchingTracer, MatchStatus

if TYPE_CHECKING:
    from onnxscript.rewriter.match_context import MatchContext


class Pattern:
    """A target pattern (a pattern function or a :class:`GraphPattern`) and an optional
    ``condition_function(context, **bindings) -> bool | MatchResult``."""

    def __init__(
        self,
        target_pattern: GraphPattern | Callable[..., Any],
        condition_function: Callable[..., Any] | None = None,
        matcher: object = None,
        verbose: int = 0,
        name: str | None = None,
    ) -> None:
        if isinstance(target_pattern, GraphPattern):
            self._target = target_pattern
        else:
            self._target = trace_pattern(target_pattern)
        self._single_root = self._target.has_single_root
        self._condition = condition_function
        self._verbose = verbose
        self.name = name

    @property
    def target(self) -> GraphPattern:
        return self._target

    def has_single_root(self) -> bool:
        """Whether every node of the pattern leads to its first output's producer (which
        then comes last in the graph of any match)."""
        return self._single_root

    def root_key(self) -> tuple[str, str] | None:
        """(domain, op type) of the nodes this pattern can start at; None for any."""
        root = self._target.root
        domain, op = root.domain.exact(), root.op.exact()
        return None if domain is None or op is None else (domain, op)

    def match(
        self,
        model: ir.Model,
        graph_or_function: ir.Graph | ir.Function,
        node: ir.Node,
        *,
        verbose: int | None = None,
        check_nodes_are_removable: bool = True,
        tracer: MatchingTracer | None = None,
        remove_nodes: bool | None = None,
    ) -> MatchResult:
        """Whether the pattern, its checkers and its condition match at ``node``;
        ``check_nodes_are_removable`` (0.7's name; ``remove_nodes`` is accepted too)
        requires the matched nodes' other outputs to be unused outside the match."""
        removable = check_nodes_are_removable if remove_nodes is None else remove_nodes
        result, _status = self.match_with_status(
            model, graph_or_function, node, remove_nodes=removable
        )
        if tracer is not None:
            tracer.log(self, graph_or_function, node, result, _status)
        return result

    def match_with_status(
        self,
        model: ir.Model,
        graph_or_function: ir.Graph | ir.Function,
        node: ir.Node,
        *,
        remove_nodes: bool = True,
    ) -> tuple[MatchResult, MatchStatus]:
        result, context = match(
            self._target, model, graph_or_function, node, remove_nodes=remove_nodes
        )
        if context is None:
            return result, MatchStatus.NO_MATCH
        if self._condition is not None:
            outcome = _condition_outcome(self._condition, context, result.bindings)
            if not outcome:
                sources = outcome.failure_nodes_and_values
                result.fail(outcome.reason or "the condition refused the match", sources)
                return result, MatchStatus.CONDITION_FAILED
        return result, MatchStatus.SUCCESS


def _condition_outcome(
    condition: Callable[..., Any], context: MatchContext, bindings: dict[str, Any]
) -> MatchResult:
    try:
        outcome = call_with_bindings(condition, context, bindings)
    except MatchFailureError as failure:
        return MatchResult().fail(failure.reason, failure.failure_sources)
    return as_match_result(outcome, "the condition")


def always_true(*args: Any, **kwargs: Any) -> bool:
    """The condition of a rule given none: every match is accepted."""
    return True


class ReplacementPatternFunction:
    """A replacement function, wrapped (as 0.7 let rules be written)."""

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function

    def __call__(self, op: RewriterContext, **bindings: Any) -> Any:
        return self.function(op, **bindings)


class RewriteRule(Pattern):
    """A target pattern, a replacement function ``replacement(op, **bindings)`` building
    the new nodes with ``op`` (returning the new value(s), or None to leave the match as
    it is) and an optional condition."""

    def __init__(
        self,
        target_pattern: GraphPattern | Callable[..., Any],
        replacement_pattern: Callable[..., Any],
        condition_function: Callable[..., Any] | None = None,
        matcher: object = None,
        verbose: int = 0,
        name: str | None = None,
        remove_nodes: bool = True,
        graph_pre_visitor: Callable[[], None] | None = None,
        graph_post_visitor: Callable[[], None] | None = None,
        as_function: bool = False,
    ) -> None:
        if as_function and not remove_nodes:
            raise ValueError("as_function=True is only supported when remove_nodes=True")
        super().__init__(target_pattern, condition_function, matcher, verbose, name)
        if isinstance(replacement_pattern, ReplacementPatternFunction):
            replacement_pattern = replacement_pattern.function
        self._replacement = replacement_pattern
        self.remove_nodes = remove_nodes
        self.graph_pre_visitor = graph_pre_visitor
        self.graph_post_visitor = graph_post_visitor
        self.as_function = as_function

    @property
    def replacement(self) -> Callable[..., Any]:
        return self._replacement

    def __repr__(self) -> str:
        return f"RewriteRule({self.name or self._target.root.op_text})"

    def try_rewrite(
        self,
        model: ir.Model,
        graph_or_function: ir.Graph | ir.Function,
        node: ir.Node,
        *,
        verbose: int | None = None,
        tracer: MatchingTracer | None = None,
    ) -> ReplacementSubgraph | None:
        """The replacement of the match at ``node``, or None (nothing changed yet)."""
        result, status = self.match_with_status(
            model, graph_or_function, node, remove_nodes=self.remove_nodes
        )
        refused: MatchFailureError | None = None
        try:
            replacement = self._replace(result) if result else None
        except MatchFailureError as failure:  # the replacement declines, as a check would
            replacement, refused = None, failure
        if result and replacement is None:
            status = MatchStatus.REPLACEMENT_FAILED
            if refused is not None:
                result.fail(refused.reason, refused.failure_sources)
            else:
                result.fail("the replacement function returned None")
        elif replacement is not None and self.as_function:
            refusal = self._function_refusal(graph_or_function, replacement)
            if refusal is not None:
                status, replacement = MatchStatus.REPLACEMENT_FAILED, None
                result.fail(refusal)
        if tracer is not None:
            tracer.log(self, graph_or_function, node, result, status)
        if (verbose if verbose is not None else self._verbose) > 1 and not result:
            print(f"[{self.name or self._target.root.op_text}] at {node.op_type}: {result.reason}")
        return replacement

    def _function_refusal(
        self, container: ir.Graph | ir.Function, replacement: ReplacementSubgraph
    ) -> str | None:
        """Why this match cannot be extracted as a function (``as_function``), or None."""
        if len(replacement.new_nodes) != 1 or replacement.new_initializers:
            raise ValueError(
                f"rule {self.name or self._target.root.op_text}: as_function=True is only "
                "supported for patterns with a single replacement node (the call of the "
                f"function), got {len(replacement.new_nodes)} node(s)"
                + (" and initializers" if replacement.new_initializers else "")
            )
        return extraction_refusal(container, replacement.match.nodes, replacement.new_nodes)

    def _replace(self, result: MatchResult) -> ReplacementSubgraph | None:
        builder = RewriterContext()
        produced = call_with_bindings(self._replacement, builder, result.bindings)
        if produced is None:
            return None
        outputs = list(produced) if isinstance(produced, (tuple, list)) else [produced]
        if len(outputs) != len(result.outputs):
            raise ValueError(
                f"rule {self.name or self._target.root.op_text}: the replacement returned "
                f"{len(outputs)} value(s) for a pattern of {len(result.outputs)} output(s)"
            )
        return ReplacementSubgraph(
            result, outputs, builder.nodes, builder.initializers, builder.used_opsets
        )

    def apply_to_model(
        self,
        model: ir.Model,
        *,
        commute: bool = False,
        verbose: int | None = None,
        tracer: MatchingTracer | None = None,
    ) -> int:
        """Rewrite every match in ``model``; the number of rewrites."""
        rules = self.commute() if commute else [self]
        return apply_rules(model, RuleIndex(rules), verbose=verbose, tracer=tracer)

    def commute(self) -> Sequence[RewriteRule]:
        """This rule for every commuted form of its pattern."""
        return [self._with_target(form) for form in commuted(self._target)]

    def _with_target(self, target: GraphPattern) -> RewriteRule:
        rule = RewriteRule(
            target,
            self._replacement,
            self._condition,
            verbose=self._verbose,
            name=self.name,
            remove_nodes=self.remove_nodes,
            graph_pre_visitor=self.graph_pre_visitor,
            graph_post_visitor=self.graph_post_visitor,
            as_function=self.as_function,
        )
        return rule


__all__ = ["Pattern", "ReplacementPatternFunction", "RewriteRule", "always_true"]
