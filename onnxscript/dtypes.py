"""The one table of element types: ONNX codes, their names, numpy dtypes and the type
strings of operator schemas (``tensor(float)``).

Codes are ``onnx.TensorProto.DataType`` values. Everything that converts between these
forms goes through here, so the converter, eager mode and the reverse translator cannot
disagree on what a type is called or which numpy dtype holds it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import onnx
import onnx.helper

_DataType = onnx.TensorProto.DataType

FLOAT = int(onnx.TensorProto.FLOAT)
DOUBLE = int(onnx.TensorProto.DOUBLE)
INT32 = int(onnx.TensorProto.INT32)
INT64 = int(onnx.TensorProto.INT64)
BOOL = int(onnx.TensorProto.BOOL)
STRING = int(onnx.TensorProto.STRING)

NAMES: dict[int, str] = {int(code): name for name, code in _DataType.items() if code != 0}
"""Every element type the installed onnx defines, by code: ``{1: "FLOAT", ...}``."""

FLOAT_TYPES = frozenset(
    code for code, name in NAMES.items() if name.startswith(("FLOAT", "BFLOAT")) or name == "DOUBLE"
)
"""Floating-point element types."""

INT_TYPES = frozenset(code for code, name in NAMES.items() if "INT" in name)
"""Integer element types, signed and unsigned."""

UNSIGNED_TYPES = frozenset(code for code, name in NAMES.items() if name.startswith("UINT"))
"""Unsigned integer element types."""

_TYPE_STRINGS: dict[str, int] = {f"tensor({name.lower()})": code for code, name in NAMES.items()}
_FROM_NUMPY: dict[np.dtype[Any], int] = {}


def dtype_name(code: int | None) -> str:
    """``"FLOAT"`` for 1; ``"unknown"`` for ``None``."""
    if code is None:
        return "unknown"
    return NAMES.get(code) or f"element type {code}"


def dtype_name_with_article(code: int | None) -> str:
    """``"a FLOAT"``, ``"an INT64"``, ``"a UINT8"`` (said "you-int"): for messages."""
    name = dtype_name(code)
    vowel = name[:1].upper() in "AEIOU" and not name.startswith("UINT")
    return f"{'an' if vowel else 'a'} {name}"


def is_float(code: int | None) -> bool:
    return code in FLOAT_TYPES


def is_int(code: int | None) -> bool:
    return code in INT_TYPES


def numpy_dtype(code: int) -> np.dtype[Any]:
    """The numpy dtype that holds element type ``code`` (``object`` for STRING)."""
    return onnx.helper.tensor_dtype_to_np_dtype(code)


def onnx_dtype(dtype: np.dtype[Any]) -> int:
    """The element type of a numpy dtype; object, bytes and unicode arrays are STRING."""
    code = _FROM_NUMPY.get(dtype)
    if code is None:
        code = STRING if dtype.kind in "OUS" else onnx.helper.np_dtype_to_tensor_dtype(dtype)
        _FROM_NUMPY[dtype] = code
    return code


def type_string(code: int) -> str:
    """The schema spelling of a tensor type: ``tensor(float)``."""
    return f"tensor({dtype_name(code).lower()})"


def dtype_of_type_string(type_str: str) -> int | None:
    """The element type of a schema type string: ``"tensor(int64)"`` -> INT64, else None."""
    return _TYPE_STRINGS.get(type_str)


def tensor_dtypes(type_strs: Iterable[str]) -> frozenset[int]:
    """The element types of the ``tensor(...)`` strings among a schema's type strings."""
    return frozenset(c for c in map(dtype_of_type_string, type_strs) if c is not None)


def sequence_elem_type(type_str: str) -> int | None:
    """The element type in ``seq(tensor(float))``; ``None`` for other strings."""
    if not type_str.startswith("seq(tensor(") or not type_str.endswith("))"):
        return None
    return dtype_of_type_string(type_str[4:-1])
