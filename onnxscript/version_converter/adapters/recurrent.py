"""RNN, GRU and LSTM gained ``layout`` at 14 (1: batch first). Going down with layout=1,
Transposes put the inputs sequence-first and the outputs back to batch-first."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.version_converter._context import Rewrite, nothing
from onnxscript.version_converter.adapters._tables import Table, step

_SWAP = [1, 0, 2]
_Y_BATCH_FIRST = [2, 0, 1, 3]
"""Y at layout 0 is [seq, directions, batch, hidden]; at layout 1 [batch, seq, directions,
hidden]."""


def _layout_dropped(rewrite: Rewrite) -> None:
    layout = rewrite.attr("layout", 0)
    rewrite.drop_attr("layout")
    if not layout:
        return
    states = (5, 6) if rewrite.node.op_type == "LSTM" else (5,)
    for index in (0, *states):
        value = rewrite.input(index)
        if value is not None:
            moved = rewrite.op1("Transpose", [value], {"perm": _SWAP})
            rewrite.node.replace_input_with(index, moved)
    for index, output in enumerate(rewrite.node.outputs):
        if not (output.uses() or output.is_graph_output()):
            continue
        perm = _Y_BATCH_FIRST if index == 0 else _SWAP

        def back(result: ir.Value, perm: list[int] = perm) -> ir.Value:
            return rewrite.op1("Transpose", [result], {"perm": perm}, after=True)

        rewrite.through(index, back)


ADAPTERS: Table = {}
for _op in ("RNN", "GRU", "LSTM"):
    ADAPTERS |= step(
        _op,
        14,
        nothing,
        _layout_dropped,
        "unchanged (new layout attribute, default sequence-first)",
        "layout=1 written as Transposes of the inputs and outputs",
    )

__all__ = ["ADAPTERS"]
