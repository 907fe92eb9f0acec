"""Deprecated: kept for code written for onnxscript 0.7 and earlier. ``rewrite(model,
pattern_rules=None)`` applies rewrite rules for onnxruntime (by default
:data:`ORT_PATTERN_REWRITE_RULES`: the float16 Softmax and FusedMatMul rules); use
:func:`onnxscript.rewriter.ort_fusions.optimize_for_ort` instead."""

from __future__ import annotations

from collections.abc import Sequence

from onnxscript.ir_utils.model_kinds import ModelT
from onnxscript.rewriter.ort_fusions.pipeline import ORT_PATTERN_REWRITE_RULES
from onnxscript.rewriter.pattern import RewriteRule
from onnxscript.rewriter.rewrite import rewrite as _rewrite


def rewrite(model_proto: ModelT, /, pattern_rules: Sequence[RewriteRule] | None = None) -> ModelT:
    """Rewrite ``model_proto`` (a ``ModelProto``, or an ``ir.Model`` changed in place) with
    ``pattern_rules`` only (no other optimization); empty or None: the default rules for
    onnxruntime (:data:`ORT_PATTERN_REWRITE_RULES`). Returns the rewritten model, of the
    kind given."""
    rules = list(pattern_rules) if pattern_rules else list(ORT_PATTERN_REWRITE_RULES)
    return _rewrite(model_proto, pattern_rewrite_rules=rules)


__all__ = ["ORT_PATTERN_REWRITE_RULES", "rewrite"]
