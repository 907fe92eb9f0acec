"""The names a model uses already, for :class:`onnxscript.unique_names.UniqueNames` to hand
out others: ONNX forbids two values of one name, and a subgraph to reuse a name of an
enclosing graph, so what a pass copies into a graph needs names no value or node has."""

from __future__ import annotations

from collections.abc import Iterator

import onnx_ir as ir

from onnxscript.ir_utils.graphs import model_graphs


def names_in(model: ir.Model) -> Iterator[str]:
    """Every value and node name of the model: main graph, subgraphs, function bodies."""
    for graph in model_graphs(model):
        for value in [*graph.inputs, *graph.outputs, *graph.initializers.values()]:
            if value.name:
                yield value.name
        for node in graph:
            if node.name:
                yield node.name
            yield from (v.name for v in node.outputs if v.name)


__all__ = ["names_in"]
