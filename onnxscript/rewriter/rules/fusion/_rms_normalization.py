"""0.7.2's import path ``onnxscript.rewriter.rules.fusion._rms_normalization``: RMSNormalization from its decomposition."""

from __future__ import annotations

from onnxscript.rewriter.rules.fusion.rms_normalization import (
    RmsNormFusion,
    fuse_rms_normalization,
    rms_normalization_ruleset,
)

__all__ = [
    "RmsNormFusion",
    "fuse_rms_normalization",
    "rms_normalization_ruleset",
]
