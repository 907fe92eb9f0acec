"""``optimize_for_ort``: the model optimized (constant folding, the default rewrite rules,
clean-ups: as ``optimize()``, so that the fusions see the shapes they match), the fusion
steps in the order each needs the previous ones (normalizations, rotary embeddings and
their caches, attention, activations), what a step left half done put back, then
optimized again (the Reshapes and Transposes around a fused op often cancel out), the
constants lifted to (shared) initializers, and unused nodes and opsets removed. 0.7's
``optimize_for_ort`` optimized around its fusions too."""

from __future__ import annotations

from collections.abc import Callable

import onnx_ir as ir
import onnx_ir.passes.common as common

from onnxscript.passes import optimization_sequence
from onnxscript.rewriter.fuse_functions import apply_rules
from onnxscript.rewriter.ort_fusions import (
    instance_to_group_normalization,
    shape_optimization,
    softmax,
)
from onnxscript.rewriter.ort_fusions.attention import fuse_attention
from onnxscript.rewriter.ort_fusions.bias_gelu import fuse_bias_gelu
from onnxscript.rewriter.ort_fusions.cos_sin_cache import fuse_cos_sin_cache
from onnxscript.rewriter.ort_fusions.erfgelu import fuse_erfgelu
from onnxscript.rewriter.ort_fusions.fused_matmul_rule_sets import (
    RULE_CLASSES,
    fused_matmul_rule_sets,
)
from onnxscript.rewriter.ort_fusions.gelu import fuse_gelu
from onnxscript.rewriter.ort_fusions.gqa import fuse_gqa
from onnxscript.rewriter.ort_fusions.gqa_packed_qkv import fuse_qkv_gqa
from onnxscript.rewriter.ort_fusions.mha import fuse_mha1, fuse_mha2
from onnxscript.rewriter.ort_fusions.mha_bias import fuse_mha_bias
from onnxscript.rewriter.ort_fusions.mha_scale import fuse_mha_scale
from onnxscript.rewriter.ort_fusions.rms_normalization import fuse_rms_normalization
from onnxscript.rewriter.ort_fusions.rotary_embedding import (
    fuse_partial_rotary_embedding,
    fuse_rotary_embedding,
    restore_unfused_rotary,
)
from onnxscript.rewriter.ort_fusions.sdpa import fuse_sdpa
from onnxscript.rewriter.ort_fusions.sdpa_via_mha import replace_sdpa_by_mha
from onnxscript.rewriter.ort_fusions.skip_normalization import (
    fuse_skip_layer_normalization,
    fuse_skip_rms_normalization,
)
from onnxscript.rewriter.pattern import RewriteRule
from onnxscript.rewriter.rewrite import RewritePass
from onnxscript.rewriter.rules.common import default_rule_set

Fusion = Callable[..., int]
"""``fuse_x(model, debug=False) -> count``."""


def _fuse_fused_matmul(model: ir.Model, debug: bool = False) -> int:
    return apply_rules(fused_matmul_rule_sets(), model, debug=debug)


def _fuse_softmax(model: ir.Model, debug: bool = False) -> int:
    return apply_rules(softmax.rules, model, debug=debug)


STEPS: tuple[tuple[str, Fusion], ...] = (
    ("erf_gelu", fuse_erfgelu),
    ("rms_normalization", fuse_rms_normalization),
    ("skip_layer_normalization", fuse_skip_layer_normalization),
    ("skip_rms_normalization", fuse_skip_rms_normalization),
    ("rotary_embedding", fuse_rotary_embedding),
    ("partial_rotary_embedding", fuse_partial_rotary_embedding),
    ("cos_sin_cache", fuse_cos_sin_cache),
    ("sdpa", fuse_sdpa),
    ("gqa", fuse_gqa),
    ("packed_qkv_for_gqa", fuse_qkv_gqa),
    ("mha1", fuse_mha1),
    ("mha2", fuse_mha2),
    ("mha_scale", fuse_mha_scale),
    ("mha_bias", fuse_mha_bias),
    ("attention", fuse_attention),
    ("sdpa_via_mha", replace_sdpa_by_mha),
    ("gelu", fuse_gelu),
    ("bias_gelu", fuse_bias_gelu),
)
"""The transformer fusions of :func:`fuse_xformers`, named as 0.7 counts them, in order:
rotary embeddings before attention (the attention fusions take the completed
``com.microsoft`` rotary), GQA before MHA (with past, then without), the query scale and
the projection biases into MHA before the packed-projection Attention, and leftover SDPA
made MultiHeadAttention."""

ORT_STEPS: tuple[tuple[str, Fusion], ...] = (
    ("fused_matmul", _fuse_fused_matmul),
    ("softmax", _fuse_softmax),
)
"""What :func:`optimize_for_ort` applies after the transformer fusions (0.7 applied these
rules without counting them; here they are counted too): FusedMatMul last, since it
would take the transposes and scales the attention patterns match."""

ORT_PATTERN_REWRITE_RULES: list[RewriteRule] = [
    *softmax.rules,
    *(cls.rule() for cls in RULE_CLASSES),
]
"""0.7's default rules for onnxruntime (``rewriter.onnxruntime.rewrite``): the float16
Softmax and FusedMatMul rules. 0.7 listed the InstanceNormalization-to-GroupNorm rule
too, whose op onnxruntime's CPU cannot run; here it is applied only for the providers
that can (:func:`optimize_for_ort`'s ``config_name``)."""

RESTORES: tuple[Callable[[ir.Model], int], ...] = (restore_unfused_rotary,)
"""What puts back an intermediate op no later step completed (onnxruntime cannot run
the private domain's ops)."""


def fuse_xformers(model: ir.Model, debug: bool = False) -> tuple[ir.Model, dict[str, int]]:
    """Apply the transformer fusions (:data:`STEPS`) to ``model``, in place, after
    optimizing it (constant folding, the default rewrite rules, the shape slices of
    :mod:`.shape_optimization`). ``debug``: each step that fused nothing prints why its
    rules did not match. Returns the model and the count of each fusion."""
    _pre_optimize(model)
    counts = {name: fuse(model, debug=debug) for name, fuse in STEPS}
    for restore in RESTORES:
        restore(model)
    common.RemoveUnusedNodesPass()(model)
    return model, counts


def optimize_for_ort(
    model: ir.Model,
    config_name: str | None = None,
    *,
    debug: bool = False,
    clear_metadata: bool = False,
) -> tuple[ir.Model, dict[str, int]]:
    """Fuse ``model``'s transformer subgraphs into onnxruntime's contrib ops, in place.

    ``config_name``: the execution provider to optimize for; None (the default) is the
    CPU, whose kernels every fusion's result has. ``"cuda"`` or ``"rocm"`` (or their
    ``...ExecutionProvider`` names) also make group normalizations GroupNorm, which only
    those providers run. ``debug``: each step that fused nothing prints why its rules did
    not match. ``clear_metadata``: metadata and doc strings are removed from the result.
    Returns the model and the count of each fusion."""
    model, counts = fuse_xformers(model, debug=debug)
    for name, fuse in ORT_STEPS:
        counts[name] = fuse(model, debug=debug)
    if instance_to_group_normalization.runs_group_norm(config_name):
        apply_rules(instance_to_group_normalization.rules, model, debug=debug)
    _optimize(model)
    common.DeduplicateInitializersPass()(model)
    common.RemoveUnusedNodesPass()(model)
    common.RemoveUnusedOpsetsPass()(model)
    if clear_metadata:
        common.ClearMetadataAndDocStringPass()(model)
    return model, counts


def _pre_optimize(model: ir.Model) -> None:
    """:func:`_optimize`, then the shape slices of attention read from the dims they were
    made of."""
    _optimize(model)
    shape_optimization.rules.apply_to_model(model)


def _optimize(model: ir.Model) -> None:
    """What ``onnxscript.optimizer.optimize`` does (the optimizer itself sits above the
    rewriter, so its passes are composed here)."""
    optimization_sequence(RewritePass(default_rule_set()))(model)


__all__ = ["ORT_PATTERN_REWRITE_RULES", "ORT_STEPS", "STEPS", "fuse_xformers", "optimize_for_ort"]
