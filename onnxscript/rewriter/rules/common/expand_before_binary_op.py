"""An Expand feeding a broadcasting binary op, removed when the op's own broadcasting gives
the same result: ``Op(Expand(x, shape), y)`` -> ``Op(x, y)`` (and the same for an Expand
on the second input) when ``shape`` is a constant and broadcasting ``x`` with ``y``
yields the shape broadcasting ``Expand(x, shape)`` with ``y`` yields. Expand only repeats
``x``, so the op then computes the same elements.

Dims are compared as the rules do (sizes, or symbolic dims of one name); a dim that may or
may not be 1 leaves the broadcast unknown, and the rule refuses. PRelu broadcasts its slope
to its input only, so for it the result must also have its first input's shape.

``expand_before_binary_op_rules`` has the rules ``ExpandFirst_<Op>`` and
``ExpandSecond_<Op>`` for each op, as 0.7.2 names them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.value_facts import Dim, constant_ints, dims, same_dims
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.node_copies import has_ref_attributes, rebuilt

BINARY_OPS = (
    "Add",
    "And",
    "BitShift",
    "BitwiseAnd",
    "BitwiseOr",
    "BitwiseXor",
    "Div",
    "Equal",
    "Greater",
    "GreaterOrEqual",
    "Less",
    "LessOrEqual",
    "Mod",
    "Mul",
    "Or",
    "Pow",
    "PRelu",
    "Sub",
    "Xor",
)
"""The ops whose two inputs broadcast against each other (numpy's rules)."""


def broadcast(a: Sequence[Dim], b: Sequence[Dim]) -> list[Dim] | None:
    """The shape numpy broadcasting gives ``a`` and ``b``, None when a dim is unknown to
    be 1 or to equal the other."""
    width = max(len(a), len(b))
    ones: list[Dim] = [1] * width
    left, right = ones[: width - len(a)] + list(a), ones[: width - len(b)] + list(b)
    result: list[Dim] = []
    for x, y in zip(left, right):
        if x == 1:
            result.append(y)
        elif y == 1 or same_dims([x], [y]):
            result.append(x)
        else:
            return None
    return result


class ExpandBeforeBinaryOp(RewriteRuleClassBase):
    """``Op(Expand(x, shape), y)`` (``first``) or ``Op(y, Expand(x, shape))`` ->
    ``Op(x, y)`` / ``Op(y, x)``."""

    def __init__(self, op_type: str, first: bool) -> None:
        super().__init__(f"Expand{'First' if first else 'Second'}_{op_type}")
        self._op_type, self._first = op_type, first

    def pattern(self, op: Any, x: Any, shape: Any, y: Any) -> Any:
        expanded = op.Expand(x, shape)
        inputs = (expanded, y) if self._first else (y, expanded)
        return getattr(op, self._op_type)(*inputs, _outputs=["out"])

    def check(
        self, context: Any, x: ir.Value, shape: ir.Value, y: ir.Value, out: ir.Value
    ) -> MatchResult:
        result = MatchResult()
        if has_ref_attributes(out.producer()):  # type: ignore[arg-type]
            return result.fail("the op has attribute references", out)
        target, x_dims, y_dims = constant_ints(shape), dims(x), dims(y)
        if target is None:
            return result.fail("the Expand's shape is not a constant", shape)
        if x_dims is None or y_dims is None:
            return result.fail("the shapes of the inputs are unknown", [x, y])
        expanded = broadcast(x_dims, target)
        with_expand = broadcast(expanded, y_dims) if expanded is not None else None
        without = broadcast(x_dims, y_dims)
        if with_expand is None or without is None or not same_dims(with_expand, without):
            return result.fail("without the Expand, the op's result has another shape", x)
        if self._op_type == "PRelu":
            data = x_dims if self._first else y_dims
            if not same_dims(without, data):
                return result.fail("PRelu's slope must broadcast to its input", x)
        return result

    def rewrite(self, op: Any, x: ir.Value, y: ir.Value, out: ir.Value, **_: Any) -> Any:
        node = out.producer()
        assert node is not None
        return rebuilt(op, node, [x, y] if self._first else [y, x])


expand_before_binary_op_rules = RewriteRuleSet(
    [ExpandBeforeBinaryOp.rule(op_type, first) for op_type in BINARY_OPS for first in (True, False)]
)

__all__ = ["BINARY_OPS", "ExpandBeforeBinaryOp", "broadcast", "expand_before_binary_op_rules"]
