"""Two Slices of one input that together cover one of its axes (``x[..., :m]`` and
``x[..., m:]``) become one Split (opset 13 on: split sizes given as an input). The axis
must have a known size; the Slices' bounds must be constants with step 1."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import dims
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.rules.common.slices import slice_bounds

_Part = tuple[int, int, int]
"""(axis, first index, end index) of a one-axis slice, clamped to the axis."""


def _part(node: ir.Node, x_dims: list[Any]) -> _Part | None:
    bounds = slice_bounds(node, len(x_dims))
    if bounds is None or len(bounds[0]) != 1 or bounds[3] != [1]:
        return None
    (start,), (end,), (axis,), _ = bounds
    size = x_dims[axis]
    if not isinstance(size, int):
        return None
    start = min(max(start + size if start < 0 else start, 0), size)
    end = min(max(end + size if end < 0 else end, 0), size)
    return axis, start, end


def _parts(x: ir.Value, first: ir.Value, second: ir.Value) -> tuple[_Part, _Part] | None:
    """The two parts, when they split one axis of known size in two non-empty pieces."""
    x_dims = dims(x)
    a_node, b_node = first.producer(), second.producer()
    if x_dims is None or a_node is None or b_node is None:
        return None
    a, b = _part(a_node, x_dims), _part(b_node, x_dims)
    if a is None or b is None or a[0] != b[0]:
        return None
    low, high = sorted([a, b], key=lambda p: p[1])
    size = x_dims[a[0]]
    if low[1] != 0 or low[2] != high[1] or high[2] != size or not 0 < low[2] < size:
        return None
    return a, b


class SlicesSplit(RewriteRuleClassBase):
    """``Slice(x, 0, m, axis)``, ``Slice(x, m, end, axis)`` -> ``Split(x, [m, n - m])``."""

    def pattern(self, op: Any, x: Any, s0: Any, e0: Any, s1: Any, e1: Any) -> Any:
        first = op.Slice(x, s0, e0, _allow_other_inputs=True, _outputs=["first"])
        second = op.Slice(x, s1, e1, _allow_other_inputs=True, _outputs=["second"])
        return first, second

    def check(self, context: Any, x: Any, first: Any, second: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        if (context.model.opset_imports.get("") or 0) < 13:
            return result.fail("Split takes its sizes as an input from opset 13 on")
        if _parts(x, first, second) is None:
            return result.fail("the Slices do not split one axis of known size in two", x)
        return result

    def rewrite(self, op: Any, x: Any, first: Any, second: Any, **_: Any) -> Any:
        parts = _parts(x, first, second)
        assert parts is not None
        a, b = parts
        low, high = sorted([a, b], key=lambda p: p[1])
        sizes = np.array([low[2] - low[1], high[2] - high[1]], dtype=np.int64)
        pieces = op.Split(x, op.Constant(value=ir.tensor(sizes)), axis=a[0], _outputs=2)
        return pieces if a[1] == 0 else (pieces[1], pieces[0])


slice_split_rule = SlicesSplit.rule()

__all__ = ["SlicesSplit", "slice_split_rule"]
