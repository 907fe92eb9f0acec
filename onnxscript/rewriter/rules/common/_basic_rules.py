"""0.7.2's import path ``onnxscript.rewriter.rules.common._basic_rules``: the basic rules (casts, reshapes, transposes, ...)."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.cast import (
    CastCast,
    CastIdentity,
    cast_cast_rule,
    no_op_cast_rule,
)
from onnxscript.rewriter.rules.common.flatten_to_reshape import (
    Flatten2Reshape,
    flatten_to_reshape_rule,
)
from onnxscript.rewriter.rules.common.no_op_expand import (
    ExpandIdentity,
    no_op_expand_rule,
)
from onnxscript.rewriter.rules.common.reshape_reshape import (
    ReshapeReshape,
    reshape_reshape_rule,
)
from onnxscript.rewriter.rules.common.slice_split import (
    SlicesSplit,
    slice_split_rule,
)
from onnxscript.rewriter.rules.common.squeeze_reshape import (
    SqueezeReshape,
    squeeze_reshape_1d_rule,
)
from onnxscript.rewriter.rules.common.transpose import (
    TransposeIdentity,
    TransposeTranspose,
    no_op_transpose_rule,
    transpose_transpose_rule,
)
from onnxscript.rewriter.rules.common.unsqueeze_unsqueeze import (
    UnsqueezeUnsqueeze,
    unsqueeze_unsqueeze_rule,
)


def basic_optimization_rules() -> RewriteRuleSet:
    """These rules as one set, in 0.7.2's order."""
    return RewriteRuleSet(
        [
            cast_cast_rule,
            no_op_cast_rule,
            no_op_expand_rule,
            flatten_to_reshape_rule,
            reshape_reshape_rule,
            slice_split_rule,
            no_op_transpose_rule,
            transpose_transpose_rule,
            unsqueeze_unsqueeze_rule,
            squeeze_reshape_1d_rule,
        ]
    )


__all__ = [
    "CastCast",
    "CastIdentity",
    "ExpandIdentity",
    "Flatten2Reshape",
    "ReshapeReshape",
    "SlicesSplit",
    "SqueezeReshape",
    "TransposeIdentity",
    "TransposeTranspose",
    "UnsqueezeUnsqueeze",
    "basic_optimization_rules",
    "cast_cast_rule",
    "flatten_to_reshape_rule",
    "no_op_cast_rule",
    "no_op_expand_rule",
    "no_op_transpose_rule",
    "reshape_reshape_rule",
    "slice_split_rule",
    "squeeze_reshape_1d_rule",
    "transpose_transpose_rule",
    "unsqueeze_unsqueeze_rule",
]
