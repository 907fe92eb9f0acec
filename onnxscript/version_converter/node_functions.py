"""Adapters written as onnxscript 0.7 wrote them: a function of the node and an ``op``
builder, ``function(node, op)``, returning the values that replace the node's outputs
(``None``: the node stays as it is).

:func:`as_adapter` makes such a function one of this package's adapters: its ``op`` is
:class:`onnxscript.ir_utils.node_recorder.NodeRecorder` (0.7's ``TapeBuilder``); the nodes
it recorded go before the converted node, and the returned values take over the node's
outputs (the node goes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.node_recorder import NodeRecorder
from onnxscript.version_converter._context import Adapter, Rewrite

ReturnValue = Sequence[ir.Value] | ir.Value | None
"""What a node function returns."""

NodeFunction = Callable[[ir.Node, Any], ReturnValue]
"""``function(node, op) -> ReturnValue``."""


def as_adapter(function: NodeFunction, summary: str = "") -> Adapter:
    """The adapter running ``function(node, op)`` on the node of each step."""

    def apply(rewrite: Rewrite) -> None:
        op = NodeRecorder()
        result = function(rewrite.node, op)
        if result is None:
            return
        rewrite.adopt(op.nodes, op.initializers)
        values = [result] if isinstance(result, ir.Value) else list(result)
        rewrite.replace_outputs(values)

    return Adapter(apply, summary or getattr(function, "__name__", "node function"))


__all__ = ["NodeFunction", "ReturnValue", "as_adapter"]
