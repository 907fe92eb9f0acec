"""MatMul with the ops around it folded into onnxruntime's ``com.microsoft.FusedMatMul``
(``alpha * op(A) @ op(B)``, where ``op`` transposes the last two dims (``transA``/
``transB``) and/or moves the first dim behind the batch dims (``transBatchA``/
``transBatchB``)): a scalar Mul or Div after it (attention's scaling), a Transpose on an
input whose permutation is one of those, a Transpose swapping the last two dims of the
result (``(A @ B)^T = B^T @ A^T``)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.ort_fusions import cpu_kernels
from onnxscript.rewriter.pattern import MatchResult, RewriteRuleClassBase, RewriteRuleSet

_MS = "com.microsoft"
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
    """A rule over MatMul, or over FusedMatMul when the class sets ``fused``."""

    fused: ClassVar[bool] = False


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


def _product_type(product: ir.Value) -> ir.DataType | None:
    """The element type of ``product``, or of its first input when not recorded (shape
    inference does not know FusedMatMul)."""
    if product.dtype is not None:
        return product.dtype
    node = product.producer()
    first = node.inputs[0] if node is not None and node.inputs else None
    return first.dtype if first is not None else None


def _product_rank(product: ir.Value) -> int | None:
    """The rank of ``product``, or the larger of its inputs' when not recorded."""
    known = value_facts.rank(product)
    node = product.producer()
    if known is not None or node is None or len(node.inputs) < 2:
        return known
    ranks = [r for r in (value_facts.rank(x) for x in node.inputs[:2]) if r is not None]
    return max(ranks) if len(ranks) == 2 else None


def _float_product(product: ir.Value, result: MatchResult) -> MatchResult:
    refused = cpu_kernels.element_type("FusedMatMul", _product_type(product))
    return result.fail(refused, product) if refused is not None else result


def _kernel_runs(
    product: ir.Value,
    a: ir.Value,
    b: ir.Value,
    attributes: dict[str, Any],
    result: MatchResult,
) -> MatchResult:
    """``result``, failed when onnxruntime's CPU FusedMatMul does not run (or computes
    wrong) ``FusedMatMul(a, b)`` with ``attributes`` (:mod:`.cpu_kernels`)."""
    refused = cpu_kernels.fused_matmul(
        _product_type(product),
        rank_a=value_facts.rank(a),
        rank_b=value_facts.rank(b),
        trans_a=attributes["transA"],
        trans_b=attributes["transB"],
        trans_batch_a=attributes["transBatchA"],
        trans_batch_b=attributes["transBatchB"],
    )
    return result.fail(refused, [a, b]) if refused is not None else result


class _MatMulScale(_MatMulRule):
    """``MatMul(a, b) / s`` (``divide``) or ``MatMul(a, b) * s`` with a scalar constant
    ``s`` to ``FusedMatMul(a, b, alpha=...)``."""

    divide: ClassVar[bool] = True

    def pattern(self, op: Any, a: Any, b: Any, scale: Any) -> Any:
        product = _matmul(op, a, b, self.fused)
        return op.Div(product, scale) if self.divide else op.Mul(product, scale)

    def check(
        self,
        context: Any,
        a: ir.Value,
        b: ir.Value,
        product: ir.Value,
        scale: ir.Value,
        **_: Any,
    ) -> MatchResult:
        result = _kernel_runs(product, a, b, _attributes(product), MatchResult())
        if not result:
            return result
        value = value_facts.constant_float(scale)
        scale_rank, product_rank = value_facts.rank(scale), _product_rank(product)
        if value is None or value == 0 or scale_rank is None or product_rank is None:
            return result.fail("the scale is not a nonzero scalar constant", scale)
        if scale_rank > product_rank or scale.dtype != _product_type(product):
            return result.fail("the scale would broadcast the product or change its type", scale)
        return result

    def rewrite(self, op: Any, a: ir.Value, b: ir.Value, product: ir.Value, scale: ir.Value) -> Any:
        attributes = _attributes(product)
        value = value_facts.constant_float(scale)
        assert value is not None
        attributes["alpha"] *= 1.0 / value if self.divide else value
        return _fused(op, a, b, attributes)


class FusedMatMulDiv1(_MatMulScale):
    """``MatMul(a, b) / s`` (a scalar constant) to ``FusedMatMul(a, b, alpha=1/s)``."""


class FusedMatMulDiv2(_MatMulScale):
    """``FusedMatMul(a, b) / s`` to FusedMatMul with ``alpha`` divided by ``s``."""

    fused = True


class FusedMatMulMul1(_MatMulScale):
    """``MatMul(a, b) * s`` or ``s * MatMul(a, b)`` to ``FusedMatMul(a, b, alpha=s)``."""

    divide = False


class FusedMatMulMul2(_MatMulScale):
    """``FusedMatMul(a, b) * s`` to FusedMatMul with ``alpha`` multiplied by ``s``."""

    divide = False
    fused = True


FlagChange = Literal[
    "any", "transpose", "batch_and_transpose", "flipped_batch", "flipped_batch_and_transpose"
]
"""How a folded Transpose changes the flags of the operand it feeds: ``transpose``
toggles ``trans`` (no batch flag before or after), ``batch_and_transpose`` toggles
``trans`` with ``transBatch`` set before and after, ``flipped_batch`` toggles
``transBatch`` only, ``flipped_batch_and_transpose`` both; ``any`` accepts each."""


def flag_change(before: Flags, after: Flags) -> FlagChange:
    """The kind of change from ``before`` to ``after`` (different flags)."""
    trans, batch = before[0] != after[0], before[1] != after[1]
    if trans and batch:
        return "flipped_batch_and_transpose"
    if batch:
        return "flipped_batch"
    return "batch_and_transpose" if before[1] else "transpose"


class _TransposeMatMulBase(_MatMulRule):
    """A Transpose on input ``which`` (0: A, 1: B) of a (Fused)MatMul whose combined
    permutation is one FusedMatMul can apply, folded into its flags when the change of
    flags is of the class's ``change``."""

    which: ClassVar[int] = 0
    change: ClassVar[FlagChange] = "any"

    def pattern(self, op: Any, x: Any, other: Any) -> Any:
        transposed = op.Transpose(x, _outputs=["transposed"])
        if self.which == 0:
            return _matmul(op, transposed, other, self.fused)
        return _matmul(op, other, transposed, self.fused)

    def _own(self, product: ir.Value) -> Flags:
        attributes = _attributes(product)
        name = "AB"[self.which]
        return attributes[f"trans{name}"], attributes[f"transBatch{name}"]

    def _combined(self, x: ir.Value, transposed: ir.Value, product: ir.Value) -> Flags | None:
        node = transposed.producer()
        assert node is not None
        rank = value_facts.rank(x)
        perm = node.attributes.get_ints("perm", None)
        if perm is None:  # reverses the dims: known only with the rank
            perm = list(range(rank))[::-1] if rank is not None else []
        rank = len(perm)
        if rank < 2:
            return None
        own = flag_perm(self._own(product), rank)
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
        other_rank = value_facts.rank(other)
        if other_rank is not None and other_rank < 2:
            return result.fail("the other operand is a vector", other)
        flags = self._combined(x, transposed, product)
        if flags is None:
            return result.fail("the permutation is not one FusedMatMul applies", transposed)
        if self.change != "any" and flag_change(self._own(product), flags) != self.change:
            return result.fail(f"the Transpose does not make a {self.change} change", transposed)
        attributes = _attributes(product)
        name = "AB"[self.which]
        attributes[f"trans{name}"], attributes[f"transBatch{name}"] = flags
        a, b = (x, other) if self.which == 0 else (other, x)
        return _kernel_runs(product, a, b, attributes, result)

    def rewrite(
        self, op: Any, x: ir.Value, other: ir.Value, transposed: ir.Value, product: ir.Value
    ) -> Any:
        flags = self._combined(x, transposed, product)
        assert flags is not None
        attributes = _attributes(product)
        name = "AB"[self.which]
        attributes[f"trans{name}"], attributes[f"transBatch{name}"] = flags
        a, b = (x, other) if self.which == 0 else (other, x)
        return _fused(op, a, b, attributes)


class TransposeMatMul1(_TransposeMatMulBase):
    """``MatMul(Transpose(a), b)`` to FusedMatMul (``transA``, or ``transBatchA`` for a
    permutation that moves the first dim behind the batch dims)."""


class TransposeMatMul2(_TransposeMatMulBase):
    """``MatMul(a, Transpose(b))`` to FusedMatMul (``transB`` / ``transBatchB``)."""

    which = 1


class TransposeFusedMatMul1(TransposeMatMul1):
    """A Transpose of A's last two dims folded into FusedMatMul's ``transA``."""

    fused = True
    change = "transpose"


class TransposeFusedMatMul2(TransposeMatMul2):
    """A Transpose of B's last two dims folded into FusedMatMul's ``transB``."""

    fused = True
    change = "transpose"


class TransposeFusedMatMulWithFlippedBatch1(_TransposeMatMulBase):
    """A Transpose on A that toggles FusedMatMul's ``transBatchA``."""

    fused = True
    change = "flipped_batch"


class TransposeFusedMatMulWithFlippedBatch2(_TransposeMatMulBase):
    """A Transpose on B that toggles FusedMatMul's ``transBatchB``."""

    fused = True
    which = 1
    change = "flipped_batch"


class TransposeFusedMatMulWithFlippedBatchAndTranspose1(_TransposeMatMulBase):
    """A Transpose on A that toggles both ``transA`` and ``transBatchA``."""

    fused = True
    change = "flipped_batch_and_transpose"


class TransposeFusedMatMulWithFlippedBatchAndTranspose2(_TransposeMatMulBase):
    """A Transpose on B that toggles both ``transB`` and ``transBatchB``."""

    fused = True
    which = 1
    change = "flipped_batch_and_transpose"


class TransposeFusedMatMulWithBatchAndTranspose1(_TransposeMatMulBase):
    """A Transpose on A that toggles ``transA`` of a FusedMatMul with ``transBatchA``."""

    fused = True
    change = "batch_and_transpose"


class TransposeFusedMatMulWithBatchAndTranspose2(_TransposeMatMulBase):
    """A Transpose on B that toggles ``transB`` of a FusedMatMul with ``transBatchB``."""

    fused = True
    which = 1
    change = "batch_and_transpose"


class MatMulTranspose(_MatMulRule):
    """``Transpose(MatMul(a, b))`` swapping the last two dims to
    ``FusedMatMul(b, a, transA=1, transB=1)`` (``(A @ B)^T = B^T @ A^T``)."""

    def pattern(self, op: Any, a: Any, b: Any) -> Any:
        return op.Transpose(_matmul(op, a, b, self.fused), _outputs=["result"])

    def check(
        self, context: Any, a: ir.Value, b: ir.Value, product: ir.Value, result: ir.Value, **_: Any
    ) -> MatchResult:
        outcome = _float_product(product, MatchResult())
        if not outcome:
            return outcome
        rank, a_rank, b_rank = _product_rank(product), value_facts.rank(a), value_facts.rank(b)
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
        swapped = {
            **attributes,
            "transA": 1 - attributes["transB"],
            "transB": 1 - attributes["transA"],
        }
        return _kernel_runs(product, b, a, swapped, outcome)

    def rewrite(self, op: Any, a: ir.Value, b: ir.Value, product: ir.Value, **_: Any) -> Any:
        attributes = _attributes(product)
        attributes["transA"], attributes["transB"] = (
            1 - attributes["transB"],
            1 - attributes["transA"],
        )
        return _fused(op, b, a, attributes)


class FusedMatMulTranspose(MatMulTranspose):
    """``Transpose(FusedMatMul(a, b))`` swapping the last two dims to one FusedMatMul
    (no batch flags)."""

    fused = True


RULE_CLASSES: tuple[type[_MatMulRule], ...] = (
    FusedMatMulDiv1,
    FusedMatMulDiv2,
    FusedMatMulMul1,
    FusedMatMulMul2,
    FusedMatMulTranspose,
    MatMulTranspose,
    TransposeMatMul1,
    TransposeFusedMatMul1,
    TransposeMatMul2,
    TransposeFusedMatMul2,
    TransposeFusedMatMulWithFlippedBatch1,
    TransposeFusedMatMulWithFlippedBatch2,
    TransposeFusedMatMulWithFlippedBatchAndTranspose1,
    TransposeFusedMatMulWithFlippedBatchAndTranspose2,
    TransposeFusedMatMulWithBatchAndTranspose1,
    TransposeFusedMatMulWithBatchAndTranspose2,
)
"""0.7.2's rule classes in its order, with the ``* s`` forms (``FusedMatMulMul1/2``)."""


def fused_matmul_rule_sets() -> RewriteRuleSet:
    """The FusedMatMul rules (a new set each call, as in 0.7); requires onnxruntime to
    run the rewritten model."""
    return RewriteRuleSet([cls.rule() for cls in RULE_CLASSES], commute=True)


__all__ = [
    "RULE_CLASSES",
    "FlagChange",
    "FusedMatMulDiv1",
    "FusedMatMulDiv2",
    "FusedMatMulMul1",
    "FusedMatMulMul2",
    "FusedMatMulTranspose",
    "MatMulTranspose",
    "TransposeFusedMatMul1",
    "TransposeFusedMatMul2",
    "TransposeFusedMatMulWithBatchAndTranspose1",
    "TransposeFusedMatMulWithBatchAndTranspose2",
    "TransposeFusedMatMulWithFlippedBatch1",
    "TransposeFusedMatMulWithFlippedBatch2",
    "TransposeFusedMatMulWithFlippedBatchAndTranspose1",
    "TransposeFusedMatMulWithFlippedBatchAndTranspose2",
    "TransposeMatMul1",
    "TransposeMatMul2",
    "flag_change",
    "flag_perm",
    "fused_matmul_rule_sets",
    "perm_flags",
]
