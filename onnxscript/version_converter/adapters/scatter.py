"""Scatter (deprecated at 11) is ScatterElements-11 under its old name; ScatterElements-11
also accepts negative indices, shifted at run time when going back to Scatter."""

from __future__ import annotations

from onnxscript.version_converter._context import Adapter, Rewrite
from onnxscript.version_converter.adapters._tables import Table
from onnxscript.version_converter.adapters.negative_axes import axis_size, shifted_indices


def _to_scatter_elements(rewrite: Rewrite) -> None:
    rewrite.node.op_type = "ScatterElements"


def _to_scatter(rewrite: Rewrite) -> None:
    shifted_indices(rewrite, 1, axis_size(0, "axis"))
    rewrite.node.op_type = "Scatter"


ADAPTERS: Table = {
    ("Scatter", 9, 11): Adapter(_to_scatter_elements, "becomes ScatterElements-11"),
    ("ScatterElements", 11, 10): Adapter(
        _to_scatter, "becomes Scatter-9; negative indices shifted at run time"
    ),
}

__all__ = ["ADAPTERS"]
