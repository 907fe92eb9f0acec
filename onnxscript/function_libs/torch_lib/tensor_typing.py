"""Type variables of the ATen functions' parameters; torch.onnx reads them (through
``typing.get_type_hints``) to tell inputs from attributes and to match dtypes."""

from __future__ import annotations

from typing import TypeVar

from onnxscript.onnx_types import (
    BFLOAT16,
    BOOL,
    COMPLEX64,
    COMPLEX128,
    DOUBLE,
    FLOAT,
    FLOAT16,
    INT8,
    INT16,
    INT32,
    INT64,
    UINT8,
    TensorType,
)

TTensor = TypeVar("TTensor", bound=TensorType)
"""Any tensor."""

TReal = TypeVar("TReal", BFLOAT16, FLOAT16, FLOAT, DOUBLE, INT8, INT16, INT32, INT64, UINT8)
"""Real numbers (no bool, no complex)."""

TFloat = TypeVar("TFloat", BFLOAT16, FLOAT16, FLOAT, DOUBLE)
"""Floating point numbers."""

TInt = TypeVar("TInt", INT8, INT16, INT32, INT64, UINT8)
"""Integers."""

TComplex = TypeVar("TComplex", COMPLEX64, COMPLEX128)

__all__ = ["BOOL", "INT64", "TComplex", "TFloat", "TInt", "TReal", "TTensor"]
