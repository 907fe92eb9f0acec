"""Walking onnx protos: the graphs a node's attributes hold."""

from __future__ import annotations

from collections.abc import Iterator

import onnx


def subgraphs(node: onnx.NodeProto) -> Iterator[onnx.GraphProto]:
    """The graphs that ``node``'s attributes hold (``If`` branches, ``Loop`` bodies, ...)."""
    for attr in node.attribute:
        if attr.type == onnx.AttributeProto.GRAPH:
            yield attr.g
        elif attr.type == onnx.AttributeProto.GRAPHS:
            yield from attr.graphs


__all__ = ["subgraphs"]
