"""0.7.2's import path ``onnxscript.rewriter.rules.common._remove_expand_before_binary_op``:
an Expand the binary op's own broadcasting makes unnecessary."""

from __future__ import annotations

from onnxscript.rewriter._ir_utils import get_numpy_value
from onnxscript.rewriter.rules.common.expand_before_binary_op import (
    expand_before_binary_op_rules,
)

__all__ = ["expand_before_binary_op_rules", "get_numpy_value"]
