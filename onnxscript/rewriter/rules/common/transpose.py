"""Transposes that can go: ``no_op_transpose_rule`` (the identity permutation, or no
``perm`` on a tensor of rank 0 or 1) and ``transpose_transpose_rule`` (two in a row are
one, or none when they cancel). A missing ``perm`` reverses the dims, so it is used only
when the rank is known."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.value_facts import rank
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext


def permutation(node: ir.Node, x: ir.Value, x_rank: int | None = None) -> list[int] | None:
    """The permutation ``node`` (a Transpose of ``x``, of rank ``x_rank`` when the
    caller knows it) applies, when known."""
    perm = node.attributes.get("perm")
    if perm is not None and not perm.is_ref():
        return [int(p) for p in perm.as_ints()]
    if perm is not None:
        return None
    size = rank(x) if x_rank is None else x_rank
    return None if size is None else list(reversed(range(size)))


def _is_identity(perm: list[int]) -> bool:
    return perm == list(range(len(perm)))


class TransposeIdentity(RewriteRuleClassBase):
    def pattern(self, op: Any, x: Any) -> Any:
        return op.Transpose(x)

    def check(self, context: MatchContext, x: ir.Value) -> MatchResult:
        result = MatchResult()
        perm = permutation(context.root, x)
        if perm is None or not _is_identity(perm):
            return result.fail("the permutation is not the identity", context.root)
        return result

    def rewrite(self, op: RewriterContext, x: ir.Value) -> ir.Value:
        value: ir.Value = op.Identity(x)
        return value


class TransposeTranspose(RewriteRuleClassBase):
    def __init__(self) -> None:
        super().__init__()
        self._perm: list[int] = []

    def pattern(self, op: Any, x: Any) -> Any:
        return op.Transpose(op.Transpose(x, _outputs=["middle"]))

    def check(self, context: MatchContext, x: ir.Value, middle: ir.Value) -> MatchResult:
        result = MatchResult()
        inner = middle.producer()
        assert inner is not None
        first = permutation(inner, x)
        second = permutation(context.root, middle, len(first) if first is not None else None)
        if first is None or second is None or len(first) != len(second):
            return result.fail("a permutation is not known", context.root)
        self._perm = [first[i] for i in second]
        return result

    def rewrite(self, op: RewriterContext, x: ir.Value, middle: ir.Value) -> ir.Value:
        if _is_identity(self._perm):
            return op.Identity(x)  # type: ignore[no-any-return]
        return op.Transpose(x, perm=self._perm)  # type: ignore[no-any-return]


no_op_transpose_rule = TransposeIdentity.rule()
transpose_transpose_rule = TransposeTranspose.rule()

__all__ = [
    "TransposeIdentity",
    "TransposeTranspose",
    "no_op_transpose_rule",
    "permutation",
    "transpose_transpose_rule",
]
