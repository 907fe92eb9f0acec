"""The graphs of a model a pass works on: the main graph, every function body, and the
subgraphs (If branches, Loop and Scan bodies) of their nodes at any depth."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import onnx_ir as ir


def attribute_graphs(attr: ir.Attr) -> list[ir.Graph]:
    """The graphs ``attr`` holds: one for a graph, its list for a list of graphs, none for
    any other attribute or a reference to a function's attribute."""
    if attr.is_ref():
        return []
    if attr.type == ir.AttributeType.GRAPH:
        return [attr.as_graph()]
    if attr.type == ir.AttributeType.GRAPHS:
        return list(attr.as_graphs())
    return []


def subgraphs(node: ir.Node) -> Iterator[ir.Graph]:
    """The graphs ``node``'s attributes hold (``If`` branches, ``Loop`` bodies, ...)."""
    for attr in node.attributes.values():
        yield from attribute_graphs(attr)


def holds_graphs(node: ir.Node) -> bool:
    """Whether an attribute of ``node`` is a graph or list of graphs, or refers to one."""
    return any(
        a.type in (ir.AttributeType.GRAPH, ir.AttributeType.GRAPHS)
        for a in node.attributes.values()
    )


def nested_nodes(nodes: Iterable[ir.Node]) -> Iterator[ir.Node]:
    """The nodes, each followed by the nodes of its subgraphs, at any depth."""
    for node in nodes:
        yield node
        for graph in subgraphs(node):
            yield from nested_nodes(graph)


def nested_graphs(graph: ir.Graph) -> Iterator[ir.Graph]:
    """``graph`` and every subgraph in it, outer ones first."""
    yield graph
    for node in graph:
        for sub in subgraphs(node):
            yield from nested_graphs(sub)


def model_graphs(model: ir.Model) -> Iterator[ir.Graph]:
    """Every graph of ``model``: the main graph and function bodies, with their subgraphs."""
    yield from nested_graphs(model.graph)
    for function in model.functions.values():
        yield from nested_graphs(function.graph)


def can_become_output(value: ir.Value, graph: ir.Graph) -> bool:
    """Whether ``value`` can be made an output of ``graph`` under another name: it is the
    result of a node of ``graph`` (ONNX Runtime rejects a subgraph returning an outer
    value directly) and no input, initializer or output of it yet."""
    producer = value.producer()
    if producer is None or producer.graph is not graph:
        return False
    return not (value.is_graph_output() or value.is_graph_input() or value.is_initializer())


__all__ = [
    "attribute_graphs",
    "can_become_output",
    "holds_graphs",
    "model_graphs",
    "nested_graphs",
    "nested_nodes",
    "subgraphs",
]
