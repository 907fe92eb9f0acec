"""Printing a few nodes of a graph for a person reading them: a match's nodes in graph
order, or the nodes around a value up to some depth."""

from __future__ import annotations

from collections.abc import Sequence

import onnx_ir as ir


def display_nodes(nodes: Sequence[ir.Node]) -> None:
    """Print ``nodes`` in the order they have in their graph."""
    order: dict[int, int] = {}
    graphs = {id(n.graph): n.graph for n in nodes if n.graph is not None}
    for graph in graphs.values():
        order.update((id(n), i) for i, n in enumerate(graph))
    for node in sorted(nodes, key=lambda n: order.get(id(n), -1)):
        node.display()


def display_slice(x: ir.Value | ir.Node, backward: bool = True, depth_limit: int = 5) -> None:
    """Print the nodes ``depth_limit`` steps from ``x`` (a node, or a value's producer or
    consumers): towards the graph inputs when ``backward``, else towards the outputs."""
    if isinstance(x, ir.Node):
        frontier = [x]
    elif backward:
        producer = x.producer()
        frontier = [producer] if producer is not None else []
    else:
        frontier = [user for user, _ in x.uses()]
    seen: dict[int, ir.Node] = {}
    for _ in range(depth_limit + 1):
        found: list[ir.Node] = []
        for node in frontier:
            if id(node) in seen:
                continue
            seen[id(node)] = node
            if backward:
                found.extend(p for v in node.inputs if v is not None and (p := v.producer()))
            else:
                found.extend(user for v in node.outputs for user, _ in v.uses())
        frontier = found
    display_nodes(list(seen.values()))


__all__ = ["display_nodes", "display_slice"]
