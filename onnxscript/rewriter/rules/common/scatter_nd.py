"""A ScatterND writing every row of its data (indices 0..n-1 along axis 0, each once, no
reduction) returns its updates: ``ScatterND(data, indices, updates)`` -> ``updates``.

``no_op_static_scatter_nd_rule``: constant indices equal to ``[[0], [1], ..., [n-1]]``
with n the known size of the data's first dim. ``no_op_dynamic_scatter_nd_rule``: indices
computed as ``Unsqueeze(Range(0, Gather(Shape(data), 0), 1), [1] or [-1])``, correct for a
symbolic first dim."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxscript.ir_utils.value_facts import (
    Dim,
    attr_int,
    attr_str,
    constant_array,
    constant_ints,
    dim,
    dims,
    same_dim,
)
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult


def _no_reduction(node: Any) -> bool:
    return attr_str(node, "reduction", "none") == "none"


class ScatterAllStatic(RewriteRuleClassBase):
    """``ScatterND(data, [[0], ..., [n-1]], updates)`` -> ``Identity(updates)``."""

    def pattern(self, op: Any, data: Any, indices: Any, updates: Any) -> Any:
        return op.ScatterND(data, indices, updates)

    def check(self, context: Any, data: Any, indices: Any, updates: Any) -> MatchResult:
        result = MatchResult()
        data_dims, updates_dims = dims(data), dims(updates)
        if data_dims is not None and updates_dims is not None and _differ(data_dims, updates_dims):
            return result.fail("data and updates have different shapes", [data, updates])
        array = constant_array(indices, max_size=None)
        if array is None or data_dims is None or not data_dims:
            return result.fail("the indices must be a constant and data's rank known", indices)
        rows = data_dims[0]
        expected = np.arange(rows).reshape(-1, 1) if isinstance(rows, int) else None
        if expected is None or array.shape != expected.shape or not (array == expected).all():
            return result.fail("the indices do not list each row of data once, in order")
        if not _no_reduction(context.root):
            return result.fail("the ScatterND reduces", context.root)
        return result

    def rewrite(self, op: Any, updates: Any, **_: Any) -> Any:
        return op.Identity(updates)


def _differ(a: list[Dim], b: list[Dim]) -> bool:
    """Whether two shapes surely differ (ranks, or two known sizes)."""
    if len(a) != len(b):
        return True
    return any(isinstance(x, int) and isinstance(y, int) and x != y for x, y in zip(a, b))


class ScatterAllDynamic(RewriteRuleClassBase):
    """``ScatterND(data, Unsqueeze(Range(0, n, 1), -1), updates)`` -> ``Identity(updates)``
    where ``n = Shape(source)[i]`` is known to be data's first dim: ``source`` is ``data``
    and ``i`` 0, or that dim of ``source`` is data's first dim (the same size, or the
    same symbolic name)."""

    def pattern(
        self,
        op: Any,
        data: Any,
        updates: Any,
        source: Any,
        index: Any,
        start: Any,
        delta: Any,
        axes: Any,
    ) -> Any:
        rows = op.Gather(op.Shape(source, _outputs=["shape"]), index, _outputs=["rows"])
        indices = op.Unsqueeze(op.Range(start, rows, delta), axes)
        return op.ScatterND(data, indices, updates)

    def check(
        self,
        context: Any,
        data: Any,
        source: Any,
        shape: Any,
        rows: Any,
        index: Any,
        start: Any,
        delta: Any,
        axes: Any,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        scalar = constant_array(index)
        if scalar is None or scalar.shape != ():
            return result.fail("the Gather must take a constant scalar index", index)
        if constant_ints(start) != [0] or constant_ints(delta) != [1]:
            return result.fail("the Range must count from 0 by 1", [start, delta])
        if constant_ints(axes) not in ([1], [-1]):
            return result.fail("the Unsqueeze must add the last axis", axes)
        producer, gather = shape.producer(), rows.producer()
        first = attr_int(producer, "start", 0) if producer is not None else -1
        axis = first + int(scalar)
        if first < 0 or int(scalar) < 0:
            return result.fail("the Shape's start and the index must count from dim 0", shape)
        if source is data:
            if axis != 0:
                return result.fail("the Gather must take data's dim 0", index)
        elif not same_dim(dim(source, axis), dim(data, 0)):
            return result.fail("the range's end is not known to be data's first dim", rows)
        if gather is None or attr_int(gather, "axis", 0) != 0:
            return result.fail("the Gather must take from axis 0", rows)
        if not _no_reduction(context.root):
            return result.fail("the ScatterND reduces", context.root)
        return result

    def rewrite(self, op: Any, updates: Any, **_: Any) -> Any:
        return op.Identity(updates)


no_op_static_scatter_nd_rule = ScatterAllStatic.rule()
no_op_dynamic_scatter_nd_rule = ScatterAllDynamic.rule()

__all__ = [
    "ScatterAllDynamic",
    "ScatterAllStatic",
    "no_op_dynamic_scatter_nd_rule",
    "no_op_static_scatter_nd_rule",
]
