"""``optimize()``: ``onnxscript.passes.optimization_sequence`` (inlining, rounds of
constant folding, rewrite rules and clean-up, constants lifted, unused functions and
opsets removed) with the rewriter's default rules."""

from __future__ import annotations

import onnx_ir as ir
from typing_extensions import Unpack

from onnxscript.ir_utils.model_kinds import ModelT, on_ir
from onnxscript.passes.constant_folding import (
    DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
    DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
    ShouldFold,
)
from onnxscript.passes.rounds import (
    DEFAULT_NUM_ITERATIONS,
    SequenceOptions,
    fold_by_default,
    optimization_sequence,
)
from onnxscript.rewriter.rewrite import RewritePass
from onnxscript.rewriter.rules.common import default_rule_set


def optimization_passes(
    num_iterations: int = DEFAULT_NUM_ITERATIONS, **options: Unpack[SequenceOptions]
) -> ir.passes.Sequential:
    """The passes :func:`optimize` runs, in order (one ``Sequential``): those of
    ``onnxscript.passes.optimization_sequence`` (same options) with the default rewrite
    rules."""
    return optimization_sequence(RewritePass(default_rule_set()), num_iterations, **options)


def optimize_ir(
    model: ir.Model,
    num_iterations: int = DEFAULT_NUM_ITERATIONS,
    *,
    onnx_shape_inference: bool = True,
    stop_if_no_change: bool = True,
    input_size_limit: int = DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
    output_size_limit: int = DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
    should_fold: ShouldFold = fold_by_default,
    inline: bool = True,
) -> None:
    """Optimize ``model`` in place; see :func:`optimize`."""
    passes = optimization_passes(
        num_iterations,
        onnx_shape_inference=onnx_shape_inference,
        stop_if_no_change=stop_if_no_change,
        input_size_limit=input_size_limit,
        output_size_limit=output_size_limit,
        should_fold=should_fold,
        inline=inline,
    )
    passes(model)


def optimize(
    model: ModelT,
    num_iterations: int = DEFAULT_NUM_ITERATIONS,
    *,
    onnx_shape_inference: bool = True,
    stop_if_no_change: bool = True,
    input_size_limit: int = DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
    output_size_limit: int = DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
    inline: bool = True,
) -> ModelT:
    """Optimize a model: inline model-local functions (``inline``), fold constants (inputs
    up to ``input_size_limit`` elements, results up to ``output_size_limit``), apply the
    default rewrite rules (``onnxscript.rewriter.rules.common.default_rules``: no-op
    arithmetic and casts, Transpose/Reshape/Unsqueeze chains, BatchNormalization folded
    into the Conv or Gemm before it, ...), remove Identity nodes, repeated computations
    and unused nodes, initializers, functions and opsets. An ``onnx_ir.Model`` is
    optimized in place and returned; for an ``onnx.ModelProto`` a new, optimized one is
    returned (the argument is untouched). The result computes what the input did."""

    def run(ir_model: ir.Model) -> None:
        optimize_ir(
            ir_model,
            num_iterations,
            onnx_shape_inference=onnx_shape_inference,
            stop_if_no_change=stop_if_no_change,
            input_size_limit=input_size_limit,
            output_size_limit=output_size_limit,
            inline=inline,
        )

    return on_ir(model, run)


__all__ = ["optimization_passes", "optimize", "optimize_ir"]
