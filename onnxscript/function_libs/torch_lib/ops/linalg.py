"""Matrix products: mm, bmm, matmul, addmm, linear, t."""

from __future__ import annotations

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.ops.facts import rank
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import TReal


@aten("aten::mm", "aten::bmm", "aten::matmul")
def matmul(self: TReal, other: TReal) -> TReal:
    return op.MatMul(self, other)


@aten("aten::addmm")
def addmm(self: TReal, mat1: TReal, mat2: TReal, beta: float = 1.0, alpha: float = 1.0) -> TReal:
    return op.Gemm(mat1, mat2, self, alpha=float(alpha), beta=float(beta))


@aten("aten::linear")
def linear(input: TReal, weight: TReal, bias: TReal | None = None) -> TReal:
    if rank(input) == 2 and bias is not None:
        return op.Gemm(input, weight, bias, transB=1)
    result = op.MatMul(input, op.Transpose(weight, perm=[1, 0]))
    return result if bias is None else op.Add(result, bias)


@aten("aten::t")
def t(self: TReal) -> TReal:
    if rank(self) < 2:
        return op.Identity(self)
    return op.Transpose(self, perm=[1, 0])
