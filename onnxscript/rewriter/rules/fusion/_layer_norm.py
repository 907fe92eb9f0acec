"""0.7.2's import path ``onnxscript.rewriter.rules.fusion._layer_norm``: LayerNormalization
from its decomposition."""

from __future__ import annotations

from onnxscript.ir_utils.value_facts import FLOAT_TYPES as LAYER_NORM_INPUT_TYPES
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.fusion.layer_normalization import (
    LayerNormBiasFusion,
    LayerNormFusion,
    fuse_layer_normalization,
    layer_normalization_rules,
)
from onnxscript.rewriter.rules.fusion.normalization_parts import (
    STASH_TYPES as LAYER_NORM_COMPUTE_TYPES,
)

layer_normalization_ruleset = RewriteRuleSet(layer_normalization_rules, commute=True)

__all__ = [
    "LAYER_NORM_COMPUTE_TYPES",
    "LAYER_NORM_INPUT_TYPES",
    "LayerNormBiasFusion",
    "LayerNormFusion",
    "fuse_layer_normalization",
    "layer_normalization_ruleset",
]
