"""Applying rules to a model: one walk over each graph (main graph, function bodies,
subgraphs), the rules indexed by the (domain, op type) of their pattern's root, so a
node is offered only to the rules that can start at it and no rule re-scans the graph.
The nodes a rewrite makes are offered to the rules in turn (as 0.7 does: a rule may
rewrite what an earlier one made), up to :data:`MAX_GENERATIONS` rewrites deep, so
rules undoing each other cannot loop forever."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Protocol

import onnx_ir as ir

from onnxscript.ir_utils.graphs import subgraphs
from onnxscript.ir_utils.value_facts import basic_constant_propagation
from onnxscript.rewriter.extraction import extract_function
from onnxscript.rewriter.replacement import ReplacementSubgraph
from onnxscript.rewriter.substitution import constants_placeable, substitute, taken_names
from onnxscript.rewriter.tracer import MatchingTracer

MAX_GENERATIONS = 32
"""How many times the result of a rewrite may itself be rewritten at one place."""


class Rule(Protocol):
    name: str | None
    remove_nodes: bool
    as_function: bool
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
    """Rewrite the matches of the rules in every graph of ``model``; the number made.
    (Functions the rewrites extract, ``as_function=True``, are not visited.)"""
    functions = list(model.functions.values())
    count = _apply(model, model.graph, index, verbose, tracer)
    for function in functions:
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
    basic_constant_propagation(graph)  # conditions see Constant nodes' values, as in 0.7
    walk = _Walk(model, container, graph, index, verbose, tracer)
    for node in list(graph):
        walk.visit(node, 0)
    for rule in index.rules:
        if rule.graph_post_visitor is not None:
            rule.graph_post_visitor()
    return walk.count


class _Walk:
    """One pass over a graph: each node offered to the rules that can start at it."""

    def __init__(
        self,
        model: ir.Model,
        container: ir.Graph | ir.Function,
        graph: ir.Graph,
        index: RuleIndex,
        verbose: int | None,
        tracer: MatchingTracer | None,
    ) -> None:
        self.model, self.container, self.graph, self.index = model, container, graph, index
        self.verbose, self.tracer = verbose, tracer
        self.names: set[str] | None = None
        self.count = 0

    def visit(self, node: ir.Node, generation: int) -> None:
        """Offer ``node`` to the rules (first its subgraphs); the nodes a rewrite makes
        are visited next, one generation deeper."""
        if node.graph is not self.graph:
            return  # removed by an earlier rewrite
        for sub in list(subgraphs(node)):
            self.count += _apply(self.model, sub, self.index, self.verbose, self.tracer)
        for rule in self.index.for_node(node):
            new_nodes = self._rewrite(rule, node)
            if new_nodes is None:
                continue
            self.count += 1
            if generation < MAX_GENERATIONS:
                basic_constant_propagation(new_nodes)
                for new in new_nodes:
                    self.visit(new, generation + 1)
            return

    def _rewrite(self, rule: Rule, node: ir.Node) -> list[ir.Node] | None:
        """The nodes made by ``rule``'s rewrite at ``node``, or None (no rewrite)."""
        replacement = rule.try_rewrite(
            self.model, self.container, node, verbose=self.verbose, tracer=self.tracer
        )
        if replacement is None:
            return None
        if not constants_placeable(self.model, self.container, replacement):
            return None  # a constant the model's IR version and opset cannot hold
        if self.names is None:
            self.names = taken_names(self.graph)
        new_nodes = list(replacement.new_nodes)
        remove = None
        if rule.as_function:
            call, replaced = new_nodes[0], list(replacement.match.outputs)

            def remove(graph: ir.Graph, nodes: Sequence[ir.Node]) -> None:
                extract_function(self.model, graph, nodes, call, replaced)

        substitute(
            self.model,
            self.container,
            replacement.match.nodes,
            replacement.match.outputs,
            replacement,
            remove_nodes=rule.remove_nodes,
            last=node if rule.has_single_root() else None,
            names=self.names,
            remove=remove,
        )
        return new_nodes


__all__ = ["RuleIndex", "apply_rules"]
