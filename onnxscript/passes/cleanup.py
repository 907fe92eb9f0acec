"""Removal passes, each usable alone: unused nodes and initializers, unused functions,
redundant Identity nodes, repeated computations (common subexpressions).

Unused nodes and functions are onnx_ir's passes; Identity removal and common
subexpressions are ours (they work in every graph, subgraphs and function bodies
included). They are composed here with the names onnxscript 0.7 users call, and accept an
``onnx.ModelProto`` too.
"""

from __future__ import annotations

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils.model_kinds import ModelT, on_ir
from onnxscript.passes.common_subexpressions import CommonSubexpressionPass
from onnxscript.passes.identity_removal import IdentityRemovalPass
from onnxscript.passes.noop_removal import NoOpRemovalPass


def remove_unused_nodes(model: ModelT) -> ModelT:
    """Remove nodes whose outputs nothing uses, and initializers nothing reads (graph
    inputs and outputs stay as they are)."""
    return on_ir(model, common.RemoveUnusedNodesPass())


def remove_unused_functions(model: ModelT) -> ModelT:
    """Remove model-local functions that no graph or function calls (calls in subgraphs
    count)."""
    removal = common.RemoveUnusedFunctionsPass()  # type: ignore[no-untyped-call]
    return on_ir(model, removal)


def remove_identity(model: ModelT) -> ModelT:
    """Remove ``Identity`` nodes, wiring their consumers to the input (an Identity that
    makes a graph output stays when its input is a graph input, initializer or output, or
    an outer value in a subgraph: it is the only way to express that)."""
    return on_ir(model, IdentityRemovalPass())


def eliminate_common_subexpressions(model: ModelT) -> ModelT:
    """Compute once what several nodes of a graph compute alike (same op, inputs and
    attributes; random ops, and calls of functions using one, excepted)."""
    return on_ir(model, CommonSubexpressionPass())


def cleanup_passes() -> list[ir.passes.PassBase]:
    """The removal passes in the order ``optimize()`` runs them."""
    return [
        NoOpRemovalPass(),
        IdentityRemovalPass(),
        CommonSubexpressionPass(),
        common.RemoveUnusedNodesPass(),
    ]


__all__ = [
    "cleanup_passes",
    "eliminate_common_subexpressions",
    "remove_identity",
    "remove_unused_functions",
    "remove_unused_nodes",
]
