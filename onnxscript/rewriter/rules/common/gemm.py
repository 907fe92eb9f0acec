"""MatMul and Add to Gemm (named rules, not in the default set).

``matmul_add_to_gemm_rule``
and its ``transpose_a_`` / ``transpose_b_`` / ``transpose_ab_`` forms:
``Add(MatMul(a, b), c)`` with ``a`` and ``b`` of rank 2 (a ``Transpose(perm=[1, 0])`` of
either absorbed as transA / transB) and ``c`` broadcasting to the product's shape in one
direction (rank <= 2, each dim 1 or the product's) -> ``Gemm(a, b, c)``."""

from __future__ import annotations

from typing import Any

from onnxscript.ir_utils.value_facts import (
    dims,
    same_dim,
)
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult


def _unidirectional(c: Any, rows: Any, cols: Any) -> bool:
    """Whether ``c`` broadcasts to ``[rows, cols]`` without growing."""
    c_dims = dims(c)
    if c_dims is None or len(c_dims) > 2:
        return False
    target = [rows, cols][2 - len(c_dims) :]
    return all(d == 1 or same_dim(d, t) for d, t in zip(c_dims, target))


class _MatMulAddToGemmBase(RewriteRuleClassBase):
    """``Add(MatMul(a, b), c)`` -> ``Gemm(a, b, c)``, optionally absorbing Transposes."""

    _trans_a = False
    _trans_b = False

    def pattern(self, op: Any, a: Any, b: Any, c: Any) -> Any:
        left = op.Transpose(a, perm=[1, 0]) if self._trans_a else a
        right = op.Transpose(b, perm=[1, 0]) if self._trans_b else b
        return op.Add(op.MatMul(left, right), c)

    def check(self, context: Any, a: Any, b: Any, c: Any, **_: Any) -> MatchResult:
        result = MatchResult()
        a_dims, b_dims = dims(a), dims(b)
        if a_dims is None or b_dims is None or len(a_dims) != 2 or len(b_dims) != 2:
            return result.fail("Rank of input_a and input_b must be 2", [a, b])
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


class MatMulAddToGemm(_MatMulAddToGemmBase):
    _trans_a, _trans_b = False, False


class TransAMatMulAddToGemm(_MatMulAddToGemmBase):
    _trans_a, _trans_b = True, False


class TransBMatMulAddToGemm(_MatMulAddToGemmBase):
    _trans_a, _trans_b = False, True


class TransABMatMulAddToGemm(_MatMulAddToGemmBase):
    _trans_a, _trans_b = True, True


matmul_add_to_gemm_rule = MatMulAddToGemm.rule()
transpose_a_matmul_add_to_gemm_rule = TransAMatMulAddToGemm.rule()
transpose_b_matmul_add_to_gemm_rule = TransBMatMulAddToGemm.rule()
transpose_ab_matmul_add_to_gemm_rule = TransABMatMulAddToGemm.rule()

__all__ = [
    "MatMulAddToGemm",
    "TransABMatMulAddToGemm",
    "TransAMatMulAddToGemm",
    "TransBMatMulAddToGemm",
    "matmul_add_to_gemm_rule",
    "transpose_a_matmul_add_to_gemm_rule",
    "transpose_ab_matmul_add_to_gemm_rule",
    "transpose_b_matmul_add_to_gemm_rule",
]
