"""Applying rules to a model: one walk over each graph (main graph, function bodies,
subgraphs), the rules indexed by the (domain, op type) of their pattern's root, so a
node is offered only to the rules that can start at it and no rule re-scans the graph."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Protocol

import onnx_ir as ir

from onnxscript.ir_utils.graphs import subgraphs
from onnxscript.rewriter.replacement import ReplacementSubgraph
from onnxscript.rewriter.substitution import substitute, taken_names
from onnxscript.rewriter.tracer import MatchingTracer


class Rule(Protocol):
    name: str | None
    remove_nodes: bool
    graph_pre_visitor: Callable[[], None] | None
    graph_post_visitor: Callable[[], None] | None

    def root_key(self) -> tuple[str, str] | None: ...

    def has_single_root(self) -> bool: ...

    def try_rewrite(
        self,
        model: ir.Model,
        graph_or_function: ir.Graph | ir.Function,
        node: ir.Node,
        *,
        verbose: int | None = None,
        tracer: MatchingTracer | None = None,
    ) -> ReplacementSubgraph | None: ...


class RuleIndex:
    """Rules by the (domain, op type) their pattern starts at, in the given order."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self.rules = list(rules)
        self._by_key: dict[tuple[str, str], list[tuple[int, Rule]]] = defaultdict(list)
        self._anywhere: list[tuple[int, Rule]] = []
        for position, rule in enumerate(self.rules):
            key = rule.root_key()
            if key is None:
                self._anywhere.append((position, rule))
            else:
                self._by_key[key].append((position, rule))

    def for_node(self, node: ir.Node) -> list[Rule]:
        domain = "" if node.domain == "ai.onnx" else node.domain
        found = self._by_key.get((domain, node.op_type), [])
        if not self._anywhere:
            return [rule for _, rule in found]
        return [rule for _, rule in sorted([*found, *self._anywhere], key=lambda x: x[0])]


def apply_rules(
    model: ir.Model,
    index: RuleIndex,
    *,
    verbose: int | None = None,
    tracer: MatchingTracer | None = None,
) -> int:
    """Rewrite the matches of the rules in every graph of ``model``; the number made."""
    count = _apply(model, model.graph, index, verbose, tracer)
    for function in list(model.functions.values()):
        count += _apply(model, function, index, verbose, tracer)
    return count


def _apply(
    model: ir.Model,
    container: ir.Graph | ir.Function,
    index: RuleIndex,
    verbose: int | None,
    tracer: MatchingTracer | None,
) -> int:
    for rule in index.rules:
        if rule.graph_pre_visitor is not None:
            rule.graph_pre_visitor()
    graph = container.graph if isinstance(container, ir.Function) else container
    names: set[str] | None = None
    count = 0
    for node in list(graph):
        if node.graph is not graph:
            continue  # removed by an earlier rewrite
        for sub in list(subgraphs(node)):
            count += _apply(model, sub, index, verbose, tracer)
        for rule in index.for_node(node):
            replacement = rule.try_rewrite(model, container, node, verbose=verbose, tracer=tracer)
            if replacement is None:
                continue
            if names is None:
                names = taken_names(graph)
            substitute(
                model,
                container,
                replacement.match.nodes,
                replacement.match.outputs,
                replacement,
                remove_nodes=rule.remove_nodes,
                last=node if rule.has_single_root() else None,
                names=names,
            )
            count += 1
            break
    for rule in index.rules:
        if rule.graph_post_visitor is not None:
            rule.graph_post_visitor()
    return count


__all__ = ["RuleIndex", "apply_rules"]
