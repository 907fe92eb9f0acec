"""``Flatten(x, axis)`` -> ``Reshape(x, [d0, d1])`` with a constant shape: each part a
number when ``x``'s dims there are known, ``0`` for a leading part that is ``x``'s first
dim, ``-1`` for one unknown part. Needs ``x``'s rank unless ``axis`` is 0."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext


def flattened_shape(dims: Sequence[object] | None, axis: int) -> list[int] | None:
    """The Reshape target doing ``Flatten(axis)`` on a tensor of ``dims`` (None: rank
    unknown), or None when it cannot be written. A ``0`` (copy) and a ``-1`` are never
    both used: onnxruntime cannot infer the ``-1`` when the copied dim is 0 at run time,
    where Flatten works."""
    if dims is None:
        return [1, -1] if axis == 0 else None
    if not -len(dims) <= axis <= len(dims):
        return None
    if axis < 0:
        axis += len(dims)
    head, tail = _part(dims[:axis]), _part(dims[axis:])
    if tail == 0 or (head == 0 and (axis != 1 or tail is None)):
        return None  # a 0 would copy another dim of x, or sit beside a -1
    if head is None and tail is None:
        return None
    if head is None and axis == 1:
        return [0, tail]  # type: ignore[list-item]
    return [-1 if head is None else head, -1 if tail is None else tail]


def _part(dims: Sequence[object]) -> int | None:
    if all(isinstance(d, int) for d in dims):
        return math.prod(dims)  # type: ignore[arg-type]
    return None


class Flatten2Reshape(RewriteRuleClassBase):
    def __init__(self) -> None:
        super().__init__()
        self._shape: list[int] = []

    def pattern(self, op: Any, x: Any) -> Any:
        return op.Flatten(x)

    def check(self, context: MatchContext, x: ir.Value) -> MatchResult:
        result = MatchResult()
        axis = context.root.attributes.get_int("axis", 1)
        dims = value_facts.dims(x)
        shape = flattened_shape(dims, axis)
        if shape is None:
            return result.fail("x's dims do not tell the flattened shape", x)
        self._shape = shape
        return result

    def rewrite(self, op: RewriterContext, x: ir.Value) -> ir.Value:
        value: ir.Value = op.Reshape(x, np.array(self._shape, np.int64))
        return value


flatten_to_reshape_rule = Flatten2Reshape.rule()

__all__ = ["Flatten2Reshape", "flatten_to_reshape_rule", "flattened_shape"]
