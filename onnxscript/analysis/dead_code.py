"""Removal of ``Constant`` nodes whose values nothing reads.

The converter creates constants on demand (a loop's initial condition, a literal); when the
code that would read one is dropped (a loop whose results are all unused), the constant
remains. Other nodes are kept even when unused: they are code the user wrote.
"""

from __future__ import annotations

from onnxscript.program.graph import Graph, Value


def _used_values(graph: Graph, used: set[Value]) -> None:
    for node in graph.nodes:
        used.update(v for v in node.inputs if v is not None)
        for sub in node.subgraphs():
            _used_values(sub, used)
    used.update(graph.outputs)


def _prune(graph: Graph, used: set[Value]) -> bool:
    before = len(graph.nodes)
    graph.nodes = [
        n
        for n in graph.nodes
        if not (n.op_type == "Constant" and n.domain == "" and n.outputs[0] not in used)
    ]
    changed = len(graph.nodes) != before
    for node in graph.nodes:
        for sub in node.subgraphs():
            changed = _prune(sub, used) or changed
    return changed


def remove_unused_constants(graph: Graph) -> None:
    """Drop unread ``Constant`` nodes from ``graph`` and its nested graphs."""
    used: set[Value] = set()
    _used_values(graph, used)
    _prune(graph, used)
