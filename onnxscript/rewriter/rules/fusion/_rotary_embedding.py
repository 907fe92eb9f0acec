"""0.7.2's import path ``onnxscript.rewriter.rules.fusion._rotary_embedding``: RotaryEmbedding (opset 23), full and partial."""

from __future__ import annotations

from onnxscript.ir_utils.value_facts import INT64_MAX as MAX_INT64
from onnxscript.rewriter.rules.fusion.rotary_embedding import (
    PartialRotaryEmbedding23Fusion,
    RotaryEmbedding23Fusion,
    fuse_partial_rotary_embedding,
    fuse_rotary_embedding,
)
from onnxscript.rewriter.rules.fusion.rotary_embedding import (
    partial_embedding_ruleset as partial_embedding_rules,
)
from onnxscript.rewriter.rules.fusion.rotary_embedding import (
    rotary_embedding_ruleset as rotary_embedding_rules,
)

__all__ = [
    "MAX_INT64",
    "PartialRotaryEmbedding23Fusion",
    "RotaryEmbedding23Fusion",
    "fuse_partial_rotary_embedding",
    "fuse_rotary_embedding",
    "partial_embedding_rules",
    "rotary_embedding_rules",
]
