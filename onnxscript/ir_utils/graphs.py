"""The graphs of a model a pass works on: the main graph, every function body, and the
subgraphs (If branches, Loop and Scan bodies) of their nodes at any depth."""

from __future__ import annotations

from collections.abc import Iterator

import onnx_ir as ir


def subgraphs(node: ir.Node) -> Iterator[ir.Graph]:
    """The graphs ``node``'s attributes hold (not references to a function's)."""
    for attr in node.attributes.values():
        if attr.is_ref():
            continue
        if attr.type == ir.AttributeType.GRAPH:
            yield attr.as_graph()
        elif attr.type == ir.AttributeType.GRAPHS:
            yield from attr.as_graphs()


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


__all__ = ["can_become_output", "model_graphs", "nested_graphs", "subgraphs"]
