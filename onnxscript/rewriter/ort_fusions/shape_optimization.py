"""Optimization for shape operations: a slice of the shape of a head split
(``Slice(Shape(Transpose(Reshape(x, Concat(d0, d1, d2, d3), allowzero=1), [0, 2, 1,
3])), start, end)``, as attention reads the batch or sequence size back) is the
corresponding dims themselves (``d0``, ``d2``, ``d1``, ``d3``): an Identity of one, a
Concat of several. With ``allowzero=0`` a 0 in the dims would copy ``x``'s dim, so the
rule needs ``allowzero=1``."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.rewriter.pattern import MatchResult, RewriteRuleClassBase, RewriteRuleSet
from onnxscript.rewriter.rules.fusion import facts

_PERM = (0, 2, 1, 3)


class ExtractDim(RewriteRuleClassBase):
    """The slice of the shape to the dims it reads (see the module)."""

    def __init__(self) -> None:
        super().__init__("ExtractDim")

    def pattern(
        self, op: Any, x: Any, dim0: Any, dim1: Any, dim2: Any, dim3: Any, start: Any, end: Any
    ) -> Any:
        shape = op.Concat(dim0, dim1, dim2, dim3, axis=0)
        reshaped = op.Reshape(x, shape, allowzero=1)
        transposed = op.Transpose(reshaped, perm=list(_PERM))
        final_shape = op.Shape(transposed, _outputs=["final_shape"])
        return op.Slice(final_shape, start, end)

    def check(
        self,
        context: Any,
        dim0: ir.Value,
        dim1: ir.Value,
        dim2: ir.Value,
        dim3: ir.Value,
        final_shape: ir.Value,
        start: ir.Value,
        end: ir.Value,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        for dim in (dim0, dim1, dim2, dim3):
            if dim.shape is None or dim.shape.dims != (1,):
                return result.fail("a dim of the Concat is not a 1-element vector", dim)
        shape_node = final_shape.producer()
        assert shape_node is not None
        if "start" in shape_node.attributes or "end" in shape_node.attributes:
            return result.fail("the Shape reads part of the dims", final_shape)
        if _bounds(start, end) is None:
            return result.fail("the slice's start and end are not constant scalars", [start, end])
        return result

    def rewrite(
        self,
        op: Any,
        dim0: ir.Value,
        dim1: ir.Value,
        dim2: ir.Value,
        dim3: ir.Value,
        start: ir.Value,
        end: ir.Value,
        **_: Any,
    ) -> Any:
        bounds = _bounds(start, end)
        assert bounds is not None
        dims = [dim0, dim1, dim2, dim3]
        picked = [dims[p] for p in _PERM][bounds[0] : bounds[1]]
        if not picked:
            return op.Constant(value=ir.tensor(np.zeros((0,), dtype=np.int64)))
        if len(picked) == 1:
            return op.Identity(picked[0])
        return op.Concat(*picked, axis=0)


def _bounds(start: ir.Value, end: ir.Value) -> tuple[int, int] | None:
    """The slice's ``start`` and ``end`` (one integer each), or None."""
    starts, ends = facts.constant_ints(start), facts.constant_ints(end)
    if starts is None or ends is None or len(starts) != 1 or len(ends) != 1:
        return None
    return starts[0], ends[0]


rules = RewriteRuleSet([ExtractDim.rule()])

__all__ = ["ExtractDim", "rules"]
