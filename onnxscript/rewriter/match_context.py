"""What a rule's check sees besides the bound variables: where the match is."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import onnx_ir as ir

from onnxscript.ir_utils.display import display_nodes


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
        """Print the matched nodes (in graph order, or as matched)."""
        if in_graph_order:
            display_nodes(self.nodes)
        else:
            for node in self.nodes:
                node.display()


__all__ = ["MatchContext"]
