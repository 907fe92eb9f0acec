"""Walking onnx protos: the graphs a node's attributes hold."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import onnx


def subgraphs(node: onnx.NodeProto) -> Iterator[onnx.GraphProto]:
    """The graphs that ``node``'s attributes hold (``If`` branches, ``Loop`` bodies, ...)."""
    for attr in node.attribute:
        if attr.type == onnx.AttributeProto.GRAPH:
            yield attr.g
        elif attr.type == onnx.AttributeProto.GRAPHS:
            yield from attr.graphs


def named_subgraphs(node: onnx.NodeProto) -> Iterator[tuple[str, onnx.GraphProto]]:
    """:func:`subgraphs` with the attribute's name, ``name[i]`` for a list's i-th graph."""
    for attr in node.attribute:
        if attr.type == onnx.AttributeProto.GRAPH:
            yield attr.name, attr.g
        elif attr.type == onnx.AttributeProto.GRAPHS:
            for index, graph in enumerate(attr.graphs):
                yield f"{attr.name}[{index}]", graph


def nested_nodes(nodes: Iterable[onnx.NodeProto]) -> Iterator[onnx.NodeProto]:
    """The nodes, each followed by the nodes of its subgraphs, at any depth."""
    for node in nodes:
        yield node
        for graph in subgraphs(node):
            yield from nested_nodes(graph.node)


def nested_graphs(graph: onnx.GraphProto) -> Iterator[onnx.GraphProto]:
    """``graph`` and every subgraph in it, outer ones first."""
    yield graph
    for node in graph.node:
        for sub in subgraphs(node):
            yield from nested_graphs(sub)


__all__ = ["named_subgraphs", "nested_graphs", "nested_nodes", "subgraphs"]
