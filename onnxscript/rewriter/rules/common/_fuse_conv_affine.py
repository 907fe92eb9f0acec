"""0.7.2's import path ``onnxscript.rewriter.rules.common._fuse_conv_affine``: scalar affine maps folded into a Conv."""

from __future__ import annotations

from onnxscript.ir_utils.value_facts import constant_tensor as get_const_value
from onnxscript.ir_utils.value_facts import singleton as get_singleton_value
from onnxscript.rewriter.rules.common.conv_affine import (
    AffineConvFusion,
    ConvAffineFusion,
    affine_conv_fusion_rule,
    conv_affine_fusion_rule,
)

__all__ = [
    "AffineConvFusion",
    "ConvAffineFusion",
    "affine_conv_fusion_rule",
    "conv_affine_fusion_rule",
    "get_const_value",
    "get_singleton_value",
]
