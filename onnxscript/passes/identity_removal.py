"""Identity removal in every graph of a model: the main graph, function bodies and their
subgraphs. A graph's output must be computed in that graph (ONNX Runtime rejects a
subgraph that returns an outer value directly) and keeps its name, so an Identity that
makes an output stays unless its input is an otherwise unnamed result of the same graph."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.ir_utils.graphs import can_become_output, model_graphs
from onnxscript.ir_utils.metadata import carry_metadata


class IdentityRemovalPass(ir.passes.InPlacePass):
    """Remove ``Identity`` nodes, wiring their consumers to their input."""

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        modified = False
        for graph in list(model_graphs(model)):
            for node in list(graph):
                modified |= _remove(graph, node)
        return ir.passes.PassResult(model, modified)


def _remove(graph: ir.Graph, node: ir.Node) -> bool:
    if node.op_type != "Identity" or node.domain or len(node.outputs) != 1:
        return False
    source = node.inputs[0] if node.inputs else None
    return source is not None and bypass(graph, node, source)


def bypass(graph: ir.Graph, node: ir.Node, source: ir.Value) -> bool:
    """Remove ``node`` of ``graph``, whose one output equals ``source``: its consumers read
    ``source`` instead (a graph output keeps its name, if ``source`` can take it)."""
    result = node.outputs[0]
    if result.is_graph_output():
        if not can_become_output(source, graph):
            return False
        name, result.name = result.name, None
        source.name = name
        carry_metadata(source, result)
    _merge_known(source, result)
    result.replace_all_uses_with(source, replace_graph_outputs=True)
    graph.remove(node, safe=True)
    return True


def _merge_known(source: ir.Value, result: ir.Value) -> None:
    """What the Identity's result knew and its input did not (type, shape)."""
    if source.type is None:
        source.type = result.type
    if source.shape is None and result.shape is not None:
        source.shape = result.shape.copy()


__all__ = ["IdentityRemovalPass", "bypass"]
