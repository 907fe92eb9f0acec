"""Commuted forms of a pattern: every combination of swapped inputs of its two-input
commutative ops (Add, Mul, ...), so ``Add(x, Mul(a, b))`` also matches ``Add(Mul(b, a),
x)``. There are 2**k forms for k such ops."""

from __future__ import annotations

import itertools

from onnxscript.rewriter.pattern_graph import (
    GraphPattern,
    NodeOutputPattern,
    NodePattern,
    OrValue,
    ValuePattern,
)

COMMUTATIVE_OPS = frozenset(
    {"Add", "Mul", "And", "Or", "Xor", "Equal", "Max", "Min", "Sum", "Mean"}
    | {"BitwiseAnd", "BitwiseOr", "BitwiseXor"}
)


def commuted(pattern: GraphPattern) -> list[GraphPattern]:
    """``pattern`` (first) and its other commuted forms."""
    swappable = [node for node in pattern.nodes if _commutative(node)]
    forms = []
    for choice in itertools.product((False, True), repeat=len(swappable)):
        swapped = {id(node) for node, swap in zip(swappable, choice) if swap}
        forms.append(_clone(pattern, swapped))
    return forms


def _commutative(node: NodePattern) -> bool:
    return (
        node.domain.exact() == "" and node.op.exact() in COMMUTATIVE_OPS and len(node.inputs) == 2
    )


def _clone(pattern: GraphPattern, swapped: set[int]) -> GraphPattern:
    copies: dict[int, NodePattern] = {}

    def value(item: ValuePattern | None) -> ValuePattern | None:
        if isinstance(item, NodeOutputPattern):
            return node(item.node).outputs[item.output_index]
        if isinstance(item, OrValue):
            return OrValue(
                [value(v) for v in item.values], item.name, item.tag_var, item.tag_values
            )
        return item

    def node(original: NodePattern) -> NodePattern:
        if id(original) not in copies:
            inputs = [value(v) for v in original.inputs]
            if id(original) in swapped:
                inputs.reverse()
            copies[id(original)] = NodePattern(
                original.domain,
                original.op,
                inputs,
                dict(original.attributes),
                [output.name for output in original.outputs],
                allow_other_attributes=original.allow_other_attributes,
                allow_other_inputs=original.allow_other_inputs,
                check=original.check,
            )
        return copies[id(original)]

    outputs = [value(output) for output in pattern.outputs]
    return GraphPattern(pattern.inputs, [o for o in outputs if o is not None])


__all__ = ["COMMUTATIVE_OPS", "commuted"]
