"""Passes over ``onnx_ir`` models that need no rewrite rule: constant folding, inlining
and the clean-ups (unused nodes and functions, identities, no-ops, common
subexpressions).

``onnxscript.optimizer`` composes them with the rewriter's default rules into
``optimize()``; they live below the rewriter so that its pipelines
(``rewriter.ort_fusions.optimize_for_ort``) can run them too.
"""

from __future__ import annotations

from onnxscript.passes.cleanup import (
    cleanup_passes,
    eliminate_common_subexpressions,
    remove_identity,
    remove_unused_functions,
    remove_unused_nodes,
)
from onnxscript.passes.constant_folding import (
    FoldConstantsPass,
    ShouldFold,
    basic_constant_propagation,
    fold_constants_ir,
)
from onnxscript.passes.inlining import InlineFunctionsPass, inline
from onnxscript.passes.rounds import optimization_sequence

__all__ = [
    "FoldConstantsPass",
    "InlineFunctionsPass",
    "ShouldFold",
    "basic_constant_propagation",
    "cleanup_passes",
    "eliminate_common_subexpressions",
    "fold_constants_ir",
    "inline",
    "optimization_sequence",
    "remove_identity",
    "remove_unused_functions",
    "remove_unused_nodes",
]
