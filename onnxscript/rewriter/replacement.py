"""The ``op`` of a replacement function: ``op.Gelu(x, approximate="tanh")`` makes a real
node (recorded, inserted by the rule once the function returns)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.node_recorder import NodeRecorder


@dataclasses.dataclass
class ReplacementSubgraph:
    """What a replacement function built: the values replacing the pattern's outputs,
    the new nodes and initializers, and the opsets the nodes use ((domain, version) pairs,
    version None when not given)."""

    match: Any
    new_outputs: Sequence[ir.Value]
    new_nodes: Sequence[ir.Node]
    new_initializers: Sequence[ir.Value]
    used_opsets: set[tuple[str, int | None]]


RewriterContext = NodeRecorder
"""The ``op`` of a replacement function (0.7.2's name): a :class:`NodeRecorder`."""


__all__ = ["ReplacementSubgraph", "RewriterContext"]
