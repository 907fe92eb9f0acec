"""0.7.2's import path ``onnxscript.rewriter.rules.common._materialize_reshape_shape``: a Reshape's shape made a constant when known."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.materialize_reshape_shape import (
    MaterializeReshapeShape,
    materialize_reshape_shape_rule,
)

rules = RewriteRuleSet([materialize_reshape_shape_rule])

__all__ = [
    "MaterializeReshapeShape",
    "materialize_reshape_shape_rule",
    "rules",
]
