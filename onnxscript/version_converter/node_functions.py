"""Adapters written as onnxscript 0.7 wrote them: a function of the node and an ``op``
builder, ``function(node, op)``, returning the values that replace the node's outputs
(``None``: the node stays as it is).

:func:`as_adapter` makes such a function one of this package's adapters: ``op.X(...)``
adds an ai.onnx node before the converted node (``_outputs=n`` for several outputs), and
returned values take over the node's outputs (the node goes).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import onnx_ir as ir

from onnxscript.version_converter._context import Adapter, Rewrite

ReturnValue = Sequence[ir.Value] | ir.Value | None
"""What a node function returns."""

NodeFunction = Callable[[ir.Node, Any], ReturnValue]
"""``function(node, op) -> ReturnValue``."""


class RewriteOps:
    """The ``op`` a node function builds with: ``op.Constant(value_int=1)``,
    ``op.DFT(x, n, axis, inverse=0)``; each call adds the node before the converted one
    and returns its output (a tuple of them with ``_outputs=n``)."""

    def __init__(self, rewrite: Rewrite) -> None:
        self._rewrite = rewrite

    def __getattr__(self, op_type: str) -> Callable[..., Any]:
        if op_type.startswith("_"):
            raise AttributeError(op_type)

        def call(*inputs: ir.Value | None, _outputs: int = 1, **attributes: Any) -> Any:
            outputs = self._rewrite.op(op_type, inputs, attributes, outputs=_outputs)
            return outputs[0] if _outputs == 1 else tuple(outputs)

        return call


def as_adapter(function: NodeFunction, summary: str = "") -> Adapter:
    """The adapter running ``function(node, op)`` on the node of each step."""

    def apply(rewrite: Rewrite) -> None:
        result = function(rewrite.node, RewriteOps(rewrite))
        if result is None:
            return
        values = [result] if isinstance(result, ir.Value) else list(result)
        rewrite.replace_outputs(values)

    return Adapter(apply, summary or getattr(function, "__name__", "node function"))


__all__ = ["NodeFunction", "ReturnValue", "RewriteOps", "as_adapter"]
