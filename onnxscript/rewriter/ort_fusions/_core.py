"""0.7's module of ``optimize_for_ort`` and ``fuse_xformers`` (and the ``fuse_*``
functions it imported); they live in :mod:`.pipeline` and the fusion modules."""

from __future__ import annotations

from onnxscript.rewriter.ort_fusions.attention import fuse_attention
from onnxscript.rewriter.ort_fusions.bias_gelu import fuse_bias_gelu
from onnxscript.rewriter.ort_fusions.cos_sin_cache import fuse_cos_sin_cache
from onnxscript.rewriter.ort_fusions.erfgelu import fuse_erfgelu
from onnxscript.rewriter.ort_fusions.fused_matmul_rule_sets import fused_matmul_rule_sets
from onnxscript.rewriter.ort_fusions.gelu import fuse_gelu
from onnxscript.rewriter.ort_fusions.gqa import fuse_gqa
from onnxscript.rewriter.ort_fusions.gqa_packed_qkv import fuse_qkv_gqa
from onnxscript.rewriter.ort_fusions.mha import fuse_mha1, fuse_mha2
from onnxscript.rewriter.ort_fusions.mha_bias import fuse_mha_bias
from onnxscript.rewriter.ort_fusions.mha_scale import fuse_mha_scale
from onnxscript.rewriter.ort_fusions.pipeline import (
    ORT_PATTERN_REWRITE_RULES,
    fuse_xformers,
    optimize_for_ort,
)
from onnxscript.rewriter.ort_fusions.rms_normalization import fuse_rms_normalization
from onnxscript.rewriter.ort_fusions.rotary_embedding import (
    fuse_partial_rotary_embedding,
    fuse_rotary_embedding,
)
from onnxscript.rewriter.ort_fusions.sdpa import fuse_sdpa
from onnxscript.rewriter.ort_fusions.sdpa_via_mha import replace_sdpa_by_mha
from onnxscript.rewriter.ort_fusions.skip_normalization import (
    fuse_skip_layer_normalization,
    fuse_skip_rms_normalization,
)

__all__ = [
    "ORT_PATTERN_REWRITE_RULES",
    "fuse_attention",
    "fuse_bias_gelu",
    "fuse_cos_sin_cache",
    "fuse_erfgelu",
    "fuse_gelu",
    "fuse_gqa",
    "fuse_mha1",
    "fuse_mha2",
    "fuse_mha_bias",
    "fuse_mha_scale",
    "fuse_partial_rotary_embedding",
    "fuse_qkv_gqa",
    "fuse_rms_normalization",
    "fuse_rotary_embedding",
    "fuse_sdpa",
    "fuse_skip_layer_normalization",
    "fuse_skip_rms_normalization",
    "fuse_xformers",
    "fused_matmul_rule_sets",
    "optimize_for_ort",
    "replace_sdpa_by_mha",
]
