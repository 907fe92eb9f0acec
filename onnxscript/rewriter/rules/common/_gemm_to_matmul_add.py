"""0.7.2's import path ``onnxscript.rewriter.rules.common._gemm_to_matmul_add``:
Reshape-Gemm-Reshape that broadcasting makes one MatMul and an Add."""

from __future__ import annotations

from onnxscript.rewriter.rules.common.matmul_reshape import (
    check_if_not_need_reshape,
    gemm_to_matmul_add_rule,
    matmul_add,
    reshape_gemm_reshape_pattern,
)

__all__ = [
    "check_if_not_need_reshape",
    "gemm_to_matmul_add_rule",
    "matmul_add",
    "reshape_gemm_reshape_pattern",
]
