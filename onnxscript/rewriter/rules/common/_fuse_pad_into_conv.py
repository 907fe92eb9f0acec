"""0.7.2's import path ``onnxscript.rewriter.rules.common._fuse_pad_into_conv``: Conv padding made explicit, Pad folded into Conv."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.conv_pad import (
    FuseConvIntegerPad,
    FuseConvPad,
    NormalizePadFormatConv,
    NormalizePadFormatConvInteger,
    fill_pads_with_axes,
    fuse_pad_into_conv_integer_rule,
    fuse_pad_into_conv_rule,
    normalize_pad_format_conv_integer_rule,
    normalize_pad_format_conv_rule,
    read_conv_attributes,
)

rules = RewriteRuleSet(
    [
        normalize_pad_format_conv_rule,
        normalize_pad_format_conv_integer_rule,
        fuse_pad_into_conv_rule,
        fuse_pad_into_conv_integer_rule,
    ]
)

__all__ = [
    "FuseConvIntegerPad",
    "FuseConvPad",
    "NormalizePadFormatConv",
    "NormalizePadFormatConvInteger",
    "fill_pads_with_axes",
    "fuse_pad_into_conv_integer_rule",
    "fuse_pad_into_conv_rule",
    "normalize_pad_format_conv_integer_rule",
    "normalize_pad_format_conv_rule",
    "read_conv_attributes",
    "rules",
]
