"""0.7.2's import path ``onnxscript.rewriter.rules.common._cast_constant_of_shape``: a Cast of a ConstantOfShape made at the target type."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.cast_constant_of_shape import (
    cast_constant_of_shape,
    cast_constant_of_shape_rule,
    cast_constant_of_shape_without_value,
    cast_constant_of_shape_without_value_rule,
    fused_cast_constant_of_shape,
    fused_cast_constant_of_shape_without_value,
)

rules = RewriteRuleSet([cast_constant_of_shape_rule, cast_constant_of_shape_without_value_rule])

__all__ = [
    "cast_constant_of_shape",
    "cast_constant_of_shape_rule",
    "cast_constant_of_shape_without_value",
    "cast_constant_of_shape_without_value_rule",
    "fused_cast_constant_of_shape",
    "fused_cast_constant_of_shape_without_value",
    "rules",
]
