"""``optimize()``: the passes of ``onnxscript.passes`` composed with the rewriter's
default rules; the passes themselves are re-exported here under 0.7's names.

Every function takes an ``onnx_ir.Model`` (changed in place) and, except the ``*_ir``
ones, an ``onnx.ModelProto`` (a new one is returned), as onnxscript 0.7's optimizer did.
"""

from __future__ import annotations

from onnxscript.ir_utils.metadata import FOLDED_FROM as FOLDED_FROM_KEY
from onnxscript.ir_utils.model_kinds import ModelT, on_ir
from onnxscript.optimizer.optimize import optimization_passes, optimize, optimize_ir
from onnxscript.passes import (
    FoldConstantsPass,
    InlineFunctionsPass,
    basic_constant_propagation,
    eliminate_common_subexpressions,
    fold_constants_ir,
    inline,
    remove_identity,
    remove_unused_functions,
    remove_unused_nodes,
)


def fold_constants(model: ModelT, **options: object) -> ModelT:
    """Constant folding alone (options as :func:`fold_constants_ir`)."""
    return on_ir(model, lambda m: fold_constants_ir(m, **options))  # type: ignore[arg-type]


__all__ = [
    "FOLDED_FROM_KEY",
    "FoldConstantsPass",
    "InlineFunctionsPass",
    "basic_constant_propagation",
    "eliminate_common_subexpressions",
    "fold_constants",
    "fold_constants_ir",
    "inline",
    "optimization_passes",
    "optimize",
    "optimize_ir",
    "remove_identity",
    "remove_unused_functions",
    "remove_unused_nodes",
]
