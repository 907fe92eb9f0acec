"""Triangular masks: triu and tril (ONNX Trilu). The diagonal may be symbolic, so causal
masks of a dynamic length export as one Trilu."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.facts import element_type
from onnxscript.function_libs.torch_lib.helpers.sizes import as_int64, scalar_like
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import TAnyTensor

_TRILU_TYPES = {
    ir.DataType.BOOL,
    ir.DataType.FLOAT16,
    ir.DataType.FLOAT,
    ir.DataType.DOUBLE,
    ir.DataType.INT32,
    ir.DataType.INT64,
}
"""The element types onnxruntime's Trilu takes; others are masked with Where."""


@aten("aten::triu")
def triu(self: TAnyTensor, diagonal: int = 0) -> TAnyTensor:
    """triu(Tensor self, SymInt diagonal=0) -> Tensor

    The elements on and above diagonal ``diagonal`` of the last two dims, the rest 0.
    """
    return _triangle(self, diagonal, upper=True)


@aten("aten::tril")
def tril(self: TAnyTensor, diagonal: int = 0) -> TAnyTensor:
    """tril(Tensor self, SymInt diagonal=0) -> Tensor

    The elements on and below diagonal ``diagonal`` of the last two dims, the rest 0.
    """
    return _triangle(self, diagonal, upper=False)


@aten("aten::triu", complex=True)
def triu_complex(self: TAnyTensor, diagonal: int = 0) -> TAnyTensor:
    """triu(Tensor self, SymInt diagonal=0) -> Tensor"""
    return _masked_triangle(self, diagonal, upper=True, parts=True)


@aten("aten::tril", complex=True)
def tril_complex(self: TAnyTensor, diagonal: int = 0) -> TAnyTensor:
    """tril(Tensor self, SymInt diagonal=0) -> Tensor"""
    return _masked_triangle(self, diagonal, upper=False, parts=True)


def _triangle(self: Any, diagonal: Any, upper: bool) -> Any:
    if element_type(self) in _TRILU_TYPES:
        return op.Trilu(self, as_int64(diagonal), upper=int(upper))
    return _masked_triangle(self, diagonal, upper, parts=False)


def _masked_triangle(self: Any, diagonal: Any, upper: bool, parts: bool) -> Any:
    """Trilu of a boolean matrix the size of the last two dims (before the parts axis of a
    complex tensor), then Where: for the element types Trilu does not take."""
    start, end = (-3, -1) if parts else (-2, None)
    matrix = (
        op.Shape(self, start=start, end=end) if end is not None else op.Shape(self, start=start)
    )
    ones = op.ConstantOfShape(matrix, value=ir.tensor([True], dtype=ir.DataType.BOOL))
    mask = op.Trilu(ones, as_int64(diagonal), upper=int(upper))
    if parts:
        mask = op.Unsqueeze(mask, [-1])
    return op.Where(mask, self, scalar_like(0, self))
