"""The names a model uses already, for :class:`onnxscript.unique_names.UniqueNames` to hand
out others: ONNX forbids two values of one name, and a subgraph to reuse a name of an
enclosing graph, so what a pass copies into a graph needs names no value or node has.

Node names: onnxruntime refuses a graph with two nodes of one name. A node a pass makes
without a name is named by onnx_ir when it is inserted (``node_<op>_<n>``, a name the
graph has not had); one that comes named (moved from a branch, which named it by its own
count; named after the value it computes; named by a rule) is given a fresh name by
:func:`free_node_names` before it is inserted."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import onnx_ir as ir

from onnxscript.ir_utils.graphs import model_graphs
from onnxscript.unique_names import UniqueNames


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


def free_node_names(container: ir.Graph | ir.Function, nodes: Iterable[ir.Node]) -> None:
    """Rename each of ``nodes`` (about to be inserted into ``container``) whose name a node
    of ``container``, or an earlier one of ``nodes``, has: ``name_1``, ``name_2``... the
    package's scheme (:class:`UniqueNames`). Unnamed nodes are left to onnx_ir."""
    named = [n for n in nodes if n.name and n.graph is None]
    if not named:
        return  # the common case: the graph's names are not read
    taken = UniqueNames(n.name for n in container if n.name)
    for node in named:
        node.name = taken.claim(node.name or "")


__all__ = ["free_node_names", "names_in"]
