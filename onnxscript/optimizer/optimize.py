"""``optimize()``: onnx_ir passes composed with its pass infrastructure. Inlining first;
then rounds (a ``PassManager``: ``num_iterations`` steps, stopping early when a round
changes nothing) of constant folding, the default rewrite rules and clean-up; then the
remaining constants lifted to initializers and unused functions and opsets removed."""

from __future__ import annotations

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.ir_utils.model_kinds import ModelT, on_ir
from onnxscript.optimizer.cleanup import cleanup_passes
from onnxscript.optimizer.constant_folding import FoldConstantsPass, ShouldFold
from onnxscript.optimizer.inlining import InlineFunctionsPass
from onnxscript.rewriter.rewrite import RewritePass
from onnxscript.rewriter.rules.common import default_rule_set


def _default_should_fold(node: ir.Node) -> bool | None:
    return None


class _FoldRound(ir.passes.InPlacePass):
    """Constant folding as a round of ``optimize``: values get shapes inferred node by
    node in the first round only (later rounds see the shapes the first one set)."""

    def __init__(self, folding: FoldConstantsPass, infer: bool) -> None:
        super().__init__()
        self._folding = folding
        self._infer = infer

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        self._folding.limits.infer = self._infer
        self._infer = False
        return self._folding(model)


def optimization_passes(
    num_iterations: int = 2,
    *,
    onnx_shape_inference: bool = True,
    stop_if_no_change: bool = True,
    input_size_limit: int = 8192,
    output_size_limit: int = 262144,
    should_fold: ShouldFold = _default_should_fold,
    inline: bool = True,
) -> ir.passes.Sequential:
    """The passes :func:`optimize` runs, in order (one ``Sequential``)."""
    folding = FoldConstantsPass(
        input_size_limit=input_size_limit,
        output_size_limit=output_size_limit,
        should_fold=should_fold,
    )
    rounds = ir.passes.PassManager(
        [
            _FoldRound(folding, onnx_shape_inference),
            RewritePass(default_rule_set()),
            *cleanup_passes(),
        ],
        steps=max(1, num_iterations),
        early_stop=stop_if_no_change,
    )
    return ir.passes.Sequential(
        *([InlineFunctionsPass()] if inline else []),
        rounds,
        common.LiftConstantsToInitializersPass(lift_all_constants=True, size_limit=0),
        common.RemoveUnusedFunctionsPass(),  # type: ignore[no-untyped-call]
        common.RemoveUnusedOpsetsPass(),
    )


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
    num_iterations: int = 2,
    *,
    onnx_shape_inference: bool = True,
    stop_if_no_change: bool = True,
    input_size_limit: int = 8192,
    output_size_limit: int = 262144,
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
