"""0.7.2's import path ``onnxscript.rewriter.rules.fusion._gqa``: grouped-query Attention (opset 23) without repeated keys and values."""

from __future__ import annotations

from onnxscript.rewriter.rules.fusion.attention import OnnxGroupQueryAttention, fuse_gqa
from onnxscript.rewriter.rules.fusion.attention import gqa_ruleset as gqa_rules

__all__ = [
    "OnnxGroupQueryAttention",
    "fuse_gqa",
    "gqa_rules",
]
