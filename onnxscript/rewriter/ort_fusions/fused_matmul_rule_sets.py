"""MatMul with the ops around it folded into onnxruntime's ``com.microsoft.FusedMatMul``
(``alpha * op(A) @ op(B)``, where ``op`` transposes the last two dims (``transA``/
``transB``) and/or moves the first dim behind the batch dims (``transBatchA``/
``transBatchB``)): a scalar Mul or Div after it (attention's scaling), a Transpose on an
input whose permutation is one of those, a Transpose swapping the last two dims of the
result (``(A @ B)^T = B^T @ A^T``)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.fusion import facts

_MS = "com.microsoft"
_TYPES = frozenset(
    {ir.DataType.FLOAT, ir.DataType.FLOAT16, ir.DataType.BFLOAT16, ir.DataType.DOUBLE}
)
Flags = tuple[int, int]
"""(trans, transBatch) of one operand."""


def flag_perm(flags: Flags, rank: int) -> list[int] | None:
    """The permutation FusedMatMul applies to an operand of ``rank`` with ``flags``."""
    trans, batch = flags
    if batch and rank < 3:
        return None
    if not batch:
        return list(range(rank - 2)) + ([rank - 1, rank - 2] if trans else [rank - 2, rank - 1])
    return list(range(1, rank - 1)) + ([rank - 1, 0] if trans else [0, rank - 1])


def perm_flags(perm: list[int]) -> Flags | None:
    """The flags whose permutation is ``perm``, None if there are none."""
    for flags in ((0, 0), (1, 0), (0, 1), (1, 1)):
        if flag_perm(flags, len(perm)) == perm:
            return flags
    return None


def _matmul(op: Any, a: Any, b: Any, fused: bool) -> Any:
    """MatMul or FusedMatMul (whose attributes the rules read from the bound node)."""
    if fused:
        return op.FusedMatMul(a, b, _domain=_MS, _outputs=["product"])
    return op.MatMul(a, b, _outputs=["product"])


class _MatMulRule(RewriteRuleClassBase):
    """A rule over MatMul (``fused`` False) or over FusedMatMul (True)."""

    def __init__(self, name: str, fused: bool) -> None:
        super().__init__(name + ("Fused" if fused else ""))
        self._fused = fused


def _attributes(product: ir.Value) -> dict[str, Any]:
    """The FusedMatMul attributes of the node computing ``product`` (a MatMul has none)."""
    node = product.producer()
    assert node is not None
    return {
        "alpha": node.attributes.get_float("alpha", 1.0),
        "transA": node.attributes.get_int("transA", 0),
        "transB": node.attributes.get_int("transB", 0),
        "transBatchA": node.attributes.get_int("transBatchA", 0),
        "transBatchB": node.attributes.get_int("transBatchB", 0),
    }


def _fused(op: Any, a: ir.Value, b: ir.Value, attributes: dict[str, Any]) -> Any:
    """``FusedMatMul(a, b)`` with the attributes that differ from their defaults."""
    given = {k: v for k, v in attributes.items() if v != (1.0 if k == "alpha" else 0)}
    return op.FusedMatMul(a, b, _domain=_MS, _version=1, **given)


def _float_product(product: ir.Value, result: MatchResult) -> MatchResult:
    if product.dtype not in _TYPES:
        return result.fail("the product is not of a floating-point type", product)
    return result


class FusedMatMulScale(_MatMulRule):
    """``MatMul(a, b) * s``, ``s * MatMul(a, b)`` or ``MatMul(a, b) / s`` with a scalar
    constant ``s`` to ``FusedMatMul(a, b, alpha=...)``."""

    def __init__(self, divide: bool, fused: bool) -> None:
        super().__init__("MatMulDiv" if divide else "MatMulMul", fused)
        self._divide = divide

    def pattern(self, op: Any, a: Any, b: Any, scale: Any) -> Any:
        product = _matmul(op, a, b, self._fused)
        return op.Div(product, scale) if self._divide else op.Mul(product, scale)

    def check(self, context: Any, product: ir.Value, scale: ir.Value, **_: Any) -> MatchResult:
        result = _float_product(product, MatchResult())
        if not result:
            return result
        value = facts.constant_float(scale)
        scale_rank, product_rank = facts.rank(scale), facts.rank(product)
        if value is None or value == 0 or scale_rank is None or product_rank is None:
            return result.fail("the scale is not a nonzero scalar constant", scale)
        if scale_rank > product_rank or scale.dtype != product.dtype:
            return result.fail("the scale would broadcast the product or change its type", scale)
        return result

    def rewrite(self, op: Any, a: ir.Value, b: ir.Value, product: ir.Value, scale: ir.Value) -> Any:
        attributes = _attributes(product)
        value = facts.constant_float(scale)
        assert value is not None
        attributes["alpha"] *= 1.0 / value if self._divide else value
        return _fused(op, a, b, attributes)


class TransposeMatMul(_MatMulRule):
    """A Transpose on input ``which`` (0: A, 1: B) of a (Fused)MatMul whose combined
    permutation is one FusedMatMul can apply, folded into its flags."""

    def __init__(self, which: int, fused: bool) -> None:
        super().__init__(f"TransposeMatMul{'AB'[which]}", fused)
        self._which = which

    def pattern(self, op: Any, x: Any, other: Any) -> Any:
        transposed = op.Transpose(x, _outputs=["transposed"])
        if self._which == 0:
            return _matmul(op, transposed, other, self._fused)
        return _matmul(op, other, transposed, self._fused)

    def _combined(self, x: ir.Value, transposed: ir.Value, product: ir.Value) -> Flags | None:
        node = transposed.producer()
        assert node is not None
        rank = facts.rank(x)
        perm = node.attributes.get_ints("perm", None)
        if perm is None:  # reverses the dims: known only with the rank
            perm = list(range(rank))[::-1] if rank is not None else []
        rank = len(perm)
        if rank < 2:
            return None
        attributes = _attributes(product)
        name = "AB"[self._which]
        own = flag_perm((attributes[f"trans{name}"], attributes[f"transBatch{name}"]), rank)
        if own is None or len(perm) != rank:
            return None
        return perm_flags([list(perm)[p] for p in own])

    def check(
        self,
        context: Any,
        x: ir.Value,
        other: ir.Value,
        transposed: ir.Value,
        product: ir.Value,
        **_: Any,
    ) -> MatchResult:
        result = _float_product(product, MatchResult())
        if not result:
            return result
        other_rank = facts.rank(other)
        if other_rank is not None and other_rank < 2:
            return result.fail("the other operand is a vector", other)
        if self._combined(x, transposed, product) is None:
            return result.fail("the permutation is not one FusedMatMul applies", transposed)
        return result

    def rewrite(
        self, op: Any, x: ir.Value, other: ir.Value, transposed: ir.Value, product: ir.Value
    ) -> Any:
        flags = self._combined(x, transposed, product)
        assert flags is not None
        attributes = _attributes(product)
        name = "AB"[self._which]
        attributes[f"trans{name}"], attributes[f"transBatch{name}"] = flags
        a, b = (x, other) if self._which == 0 else (other, x)
        return _fused(op, a, b, attributes)


class MatMulTranspose(_MatMulRule):
    """``Transpose(MatMul(a, b))`` swapping the last two dims to
    ``FusedMatMul(b, a, transA=not transB, transB=not transA)`` (no batch flags)."""

    def __init__(self, fused: bool) -> None:
        super().__init__("MatMulTranspose", fused)

    def pattern(self, op: Any, a: Any, b: Any) -> Any:
        return op.Transpose(_matmul(op, a, b, self._fused), _outputs=["result"])

    def check(
        self, context: Any, a: ir.Value, b: ir.Value, product: ir.Value, result: ir.Value, **_: Any
    ) -> MatchResult:
        outcome = _float_product(product, MatchResult())
        if not outcome:
            return outcome
        rank, a_rank, b_rank = facts.rank(product), facts.rank(a), facts.rank(b)
        if rank is None or a_rank is None or b_rank is None or min(a_rank, b_rank) < 2:
            return outcome.fail("the operands are not known to be matrices", [a, b])
        node = result.producer()
        assert node is not None
        perm = list(node.attributes.get_ints("perm", list(range(rank))[::-1]))
        if perm != flag_perm((1, 0), rank):
            return outcome.fail("the Transpose does not swap the last two dims", node)
        attributes = _attributes(product)
        if attributes["transBatchA"] or attributes["transBatchB"]:
            return outcome.fail("the product transposes batch dims", product)
        return outcome

    def rewrite(self, op: Any, a: ir.Value, b: ir.Value, product: ir.Value, **_: Any) -> Any:
        attributes = _attributes(product)
        attributes["transA"], attributes["transB"] = (
            1 - attributes["transB"],
            1 - attributes["transA"],
        )
        return _fused(op, b, a, attributes)


def fused_matmul_rule_sets() -> RewriteRuleSet:
    """The FusedMatMul rules (a new set each call, as in 0.7)."""
    return RewriteRuleSet(
        [
            rule
            for fused in (False, True)
            for rule in (
                FusedMatMulScale.rule(divide=True, fused=fused),
                FusedMatMulScale.rule(divide=False, fused=fused),
                MatMulTranspose.rule(fused=fused),
                TransposeMatMul.rule(which=0, fused=fused),
                TransposeMatMul.rule(which=1, fused=fused),
            )
        ],
        commute=True,
    )


__all__ = [
    "FusedMatMulScale",
    "MatMulTranspose",
    "TransposeMatMul",
    "flag_perm",
    "fused_matmul_rule_sets",
    "perm_flags",
]
