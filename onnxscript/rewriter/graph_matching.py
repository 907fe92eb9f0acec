"""Matching a :class:`~onnxscript.rewriter.pattern_graph.GraphPattern` at a graph node.

The matcher starts at the producer of the pattern's first output and follows the
pattern's inputs back through producers; node patterns not reached that way (patterns
with outputs of several nodes) are found among the consumers of values already matched,
with backtracking. Alternatives (``OrValue``) take the first one that matches. Value
checkers, then node checkers, run once the structure matched. The furthest failure is
kept, so a tracer can say where and why a match stopped.

:class:`PatternMatcher` and :class:`SimplePatternMatcher` are the matcher classes 0.7's
API names; both run this one algorithm.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult, as_match_result
from onnxscript.rewriter.pattern_graph import (
    AnyValue,
    Constant,
    GraphPattern,
    NodeOutputPattern,
    NodePattern,
    OrValue,
    ValuePattern,
)


class _State:
    """A partial match; copied before trying an alternative."""

    def __init__(self) -> None:
        self.nodes: dict[int, ir.Node] = {}
        self.claimed: set[int] = set()
        self.values: dict[int, ir.Value | None] = {}
        self.bindings: dict[str, Any] = {}
        self.checks: list[tuple[Callable[..., Any], ir.Node | ir.Value]] = []
        self.order: list[ir.Node] = []

    def copy(self) -> _State:
        other = _State()
        other.nodes = dict(self.nodes)
        other.claimed = set(self.claimed)
        other.values = dict(self.values)
        other.bindings = dict(self.bindings)
        other.checks = list(self.checks)
        other.order = list(self.order)
        return other

    def adopt(self, other: _State) -> None:
        self.__dict__.update(other.__dict__)


class _Matcher:
    def __init__(self, graph: ir.Graph) -> None:
        self._graph = graph
        self.depth = -1
        self.reason = ""
        self.sources: list[ir.Node | ir.Value] = []
        self.partial: list[ir.Node] = []

    def fail(self, st: _State, reason: str, source: ir.Node | ir.Value | None = None) -> bool:
        if len(st.order) >= self.depth:
            self.depth = len(st.order)
            self.reason = reason
            self.sources = [source] if source is not None else []
            self.partial = list(st.order)
        return False

    def bind(self, st: _State, name: str, value: Any) -> bool:
        if name in st.bindings and st.bindings[name] is not value:
            return self.fail(st, f"variable {name!r} would be bound to two different values")
        st.bindings[name] = value
        return True

    def node(self, pn: NodePattern, node: ir.Node, st: _State) -> bool:
        bound = st.nodes.get(id(pn))
        if bound is not None:
            return bound is node or self.fail(st, f"{pn.op_text} met two nodes", node)
        if id(node) in st.claimed:
            return self.fail(st, "a node cannot match two ops of the pattern", node)
        if not (pn.op.matches(node.op_type) and pn.domain.matches(node.domain)):
            return self.fail(st, f"expected {pn.op_text}, found {node.op_type}", node)
        if node.graph is not self._graph:
            return self.fail(st, "the node is in another graph", node)
        if not (self._attributes(pn, node, st) and self._outputs(pn, node, st)):
            return False
        inputs = list(node.inputs)
        while inputs and inputs[-1] is None:
            inputs.pop()
        if len(inputs) > len(pn.inputs) and not pn.allow_other_inputs:
            return self.fail(
                st, f"{node.op_type} has {len(inputs)} inputs, the pattern {len(pn.inputs)}", node
            )
        st.nodes[id(pn)] = node
        st.claimed.add(id(node))
        st.order.append(node)
        for output in pn.outputs:
            value = node.outputs[output.output_index]
            st.values[id(output)] = value
            if output.name is not None and not self.bind(st, output.name, value):
                return False
        if pn.check is not None:
            st.checks.append((pn.check, node))
        for index, pattern_input in enumerate(pn.inputs):
            actual = inputs[index] if index < len(inputs) else None
            if not self.value(pattern_input, actual, st):
                return False
        return True

    def _attributes(self, pn: NodePattern, node: ir.Node, st: _State) -> bool:
        for name, attr_pattern in pn.attributes.items():
            attr = node.attributes.get(name)
            if attr is None and attr_pattern.can_match_none:
                if attr_pattern.name is not None and not self.bind(st, attr_pattern.name, None):
                    return False
                continue
            if attr is None or attr.is_ref():
                return self.fail(st, f"{node.op_type} has no attribute {name!r}", node)
            if not attr_pattern.matches(attr):
                return self.fail(st, f"attribute {name}={attr.value!r} does not match", node)
            if attr_pattern.name is not None and not self.bind(st, attr_pattern.name, attr):
                return False
        if not pn.allow_other_attributes:
            extra = set(node.attributes) - set(pn.attributes)
            if extra:
                return self.fail(st, f"{node.op_type} has other attributes {sorted(extra)}", node)
        return True

    def _outputs(self, pn: NodePattern, node: ir.Node, st: _State) -> bool:
        if len(node.outputs) < len(pn.outputs):
            return self.fail(st, f"{node.op_type} has fewer outputs than the pattern", node)
        for extra in node.outputs[len(pn.outputs) :]:
            if extra.uses() or extra.is_graph_output():
                return self.fail(st, f"{node.op_type}'s output {extra.name} is used", node)
        return True

    def value(self, pv: ValuePattern | None, v: ir.Value | None, st: _State) -> bool:
        if pv is None:
            return v is None or self.fail(st, f"expected an omitted input, found {v.name}", v)
        if id(pv) in st.values:
            same = st.values[id(pv)] is v
            return same or self.fail(st, "one pattern value met two graph values", v)
        if isinstance(pv, AnyValue):
            return True
        if isinstance(pv, OrValue):
            return self._or_value(pv, v, st)
        if v is None:
            if pv.can_match_none and not isinstance(pv, (Constant, NodeOutputPattern)):
                st.values[id(pv)] = None
                return pv.name is None or self.bind(st, pv.name, None)
            return self.fail(st, f"{pv!r} met an omitted input")
        if isinstance(pv, Constant):
            ok = self._constant(pv, v, st)
        elif isinstance(pv, NodeOutputPattern):
            ok = self._node_output(pv, v, st)
        else:
            ok = True
            if pv.check_method is not None:
                st.checks.append((pv.check_method, v))
        if not ok:
            return False
        st.values[id(pv)] = v
        return pv.name is None or self.bind(st, pv.name, v)

    def _node_output(self, pv: NodeOutputPattern, v: ir.Value, st: _State) -> bool:
        producer = v.producer()
        if producer is None:
            return self.fail(st, f"{v.name} is not computed by a node", v)
        if v.index() != pv.output_index:
            return self.fail(st, f"{v.name} is not output {pv.output_index} of its node", v)
        return self.node(pv.node, producer, st)

    def _or_value(self, pv: OrValue, v: ir.Value | None, st: _State) -> bool:
        for index, alternative in enumerate(pv.values):
            trial = st.copy()
            if self.value(alternative, v, trial):
                st.adopt(trial)
                if pv.tag_var is not None and not self.bind(st, pv.tag_var, pv.tag(index)):
                    return False
                st.values[id(pv)] = v
                return pv.name is None or self.bind(st, pv.name, v)
        return self.fail(st, "none of the alternatives matched", v)

    def _constant(self, pv: Constant, v: ir.Value, st: _State) -> bool:
        tensor = value_facts.constant_tensor(v)
        if tensor is None:
            what = "an input, not a constant" if v.is_graph_input() else "not a constant"
            return self.fail(st, f"{v.name} is {what}", v)
        expected = pv.value
        wanted = len(expected) if isinstance(expected, list) else 1
        if tensor.size != wanted:
            return self.fail(st, f"{v.name} has {tensor.size} elements, expected {wanted}", v)
        array = value_facts.constant_array(v, max_size=wanted)
        if array is None or array.dtype.kind not in "biuf":
            return self.fail(st, f"{v.name} is not a number", v)
        if isinstance(expected, list) and array.ndim != 1:
            return self.fail(st, f"{v.name} is not 1-D", v)
        if not isinstance(expected, list) and not pv.ignore_rank and array.ndim != 0:
            return self.fail(st, f"{v.name} is not a scalar", v)
        values = expected if isinstance(expected, list) else [expected]
        actual = np.asarray(array).ravel().tolist()
        close = all(
            _close(a, e, pv.rel_tol, pv.abs_tol) for a, e in zip(actual, values, strict=True)
        )
        return close or self.fail(st, f"{v.name} is {actual}, expected {expected}", v)

    def complete(self, pattern: GraphPattern, st: _State) -> _State | None:
        """Match the node patterns the root did not reach, among consumers of matched
        values; the first complete match found."""
        for pn in pattern.required_nodes:
            if id(pn) in st.nodes:
                continue
            anchor = _anchor(pn, st)
            if anchor is None:
                continue
            position, value = anchor
            for user, index in list(value.uses()):
                if index != position or id(user) in st.claimed:
                    continue
                trial = st.copy()
                if self.node(pn, user, trial):
                    done = self.complete(pattern, trial)
                    if done is not None:
                        return done
            self.fail(st, f"no consumer of {value.name} matches {pn.op_text}", value)
            return None
        if any(id(pn) not in st.nodes for pn in pattern.required_nodes):
            self.fail(st, "the pattern's nodes are not all connected to its first output")
            return None
        return st


def _anchor(pn: NodePattern, st: _State) -> tuple[int, ir.Value] | None:
    for position, pattern_input in enumerate(pn.inputs):
        if pattern_input is not None and id(pattern_input) in st.values:
            value = st.values[id(pattern_input)]
            if value is not None:
                return position, value
    return None


def _close(actual: Any, expected: Any, rel_tol: float, abs_tol: float) -> bool:
    if isinstance(actual, (bool, int, float)) and isinstance(expected, (int, float)):
        return math.isclose(float(actual), float(expected), rel_tol=rel_tol, abs_tol=abs_tol)
    return bool(actual == expected)


def match(
    pattern: GraphPattern,
    model: ir.Model,
    container: ir.Graph | ir.Function,
    node: ir.Node,
    *,
    remove_nodes: bool = True,
) -> tuple[MatchResult, MatchContext | None]:
    """Match ``pattern`` with its first output computed by ``node``; run the checkers.
    The context is given when the structure matched (for the rule's own check)."""
    graph = container.graph if isinstance(container, ir.Function) else container
    matcher = _Matcher(graph)
    st = _State()
    found = matcher.node(pattern.root, node, st) and matcher.complete(pattern, st)
    if not found or not isinstance(found, _State):
        result = MatchResult().fail(matcher.reason, matcher.sources)
        result.nodes = matcher.partial
        return result, None
    st = found
    outputs = [st.values[id(out)] for out in pattern.outputs]
    result = MatchResult()
    result.bindings = st.bindings
    result.nodes = st.order
    result.outputs = [v for v in outputs if v is not None]
    if remove_nodes:
        leak = _used_outside(st, result.outputs)
        if leak is not None:
            return result.fail(f"{leak.name} is used outside the pattern", leak), None
    context = MatchContext(model, container, node, result.outputs, result.nodes)
    # Value checkers first, then node checkers (0.7's documented order).
    for check, item in sorted(st.checks, key=lambda c: isinstance(c[1], ir.Node)):
        outcome = _run_check(check, context, item)
        if not outcome:
            result.fail(outcome.reason or "a checker refused", outcome.failure_nodes_and_values)
            return result, None
    return result, context


def _used_outside(st: _State, outputs: Sequence[ir.Value]) -> ir.Value | None:
    kept = {id(v) for v in outputs}
    for node in st.order:
        for value in node.outputs:
            if id(value) in kept:
                continue
            if value.is_graph_output():
                return value
            if any(id(user) not in st.claimed for user, _ in value.uses()):
                return value
    return None


def _run_check(
    check: Callable[..., Any], context: MatchContext, item: ir.Node | ir.Value
) -> MatchResult:
    try:
        outcome = check(context, item)
    except Exception as error:  # a checker's crash is its refusal, said with the error
        name = getattr(check, "__qualname__", repr(check))
        return MatchResult().fail(f"checker {name} raised {type(error).__name__}: {error}")
    what = getattr(check, "__qualname__", "a checker")
    result = as_match_result(outcome, what, none_accepts=isinstance(item, ir.Value))
    if not result and not result.failure_nodes_and_values:
        result.fail(result.reason, item)
    return result


class PatternMatcher:
    """Matches a :class:`GraphPattern` at a node (structure and checkers; no condition)."""

    def __init__(self, pattern: GraphPattern) -> None:
        self.pattern = pattern

    def match(
        self,
        model: ir.Model,
        graph_or_function: ir.Graph | ir.Function,
        node: ir.Node,
        *,
        verbose: int = 0,
        remove_nodes: bool = True,
        tracer: object = None,
    ) -> MatchResult:
        result, _ = match(self.pattern, model, graph_or_function, node, remove_nodes=remove_nodes)
        return result


class SimplePatternMatcher(PatternMatcher):
    """The same matcher (0.7 used it for patterns with one output)."""


__all__ = ["PatternMatcher", "SimplePatternMatcher", "match"]
