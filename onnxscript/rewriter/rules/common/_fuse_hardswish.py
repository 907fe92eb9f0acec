"""0.7.2's import path ``onnxscript.rewriter.rules.common._fuse_hardswish``: HardSigmoid
and HardSwish from their decompositions."""

from __future__ import annotations

from onnxscript.ir_utils.value_facts import is_singleton as is_singleton_value
from onnxscript.rewriter.rules.common.hard_swish import (
    HardSigmoidFusion,
    HardSwishFusion,
    HardSwishFusionFromHardSigmoid,
    fuse_hardswish_rules,
)

__all__ = [
    "HardSigmoidFusion",
    "HardSwishFusion",
    "HardSwishFusionFromHardSigmoid",
    "fuse_hardswish_rules",
    "is_singleton_value",
]
