"""0.7.2's import path ``onnxscript.rewriter.rules.common._fuse_batchnorm``: BatchNormalization folded into Conv, ConvTranspose, Gemm."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.batchnorm_fusion import (
    FuseBatchNormIntoConv,
    FuseBatchNormIntoConvTranspose,
    FuseBatchNormIntoGemm,
    fuse_batchnorm_into_conv_rule,
    fuse_batchnorm_into_conv_transpose_rule,
    fuse_batchnorm_into_gemm_rule,
)

rules = RewriteRuleSet(
    [
        fuse_batchnorm_into_conv_rule,
        fuse_batchnorm_into_conv_transpose_rule,
        fuse_batchnorm_into_gemm_rule,
    ]
)

__all__ = [
    "FuseBatchNormIntoConv",
    "FuseBatchNormIntoConvTranspose",
    "FuseBatchNormIntoGemm",
    "fuse_batchnorm_into_conv_rule",
    "fuse_batchnorm_into_conv_transpose_rule",
    "fuse_batchnorm_into_gemm_rule",
    "rules",
]
