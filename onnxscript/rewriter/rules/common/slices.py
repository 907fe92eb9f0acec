"""Slices that take all of their input become an Identity.

``collapse_slice_rule``: constant starts, ends, axes and steps that select every element
(start 0, step 1, end past the dim: a known size, or ``INT64_MAX`` for a symbolic dim).
``collapse_slice2_rule``: a Slice with constant bounds and positive steps whose output
shape is known to equal its input's (sizes, or the same symbolic names)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.value_facts import (
    INT64_MAX,
    Dim,
    constant_ints,
    dims,
    same_dims,
)
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult

_Bounds = tuple[list[int], list[int], list[int], list[int]]


def slice_bounds(node: ir.Node, rank: int) -> _Bounds | None:
    """(starts, ends, axes in 0..rank-1, steps) of a Slice whose inputs are constants
    (axes and steps may be omitted), else None."""
    inputs = [*node.inputs, None, None][:5]
    starts, ends = constant_ints(inputs[1]), constant_ints(inputs[2])
    if starts is None or ends is None or len(starts) != len(ends):
        return None
    axes = list(range(len(starts))) if inputs[3] is None else constant_ints(inputs[3])
    steps = [1] * len(starts) if inputs[4] is None else constant_ints(inputs[4])
    if axes is None or steps is None or not len(axes) == len(steps) == len(starts):
        return None
    if any(not -rank <= a < rank for a in axes):
        return None
    axes = [a % rank for a in axes]
    if len(set(axes)) != len(axes):
        return None
    return starts, ends, axes, steps


def _takes_all(start: int, end: int, step: int, dim: Dim) -> bool:
    if step != 1:
        return False
    from_start = start == 0 or (isinstance(dim, int) and start <= -dim)
    to_end = end >= INT64_MAX or (isinstance(dim, int) and end >= dim)
    return from_start and to_end


class CollapseSlice(RewriteRuleClassBase):
    """``Slice(x, ...)`` selecting every element -> ``Identity(x)``."""

    def pattern(self, op: Any, x: Any, starts: Any, ends: Any) -> Any:
        return op.Slice(x, starts, ends, _allow_other_inputs=True)

    def check(self, context: Any, x: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        x_dims = dims(x)
        bounds = slice_bounds(context.root, len(x_dims)) if x_dims is not None else None
        if x_dims is None or bounds is None:
            return result.fail("the rank of x and the Slice's inputs must be constants", x)
        for start, end, axis, step in zip(*bounds):
            if not _takes_all(start, end, step, x_dims[axis]):
                return result.fail(f"the Slice does not take all of axis {axis}", context.root)
        return result

    def rewrite(self, op: Any, x: Any, **_: Any) -> Any:
        return op.Identity(x)


class CollapseSliceToShape(RewriteRuleClassBase):
    """``Slice(x, ...)`` with positive steps whose output shape equals x's -> ``Identity``."""

    def pattern(self, op: Any, x: Any, starts: Any, ends: Any) -> Any:
        return op.Slice(x, starts, ends, _allow_other_inputs=True)

    def check(self, context: Any, x: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        x_dims, out_dims = dims(x), dims(context.root.outputs[0])
        if x_dims is None or out_dims is None or not same_dims(x_dims, out_dims):
            return result.fail("the output shape is not known to equal the input's", x)
        bounds = slice_bounds(context.root, len(x_dims))
        if bounds is None or any(step <= 0 for step in bounds[3]):
            return result.fail("the Slice needs constant bounds and positive steps", x)
        return result

    def rewrite(self, op: Any, x: Any, **_: Any) -> Any:
        return op.Identity(x)


collapse_slice_rule = CollapseSlice.rule()
collapse_slice2_rule = CollapseSliceToShape.rule()

__all__ = [
    "CollapseSlice",
    "CollapseSliceToShape",
    "collapse_slice2_rule",
    "collapse_slice_rule",
    "slice_bounds",
]
