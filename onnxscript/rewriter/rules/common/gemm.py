"""Gemm to MatMul and Add, and back (named rules, not in the default set).

``gemm_to_matmul_add_rule``: ``Gemm(a, b, c)`` with alpha = beta = 1 and no transA ->
``Add(MatMul(a, b), c)`` (``b`` transposed first for transB). ``matmul_add_to_gemm_rule``
and its ``transpose_a_`` / ``transpose_b_`` / ``transpose_ab_`` forms:
``Add(MatMul(a, b), c)`` with ``a`` and ``b`` of rank 2 (a ``Transpose(perm=[1, 0])`` of
either absorbed as transA / transB) and ``c`` broadcasting to the product's shape in one
direction (rank <= 2, each dim 1 or the product's) -> ``Gemm(a, b, c)``."""

from __future__ import annotations

from typing import Any

from onnxscript.ir_utils.value_facts import (
    attr_float,
    attr_int,
    dims,
    same_dim,
)
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.rules.common.node_copies import has_ref_attributes


class GemmToMatMulAdd(RewriteRuleClassBase):
    """``Gemm(a, b, c)`` (alpha = beta = 1, transA = 0) -> ``MatMul(a, b') + c``."""

    def pattern(self, op: Any, a: Any, b: Any, c: Any) -> Any:
        return op.Gemm(a, b, c, _outputs=["out"])

    def check(self, context: Any, out: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        node = out.producer()
        if has_ref_attributes(node) or attr_int(node, "transA", 0):
            return result.fail("transA (or an attribute reference) is not supported", node)
        if attr_float(node, "alpha", 1.0) != 1.0 or attr_float(node, "beta", 1.0) != 1.0:
            return result.fail("alpha and beta must be 1", node)
        return result

    def rewrite(self, op: Any, a: Any, b: Any, c: Any, out: Any, **_: Any) -> Any:
        if attr_int(out.producer(), "transB", 0):
            b = op.Transpose(b, perm=[1, 0])
        return op.Add(op.MatMul(a, b), c)


def _unidirectional(c: Any, rows: Any, cols: Any) -> bool:
    """Whether ``c`` broadcasts to ``[rows, cols]`` without growing."""
    c_dims = dims(c)
    if c_dims is None or len(c_dims) > 2:
        return False
    target = [rows, cols][2 - len(c_dims) :]
    return all(d == 1 or same_dim(d, t) for d, t in zip(c_dims, target))


class MatMulAddToGemm(RewriteRuleClassBase):
    """``Add(MatMul(a, b), c)`` -> ``Gemm(a, b, c)``, optionally absorbing Transposes."""

    def __init__(self, trans_a: bool, trans_b: bool, name: str) -> None:
        super().__init__(name)
        self._trans_a, self._trans_b = trans_a, trans_b

    def pattern(self, op: Any, a: Any, b: Any, c: Any) -> Any:
        left = op.Transpose(a, perm=[1, 0]) if self._trans_a else a
        right = op.Transpose(b, perm=[1, 0]) if self._trans_b else b
        return op.Add(op.MatMul(left, right), c)

    def check(self, context: Any, a: Any, b: Any, c: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        a_dims, b_dims = dims(a), dims(b)
        if a_dims is None or b_dims is None or len(a_dims) != 2 or len(b_dims) != 2:
            return result.fail("both MatMul operands must have rank 2", [a, b])
        rows = a_dims[1] if self._trans_a else a_dims[0]
        cols = b_dims[0] if self._trans_b else b_dims[1]
        if not _unidirectional(c, rows, cols):
            return result.fail("the addend must broadcast to the product's shape", c)
        return result

    def rewrite(self, op: Any, a: Any, b: Any, c: Any, **_: Any) -> Any:
        return op.Gemm(
            a,
            b,
            c,
            transA=1 if self._trans_a else None,
            transB=1 if self._trans_b else None,
        )


gemm_to_matmul_add_rule = GemmToMatMulAdd.rule()
matmul_add_to_gemm_rule = MatMulAddToGemm.rule(False, False, "MatMulAddToGemm")
transpose_a_matmul_add_to_gemm_rule = MatMulAddToGemm.rule(True, False, "TransAMatMulAddToGemm")
transpose_b_matmul_add_to_gemm_rule = MatMulAddToGemm.rule(False, True, "TransBMatMulAddToGemm")
transpose_ab_matmul_add_to_gemm_rule = MatMulAddToGemm.rule(True, True, "TransABMatMulAddToGemm")

__all__ = [
    "gemm_to_matmul_add_rule",
    "matmul_add_to_gemm_rule",
    "transpose_a_matmul_add_to_gemm_rule",
    "transpose_ab_matmul_add_to_gemm_rule",
    "transpose_b_matmul_add_to_gemm_rule",
]
