"""``optimize()``: inlining, then rounds of constant folding and clean-up until nothing
changes (or ``num_iterations`` rounds), then unused functions and opsets removed."""

from __future__ import annotations

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils.model_kinds import ModelT, on_ir
from onnxscript.optimizer.cleanup import cleanup_passes
from onnxscript.optimizer.constant_folding import ShouldFold, fold_constants_ir
from onnxscript.optimizer.fusion import FusionPass
from onnxscript.optimizer.inlining import inline as inline_functions


def _default_should_fold(node: ir.Node) -> bool | None:
    return None


def optimize_ir(
    model: ir.Model,
    num_iterations: int = 2,
    *,
    onnx_shape_inference: bool = True,
    stop_if_no_change: bool = True,
    input_size_limit: int = 8192,
    output_size_limit: int = 262144,
    should_fold: ShouldFold = _default_should_fold,
    inline: bool = True,
) -> None:
    """Optimize ``model`` in place; see :func:`optimize`."""
    if inline:
        inline_functions(model)
    for round_index in range(max(1, num_iterations)):
        folded = fold_constants_ir(
            model,
            onnx_shape_inference=onnx_shape_inference and round_index == 0,
            input_size_limit=input_size_limit,
            output_size_limit=output_size_limit,
            should_fold=should_fold,
        ).modified
        cleaned = FusionPass()(model).modified
        for cleanup in cleanup_passes():
            cleaned |= cleanup(model).modified
        if stop_if_no_change and not (folded or cleaned):
            break
    common.LiftConstantsToInitializersPass(lift_all_constants=True, size_limit=0)(model)
    common.RemoveUnusedFunctionsPass()(model)  # type: ignore[no-untyped-call]
    common.RemoveUnusedOpsetsPass()(model)


def optimize(
    model: ModelT,
    num_iterations: int = 2,
    *,
    onnx_shape_inference: bool = True,
    stop_if_no_change: bool = True,
    input_size_limit: int = 8192,
    output_size_limit: int = 262144,
    inline: bool = True,
) -> ModelT:
    """Optimize a model: inline model-local functions (``inline``), fold constants (inputs
    up to ``input_size_limit`` elements, results up to ``output_size_limit``), fold
    inference-mode BatchNormalization into the Conv before it, merge Transposes, remove
    Identity nodes, repeated computations and unused nodes, initializers, functions and
    opsets. An ``onnx_ir.Model`` is optimized in place and returned; for an
    ``onnx.ModelProto`` a new, optimized one is returned (the argument is untouched).
    The result computes what the input did."""

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


__all__ = ["optimize", "optimize_ir"]
