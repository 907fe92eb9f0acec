"""0.7.2's import path ``onnxscript.rewriter.rules.common._fuse_relus_clips``: chains of Relu and Clip made one."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.relu_clip import (
    FuseSuccessiveClip,
    FuseSuccessiveClipRelu,
    FuseSuccessiveRelu,
    FuseSuccessiveReluClip,
    successive_clip_relu_rule,
    successive_clip_rule,
    successive_relu_clip_rule,
    successive_relu_rule,
)

rules = RewriteRuleSet(
    [
        successive_clip_relu_rule,
        successive_relu_clip_rule,
        successive_relu_rule,
        successive_clip_rule,
    ]
)

__all__ = [
    "FuseSuccessiveClip",
    "FuseSuccessiveClipRelu",
    "FuseSuccessiveRelu",
    "FuseSuccessiveReluClip",
    "rules",
    "successive_clip_relu_rule",
    "successive_clip_rule",
    "successive_relu_clip_rule",
    "successive_relu_rule",
]
