"""What a rule's check sees besides the bound variables: where the match is."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import onnx_ir as ir


@dataclasses.dataclass
class MatchContext:
    """The model, the graph or function matched in, the root node (the producer of the
    pattern's first output), the matched outputs and nodes."""

    model: ir.Model
    graph_or_function: ir.Graph | ir.Function
    root: ir.Node
    output_values: Sequence[ir.Value] = ()
    nodes: Sequence[ir.Node] = ()

    def display(self, *, in_graph_order: bool = True) -> None:
        nodes = list(self.nodes)
        if in_graph_order:
            order = {id(n): i for i, n in enumerate(self.graph_or_function)}
            nodes.sort(key=lambda n: order.get(id(n), -1))
        for node in nodes:
            print(node)


__all__ = ["MatchContext"]
