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

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.pattern import MatchResult, RewriteRuleClassBase, RewriteRuleSet

_PERM = (0, 2, 1, 3)


class ExtractDim(RewriteRuleClassBase):
    """The slice of the shape to the dims it reads (see the module)."""

    def __init__(self) -> None:
        super().__init__("ExtractDim")

    def pattern(self, op: Any, transposed: Any, start: Any, end: Any) -> Any:
        # Only the Shape and the Slice are matched (and replaced): the head split is
        # what attention reads, and is read by _dims.
        final_shape = op.Shape(transposed, _outputs=["final_shape"])
        return op.Slice(final_shape, start, end)

    def check(
        self,
        context: Any,
        transposed: ir.Value,
        final_shape: ir.Value,
        start: ir.Value,
        end: ir.Value,
        **_: Any,
    ) -> MatchResult:
        result = MatchResult()
        if _dims(transposed) is None:
            return result.fail(
                "not the shape of Transpose(Reshape(x, Concat(d0, d1, d2, d3), "
                "allowzero=1), [0, 2, 1, 3]) with 1-element dims",
                transposed,
            )
        shape_node = final_shape.producer()
        assert shape_node is not None
        if "start" in shape_node.attributes or "end" in shape_node.attributes:
            return result.fail("the Shape reads part of the dims", final_shape)
        if _bounds(start, end) is None:
            return result.fail("the slice's start and end are not constant scalars", [start, end])
        return result

    def rewrite(
        self, op: Any, transposed: ir.Value, start: ir.Value, end: ir.Value, **_: Any
    ) -> Any:
        bounds, dims = _bounds(start, end), _dims(transposed)
        assert bounds is not None and dims is not None
        picked = [dims[p] for p in _PERM][bounds[0] : bounds[1]]
        if not picked:
            return op.Constant(value=ir.tensor(np.zeros((0,), dtype=np.int64)))
        if len(picked) == 1:
            return op.Identity(picked[0])
        return op.Concat(*picked, axis=0)


def _dims(transposed: ir.Value) -> list[ir.Value] | None:
    """``[d0, d1, d2, d3]`` when ``transposed = Transpose(Reshape(x, Concat(d0, d1, d2,
    d3), allowzero=1), [0, 2, 1, 3])`` with 1-element dims; None otherwise."""
    node = transposed.producer()
    if node is None or node.op_type != "Transpose" or node.inputs[0] is None:
        return None
    if tuple(node.attributes.get_ints("perm", [])) != _PERM:
        return None
    reshape = node.inputs[0].producer()
    if reshape is None or reshape.op_type != "Reshape" or len(reshape.inputs) != 2:
        return None
    if reshape.attributes.get_int("allowzero", 0) != 1 or reshape.inputs[1] is None:
        return None
    concat = reshape.inputs[1].producer()
    if concat is None or concat.op_type != "Concat" or len(concat.inputs) != 4:
        return None
    if concat.attributes.get_int("axis", 0) != 0:
        return None
    dims = list(concat.inputs)
    for dim in dims:
        if value_facts.static_dims(dim) != [1]:
            return None
    return [d for d in dims if d is not None]


def _bounds(start: ir.Value, end: ir.Value) -> tuple[int, int] | None:
    """The slice's ``start`` and ``end`` (one integer each), or None."""
    starts, ends = value_facts.constant_ints(start), value_facts.constant_ints(end)
    if starts is None or ends is None or len(starts) != 1 or len(ends) != 1:
        return None
    return starts[0], ends[0]


rules = RewriteRuleSet([ExtractDim.rule()])

__all__ = ["ExtractDim", "rules"]
