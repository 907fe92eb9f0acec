"""A Reshape whose result's shape is known gets it as a constant: ``x`` itself when it
is ``x``'s shape (symbolic dims compared by name), else numbers for the known dims and
``-1`` for one symbolic dim (``allowzero=1``: the numbers are taken as they are), or
``0`` for symbolic dims that are ``x``'s at the same place and ``-1`` for one other.
A ``0`` and a ``-1`` are never both used (the ``-1`` cannot be inferred at run time
when the copied dim is 0). ``allowzero`` exists from opset 14: before, a shape read as
it is goes without it (the same when no number is 0) or the Reshape is left alone."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.ir_utils.value_facts import constant_ints, same_dim, same_shape
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext


def materialized_shape(
    result_dims: Sequence[object], input_dims: Sequence[object] | None
) -> tuple[list[int], int] | None:
    """(shape, allowzero) of a Reshape giving ``result_dims`` from a tensor of
    ``input_dims``, or None."""
    unknown = [i for i, d in enumerate(result_dims) if not isinstance(d, int)]
    shape = [d if isinstance(d, int) else -1 for d in result_dims]
    if len(unknown) <= 1:
        return (shape, 1) if not (unknown and 0 in shape) else None
    if input_dims is None or 0 in shape:
        return None
    for i in unknown:
        if i < len(input_dims) and same_dim(result_dims[i], input_dims[i]):
            shape[i] = 0
    return (shape, 0) if shape.count(-1) == 0 else None


class MaterializeReshapeShape(RewriteRuleClassBase):
    def __init__(self) -> None:
        super().__init__()
        self._target: tuple[list[int], int] | None = None
        self._has_allowzero = True

    def pattern(self, op: Any, data: Any, shape: Any) -> Any:
        return op.Reshape(data, shape, _outputs=["reshaped"])

    def check(
        self, context: MatchContext, data: ir.Value, shape: ir.Value, reshaped: ir.Value
    ) -> MatchResult:
        result = MatchResult()
        self._target = None
        if same_shape(data, reshaped):
            return result
        result_dims = value_facts.dims(reshaped)
        if result_dims is None:
            return result.fail("the result's shape is not known", reshaped)
        if constant_ints(shape) is not None:
            return result.fail("the shape is a constant already", shape)
        self._target = materialized_shape(result_dims, value_facts.dims(data))
        if self._target is None:
            return result.fail("the result has too many symbolic dims", reshaped)
        numbers, allowzero = self._target
        self._has_allowzero = context.opset() >= 14
        if allowzero and not self._has_allowzero and 0 in numbers:
            return result.fail("a 0 dim read as it is needs allowzero (opset 14)", reshaped)
        return result

    def rewrite(self, op: RewriterContext, data: ir.Value, **_: Any) -> ir.Value:
        value: ir.Value
        if self._target is None:
            value = op.Identity(data)
        else:
            shape, allowzero = self._target
            # Reshape-13 has no allowzero: without a 0, the numbers are read as they are
            kept = allowzero if self._has_allowzero else None
            value = op.Reshape(data, np.array(shape, np.int64), allowzero=kept)
        return value


materialize_reshape_shape_rule = MaterializeReshapeShape.rule()

__all__ = ["MaterializeReshapeShape", "materialize_reshape_shape_rule", "materialized_shape"]
