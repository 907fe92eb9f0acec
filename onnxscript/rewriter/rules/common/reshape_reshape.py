"""``Reshape(Reshape(x, a), b)`` -> ``Reshape(x, b')``: the outer shape alone decides the
result, except for its 0s (copies of the middle tensor's dims, unless ``allowzero``),
which are replaced by what they copy: a known number, ``a``'s own 0 (a dim of ``x`` at
the same place), or ``a``'s -1 when ``b`` has none."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.ir_utils.value_facts import constant_ints
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext


def _allowzero(node: ir.Node) -> int:
    return node.attributes.get_int("allowzero", 0)


def outer_shape(
    outer: list[int],
    inner: list[int] | None,
    middle_dims: Sequence[object] | None,
    inner_allowzero: int,
) -> list[int] | None:
    """``outer`` (allowzero 0) with its 0s replaced by what they copy from the middle
    tensor, made by Reshape(x, ``inner``); None when one cannot be told."""
    shape = list(outer)
    for i, entry in enumerate(outer):
        if entry != 0:
            continue
        known = middle_dims[i] if middle_dims is not None and i < len(middle_dims) else None
        source = inner[i] if inner is not None and i < len(inner) else None
        if isinstance(known, int) and known > 0:
            shape[i] = known
        elif source is not None and source > 0:
            shape[i] = source
        elif source == 0 and not inner_allowzero:
            shape[i] = 0
        elif source == -1 and -1 not in shape:
            shape[i] = -1
        else:
            return None
    if 0 in shape and -1 in shape:
        return None  # -1 cannot be inferred at run time when a copied dim is 0
    return shape


class ReshapeReshape(RewriteRuleClassBase):
    def __init__(self) -> None:
        super().__init__()
        self._shape: list[int] | None = None

    def pattern(self, op: Any, x: Any, inner_shape: Any, shape: Any) -> Any:
        return op.Reshape(op.Reshape(x, inner_shape, _outputs=["middle"]), shape)

    def check(
        self, context: MatchContext, inner_shape: ir.Value, shape: ir.Value, middle: ir.Value
    ) -> MatchResult:
        result = MatchResult()
        self._shape = None
        if _allowzero(context.root):
            return result  # the outer shape is taken as it is
        outer = constant_ints(shape)
        if outer is None:
            return result.fail("the outer shape is not a constant", shape)
        if 0 not in outer:
            return result
        inner = middle.producer()
        assert inner is not None
        dims = value_facts.dims(middle)
        merged = outer_shape(outer, constant_ints(inner_shape), dims, _allowzero(inner))
        if merged is None:
            return result.fail("a 0 of the outer shape copies an unknown dim", shape)
        self._shape = merged
        return result

    def rewrite(
        self, op: RewriterContext, x: ir.Value, shape: ir.Value, middle: ir.Value
    ) -> ir.Value:
        outer = next(iter(middle.uses())).node
        attributes = {a.name: a for a in outer.attributes.values()}
        target = shape
        if self._shape is not None:
            merged = ir.tensor(np.array(self._shape, np.int64))
            target = op.initializer(merged, f"{shape.name or 'shape'}_merged")
        value: ir.Value = op.Reshape(x, target, **attributes)
        return value


reshape_reshape_rule = ReshapeReshape.rule()

__all__ = ["ReshapeReshape", "outer_shape", "reshape_reshape_rule"]
