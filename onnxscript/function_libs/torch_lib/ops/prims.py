"""torch's primitive ops (``prims::``), which decompositions of some ATen ops leave
behind (``aten::any`` becomes convert_element_type, sum and ne)."""

from __future__ import annotations

from collections.abc import Sequence

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.ops.complex_layout import is_complex_dtype, real_to_complex
from onnxscript.function_libs.torch_lib.ops.facts import rank
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import BOOL, TReal, TTensor


@aten("prims::convert_element_type")
def convert_element_type(a: TTensor, dtype: int) -> TTensor:
    if is_complex_dtype(dtype):
        return real_to_complex(a, dtype)
    return op.Cast(a, to=dtype)


def _reduce(onnx_op: str, inp: TTensor, dims: Sequence[int], output_dtype: int) -> TTensor:
    reducer = getattr(op, onnx_op)
    if rank(inp) == 0:
        result = op.Identity(inp)
    elif dims:
        result = reducer(inp, list(dims), keepdims=0)
    else:
        result = op.Identity(inp)  # prims reduce exactly the dims given: none here
    return result if output_dtype == -1 else op.Cast(result, to=output_dtype)


@aten("prims::sum")
def prims_sum(inp: TReal, dims: Sequence[int], *, output_dtype: int = -1) -> TReal:
    return _reduce("ReduceSum", inp, dims, output_dtype)


@aten("prims::prod")
def prims_prod(inp: TReal, dims: Sequence[int], *, output_dtype: int = -1) -> TReal:
    return _reduce("ReduceProd", inp, dims, output_dtype)


@aten("prims::amax")
def prims_amax(inp: TReal, dims: Sequence[int], *, output_dtype: int = -1) -> TReal:
    return _reduce("ReduceMax", inp, dims, output_dtype)


@aten("prims::amin")
def prims_amin(inp: TReal, dims: Sequence[int], *, output_dtype: int = -1) -> TReal:
    return _reduce("ReduceMin", inp, dims, output_dtype)


@aten("prims::var")
def prims_var(
    inp: TReal, dims: Sequence[int], correction: float = 1.0, *, output_dtype: int = -1
) -> TReal:
    axes = list(dims) if dims else list(range(rank(inp)))
    centered = op.Sub(inp, op.ReduceMean(inp, axes, keepdims=1))
    total = op.ReduceSum(op.Mul(centered, centered), axes, keepdims=0)
    count = op.CastLike(op.ReduceProd(op.Gather(op.Shape(inp), axes), keepdims=0), inp)
    result = op.Div(total, op.Sub(count, op.CastLike(correction, inp)))
    return result if output_dtype == -1 else op.Cast(result, to=output_dtype)


@aten("prims::ne")
def prims_ne(self: TTensor, other: TTensor) -> BOOL:
    return op.Not(op.Equal(self, other))


@aten("prims::eq")
def prims_eq(self: TTensor, other: TTensor) -> BOOL:
    return op.Equal(self, other)
