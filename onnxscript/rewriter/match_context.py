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

    def opset(self, domain: str = "") -> int:
        """The version of ``domain`` the matched nodes are in (the function's import, else
        the model's; 1 when neither imports it)."""
        domain = "" if domain == "ai.onnx" else domain
        found = None
        if isinstance(self.graph_or_function, ir.Function):
            found = self.graph_or_function.opset_imports.get(domain)
        if found is None:
            found = self.model.opset_imports.get(domain)
        return found if found is not None else 1

    def display(self, *, in_graph_order: bool = True) -> None:
        """Print the matched nodes (in graph order, or as matched)."""
        if in_graph_order:
            display_nodes(self.nodes)
        else:
            for node in self.nodes:
                node.display()


__all__ = ["MatchContext"]
