"""Passes over ``onnx_ir`` models, and ``optimize()`` composing them.

Every function takes an ``onnx_ir.Model`` (changed in place) and, except the ``*_ir``
ones, an ``onnx.ModelProto`` (a new one is returned), as onnxscript 0.7's optimizer did.
"""

from __future__ import annotations

from onnxscript.ir_utils.model_kinds import ModelT, on_ir
from onnxscript.optimizer.cleanup import (
    eliminate_common_subexpressions,
    remove_identity,
    remove_unused_functions,
    remove_unused_nodes,
)
from onnxscript.optimizer.constant_folding import (
    FoldConstantsPass,
    basic_constant_propagation,
    fold_constants_ir,
)
from onnxscript.optimizer.inlining import InlineFunctionsPass, inline
from onnxscript.optimizer.optimize import optimize, optimize_ir


def fold_constants(model: ModelT, **options: object) -> ModelT:
    """Constant folding alone (options as :func:`fold_constants_ir`)."""
    return on_ir(model, lambda m: fold_constants_ir(m, **options))  # type: ignore[arg-type]


__all__ = [
    "FoldConstantsPass",
    "InlineFunctionsPass",
    "basic_constant_propagation",
    "eliminate_common_subexpressions",
    "fold_constants",
    "fold_constants_ir",
    "inline",
    "optimize",
    "optimize_ir",
    "remove_identity",
    "remove_unused_functions",
    "remove_unused_nodes",
]
