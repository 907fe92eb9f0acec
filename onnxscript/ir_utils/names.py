"""Names no other value or node of a model has: for what a pass copies into a graph (ONNX
forbids two values of one name, and a subgraph to reuse a name of an enclosing graph)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import onnx_ir as ir

from onnxscript.ir_utils.graphs import subgraphs


class UniqueNames:
    """Hands out names not taken yet: ``name`` itself, or ``name_1``, ``name_2``..."""

    def __init__(self, taken: Iterable[str]) -> None:
        self._taken = set(taken)

    def claim(self, name: str) -> str:
        candidate, index = name, 0
        while candidate in self._taken:
            index += 1
            candidate = f"{name}_{index}"
        self._taken.add(candidate)
        return candidate


def names_in(model: ir.Model) -> Iterator[str]:
    """Every value and node name of the model: main graph, subgraphs, function bodies."""
    yield from _graph_names(model.graph)
    for function in model.functions.values():
        yield from _graph_names(function.graph)


def _graph_names(graph: ir.Graph) -> Iterator[str]:
    for value in [*graph.inputs, *graph.outputs, *graph.initializers.values()]:
        if value.name:
            yield value.name
    for node in graph:
        if node.name:
            yield node.name
        yield from (v.name for v in node.outputs if v.name)
        for sub in subgraphs(node):
            yield from _graph_names(sub)


__all__ = ["UniqueNames", "names_in"]
