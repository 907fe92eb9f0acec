"""Removal passes, each usable alone: unused nodes and initializers, unused functions,
redundant Identity nodes, repeated computations (common subexpressions).

onnx_ir implements these as passes; they are composed here with the names onnxscript 0.7
users call, and accept an ``onnx.ModelProto`` too.
"""

from __future__ import annotations

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.optimizer.model_kinds import ModelT, on_ir


def remove_unused_nodes(model: ModelT) -> ModelT:
    """Remove nodes whose outputs nothing uses, and initializers nothing reads (graph
    inputs and outputs stay as they are)."""
    return on_ir(model, common.RemoveUnusedNodesPass())


def remove_unused_functions(model: ModelT) -> ModelT:
    """Remove model-local functions that no graph or function calls."""
    removal = common.RemoveUnusedFunctionsPass()  # type: ignore[no-untyped-call]
    return on_ir(model, removal)


def remove_identity(model: ModelT) -> ModelT:
    """Remove ``Identity`` nodes, wiring their consumers to the input (an Identity from a
    graph input to a graph output stays: it is the only way to express that)."""
    return on_ir(model, common.IdentityEliminationPass())


def eliminate_common_subexpressions(model: ModelT) -> ModelT:
    """Compute once what several nodes compute alike (same op, inputs and attributes;
    random ops excepted)."""
    return on_ir(model, common.CommonSubexpressionEliminationPass())


def cleanup_passes() -> list[ir.passes.PassBase]:
    """The removal passes in the order ``optimize()`` runs them."""
    return [
        common.IdentityEliminationPass(),
        common.CommonSubexpressionEliminationPass(),
        common.RemoveUnusedNodesPass(),
    ]


__all__ = [
    "cleanup_passes",
    "eliminate_common_subexpressions",
    "remove_identity",
    "remove_unused_functions",
    "remove_unused_nodes",
]
