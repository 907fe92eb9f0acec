"""0.7.2's import path ``onnxscript.rewriter.rules.common._matmul_add_to_gemm``: MatMul then Add made a Gemm."""

from __future__ import annotations

from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.rules.common.gemm import (
    MatMulAddToGemm,
    TransABMatMulAddToGemm,
    TransAMatMulAddToGemm,
    TransBMatMulAddToGemm,
    matmul_add_to_gemm_rule,
    transpose_a_matmul_add_to_gemm_rule,
    transpose_ab_matmul_add_to_gemm_rule,
    transpose_b_matmul_add_to_gemm_rule,
)

rules = RewriteRuleSet(
    [
        transpose_ab_matmul_add_to_gemm_rule,
        transpose_a_matmul_add_to_gemm_rule,
        transpose_b_matmul_add_to_gemm_rule,
        matmul_add_to_gemm_rule,
    ]
)

__all__ = [
    "MatMulAddToGemm",
    "TransABMatMulAddToGemm",
    "TransAMatMulAddToGemm",
    "TransBMatMulAddToGemm",
    "matmul_add_to_gemm_rule",
    "rules",
    "transpose_a_matmul_add_to_gemm_rule",
    "transpose_ab_matmul_add_to_gemm_rule",
    "transpose_b_matmul_add_to_gemm_rule",
]
