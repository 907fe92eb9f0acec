"""``onnxscript.optimizer._constant_folding``: where onnxscript 0.7 kept constant folding.

Library clients import the pass and its size limits from here, and register partial
evaluators of their own ops with ``registry.register("MyOp", domain=...)``; they are
``onnxscript.passes.constant_folding``'s and ``onnxscript.passes.partial_evaluation``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.metadata import FOLDED_FROM as FOLDED_FROM_KEY
from onnxscript.passes.constant_folding import (
    DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
    DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
    FoldConstantsPass,
    ShouldFold,
    basic_constant_propagation,
    fold_constants_ir,
)
from onnxscript.passes.partial_evaluation import (
    OptimizerState,
    PartialEvaluator,
    PartialEvaluatorRegistry,
    ReferenceEvaluator,
    Replacement,
    abs,
    add,
    cast,
    cast_like,
    concat,
    concat_from_sequence,
    dropout,
    expand,
    gather,
    identity,
    if_op,
    registry,
    reshape,
    sequence_at,
    sequence_construct,
    shape,
    size,
    split_to_sequence,
    squeeze,
)


@dataclass
class FoldConstantsResult(ir.passes.PassResult):
    """What :func:`fold_constants` returns: the model, whether it changed, and (as in
    0.7) a map of symbolic values, which this folding does not track (always empty)."""

    symbolic_value_map: dict[ir.Value, Any] = field(default_factory=dict)


def fold_constants(
    model: ir.Model,
    *,
    onnx_shape_inference: bool = False,
    input_size_limit: int = DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
    output_size_limit: int = DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
    should_fold: ShouldFold = lambda _node: None,
) -> FoldConstantsResult:
    """Fold the constants of ``model`` in place (0.7's signature and defaults)."""
    result = fold_constants_ir(
        model,
        onnx_shape_inference=onnx_shape_inference,
        input_size_limit=input_size_limit,
        output_size_limit=output_size_limit,
        should_fold=should_fold,
    )
    return FoldConstantsResult(result.model, result.modified)


__all__ = [
    "DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT",
    "DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT",
    "FOLDED_FROM_KEY",
    "FoldConstantsPass",
    "FoldConstantsResult",
    "OptimizerState",
    "PartialEvaluator",
    "PartialEvaluatorRegistry",
    "ReferenceEvaluator",
    "Replacement",
    "abs",
    "add",
    "basic_constant_propagation",
    "cast",
    "cast_like",
    "concat",
    "concat_from_sequence",
    "dropout",
    "expand",
    "fold_constants",
    "gather",
    "identity",
    "if_op",
    "registry",
    "reshape",
    "sequence_at",
    "sequence_construct",
    "shape",
    "size",
    "split_to_sequence",
    "squeeze",
]
