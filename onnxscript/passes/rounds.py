"""The passes of an optimization, in order: inlining, then rounds (a ``PassManager`` of
``num_iterations`` steps, stopping early when a round changes nothing) of constant
folding, the given rewrite pass and the clean-ups; then the remaining constants lifted to
initializers (not before IR version 4, whose initializers must all be graph inputs) and
unused functions and opsets removed.

The rewrite pass is a parameter so that this layer needs no rule: ``optimize()`` gives
the rewriter's default rules, and so does ``optimize_for_ort`` around its fusions."""

from __future__ import annotations

from typing import TypedDict

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils.initializers import initializers_are_inputs
from onnxscript.passes.cleanup import cleanup_passes
from onnxscript.passes.constant_folding import (
    DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
    DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
    FoldConstantsPass,
    ShouldFold,
)
from onnxscript.passes.inlining import InlineFunctionsPass

DEFAULT_NUM_ITERATIONS = 2
"""Rounds of folding, rewriting and clean-up an optimization runs at most (fewer when a
round changes nothing)."""


def fold_by_default(node: ir.Node) -> bool | None:
    """The default ``should_fold``: no opinion (the size limits decide)."""
    return None


class _FoldRound(ir.passes.InPlacePass):
    """Constant folding as a round: values get shapes inferred node by node in the first
    round only (later rounds see the shapes the first one set)."""

    def __init__(self, folding: FoldConstantsPass, infer: bool) -> None:
        super().__init__()
        self._folding = folding
        self._infer = infer

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        self._folding.limits.infer = self._infer
        self._infer = False
        return self._folding(model)


class _LiftConstants(ir.passes.InPlacePass):
    """The main graph's Constant nodes as initializers, where the IR version lets an
    initializer be other than a graph input (4 on); an older model keeps its nodes."""

    def __init__(self) -> None:
        super().__init__()
        self._lift = common.LiftConstantsToInitializersPass(lift_all_constants=True, size_limit=0)

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        if initializers_are_inputs(model.ir_version):
            return ir.passes.PassResult(model, False)
        return self._lift(model)


class SequenceOptions(TypedDict, total=False):
    """The keyword options of :func:`optimization_sequence`, for callers that pass them
    on (their defaults live there only, the size limits in ``constant_folding``)."""

    onnx_shape_inference: bool
    stop_if_no_change: bool
    input_size_limit: int
    output_size_limit: int
    should_fold: ShouldFold
    inline: bool


def optimization_sequence(
    rewrite: ir.passes.PassBase | None,
    num_iterations: int = DEFAULT_NUM_ITERATIONS,
    *,
    onnx_shape_inference: bool = True,
    stop_if_no_change: bool = True,
    input_size_limit: int = DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
    output_size_limit: int = DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
    should_fold: ShouldFold = fold_by_default,
    inline: bool = True,
) -> ir.passes.Sequential:
    """The passes, with ``rewrite`` (or none) in each round (one ``Sequential``)."""
    folding = FoldConstantsPass(
        input_size_limit=input_size_limit,
        output_size_limit=output_size_limit,
        should_fold=should_fold,
    )
    rounds = ir.passes.PassManager(
        [
            _FoldRound(folding, onnx_shape_inference),
            *([rewrite] if rewrite is not None else []),
            *cleanup_passes(),
        ],
        steps=max(1, num_iterations),
        early_stop=stop_if_no_change,
    )
    return ir.passes.Sequential(
        *([InlineFunctionsPass()] if inline else []),
        rounds,
        _LiftConstants(),
        common.RemoveUnusedFunctionsPass(),  # type: ignore[no-untyped-call]
        common.RemoveUnusedOpsetsPass(),
    )


__all__ = [
    "DEFAULT_NUM_ITERATIONS",
    "SequenceOptions",
    "fold_by_default",
    "optimization_sequence",
]
