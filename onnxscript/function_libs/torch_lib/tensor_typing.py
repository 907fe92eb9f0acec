"""Type variables of ATen functions' parameters; torch.onnx reads them (through
``typing.get_type_hints``) to tell inputs from attributes and to share an element type
between the parameters annotated with one of them.

The names onnxscript 0.7 defined (``TFloat``, ``TReal``, ``TTensor``, ...) allow what they
allowed there; the library's functions use the ones that say what they accept
(``TAnyTensor``: every tensor type; ``TRealOrUInt8``, ``TIntOrUInt8``: with uint8).
"""

from __future__ import annotations

from typing import TypeVar, Union

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
    STRING,
    UINT8,
    TensorType,
)

# Unions of types, as onnxscript 0.7 spelled them (typing.Union: they are values here).
_TensorType = Union[  # noqa: UP007
    BFLOAT16, BOOL, COMPLEX64, COMPLEX128, DOUBLE, FLOAT, FLOAT16, INT8, INT16, INT32, INT64, UINT8
]
_FloatType = Union[FLOAT16, FLOAT, DOUBLE, BFLOAT16]  # noqa: UP007
IntType = Union[INT8, INT16, INT32, INT64]  # noqa: UP007
"""The signed integer types."""
RealType = Union[BFLOAT16, FLOAT16, FLOAT, DOUBLE, INT8, INT16, INT32, INT64]  # noqa: UP007
"""The floating point and signed integer types."""

TTensor = TypeVar("TTensor", bound=_TensorType)
"""The tensor types of torch's common dtypes (no string, uint16-64 or float8)."""
TTensor2 = TypeVar("TTensor2", bound=_TensorType)
"""As ``TTensor``, for a second parameter whose type may differ."""
TTensorOrString = TypeVar("TTensorOrString", bound=Union[_TensorType, STRING])  # noqa: UP007
TFloat = TypeVar("TFloat", bound=_FloatType)
"""Floating point numbers."""
TFloatHighPrecision = TypeVar("TFloatHighPrecision", bound=Union[FLOAT, DOUBLE])  # noqa: UP007
TFloatOrUInt8 = TypeVar(
    "TFloatOrUInt8",
    bound=Union[FLOAT, FLOAT16, DOUBLE, INT8, UINT8],  # noqa: UP007
)
TInt = TypeVar("TInt", bound=IntType)
"""Signed integers."""
TReal = TypeVar("TReal", bound=RealType)
"""Floating point numbers and signed integers."""
TRealOrUInt8 = TypeVar(
    "TRealOrUInt8",
    bound=Union[BFLOAT16, FLOAT16, FLOAT, DOUBLE, INT8, INT16, INT32, INT64, UINT8],  # noqa: UP007
)
"""Real numbers (no bool, no complex)."""
TRealUnlessInt16OrInt8 = TypeVar(
    "TRealUnlessInt16OrInt8",
    bound=Union[FLOAT16, FLOAT, DOUBLE, BFLOAT16, INT32, INT64],  # noqa: UP007
)
TRealUnlessFloat16OrInt8 = TypeVar(
    "TRealUnlessFloat16OrInt8",
    bound=Union[DOUBLE, FLOAT, INT16, INT32, INT64],  # noqa: UP007
)

TAnyTensor = TypeVar("TAnyTensor", bound=TensorType)
"""Any tensor."""
TIntOrUInt8 = TypeVar("TIntOrUInt8", bound=Union[INT8, INT16, INT32, INT64, UINT8])  # noqa: UP007
"""Integers."""
TComplex = TypeVar("TComplex", COMPLEX64, COMPLEX128)
"""Complex numbers."""

__all__ = [
    "BFLOAT16",
    "BOOL",
    "COMPLEX64",
    "COMPLEX128",
    "DOUBLE",
    "FLOAT",
    "FLOAT16",
    "INT8",
    "INT16",
    "INT32",
    "INT64",
    "STRING",
    "UINT8",
    "IntType",
    "RealType",
    "TAnyTensor",
    "TComplex",
    "TFloat",
    "TFloatHighPrecision",
    "TFloatOrUInt8",
    "TInt",
    "TIntOrUInt8",
    "TReal",
    "TRealOrUInt8",
    "TRealUnlessFloat16OrInt8",
    "TRealUnlessInt16OrInt8",
    "TTensor",
    "TTensor2",
    "TTensorOrString",
]
