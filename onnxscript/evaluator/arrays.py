"""Element types, literal promotion and readable descriptions of eager values.

Python numbers given where a tensor is expected become arrays by the same rules the
converter uses for literals (``attributes.python_to_array``, then a conversion to the
element type they must take), including the refusal to truncate a float literal that is
combined with an integer tensor.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import onnx
import onnx.helper

from onnxscript.attributes import python_to_array

FLOAT = onnx.TensorProto.FLOAT
INT64 = onnx.TensorProto.INT64
BOOL = onnx.TensorProto.BOOL
STRING = onnx.TensorProto.STRING

_INT_TYPES = frozenset(code for name, code in onnx.TensorProto.DataType.items() if "INT" in name)

_CODE_OF_DTYPE: dict[np.dtype[Any], int] = {}


def onnx_dtype(dtype: np.dtype[Any]) -> int:
    """The ONNX element type of a numpy dtype (object and unicode arrays are STRING)."""
    code = _CODE_OF_DTYPE.get(dtype)
    if code is None:
        code = STRING if dtype.kind in "OUS" else onnx.helper.np_dtype_to_tensor_dtype(dtype)
        _CODE_OF_DTYPE[dtype] = code
    return code


def numpy_dtype(code: int) -> np.dtype[Any]:
    """The numpy dtype that holds ONNX element type ``code``."""
    return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(code))


def dtype_name(code: int | None) -> str:
    """``FLOAT`` for 1; ``unknown`` for ``None``."""
    if code is None:
        return "unknown"
    return str(onnx.TensorProto.DataType.Name(code))


def type_string(code: int) -> str:
    """The schema spelling of a tensor type: ``tensor(float)``."""
    return f"tensor({dtype_name(code).lower()})"


def is_literal(value: Any) -> bool:
    """Whether ``value`` is Python data that the script language treats as a literal.

    Python numbers, booleans, strings and (nested) lists or tuples of them; numpy arrays and
    numpy scalars are not literals (they keep their own element type).
    """
    if isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, (list, tuple)):
        return all(is_literal(v) for v in value)
    return False


def check_literal_fits(value: Any, dtype: int, where: str) -> None:
    """Refuse a literal that the element type ``dtype`` cannot represent faithfully.

    A non-integral float next to an integer or boolean tensor would be truncated, and
    strings and numbers do not mix; the converter rejects the same combinations.
    """
    values = _flatten(value)
    if dtype in _INT_TYPES or dtype == BOOL:
        for v in values:
            if isinstance(v, float) and not (math.isfinite(v) and v.is_integer()):
                raise TypeError(
                    f"{where}: the float {v!r} is combined with a {dtype_name(dtype)} tensor "
                    "and would be truncated; cast the tensor first, e.g. op.Cast(x, to=FLOAT)"
                )
    if dtype == STRING and any(not isinstance(v, str) for v in values):
        raise TypeError(f"{where}: a number is combined with a STRING tensor")
    if dtype != STRING and any(isinstance(v, str) for v in values):
        raise TypeError(f"{where}: a string is combined with a {dtype_name(dtype)} tensor")


def _flatten(value: Any) -> list[Any]:
    if isinstance(value, (list, tuple)):
        out: list[Any] = []
        for v in value:
            out.extend(_flatten(v))
        return out
    return [value]


def literal_array(value: Any, dtype: int | None, where: str) -> np.ndarray:
    """A literal as an array of element type ``dtype`` (its default type when ``None``)."""
    try:
        array = python_to_array(value)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{where}: cannot make a tensor from {describe(value)}: {exc}") from None
    if dtype is None:
        return array
    check_literal_fits(value, dtype, where)
    target = numpy_dtype(dtype)
    if array.dtype != target:
        array = array.astype(target)
    return array


def cast_array(array: np.ndarray, dtype: int) -> np.ndarray:
    """``array`` converted to element type ``dtype`` (like an ONNX ``Cast``)."""
    target = numpy_dtype(dtype)
    if array.dtype == target:
        return array
    return array.astype(target)


def describe(value: Any) -> str:
    """A short description of a value for error messages: type, dtype and shape."""
    from onnxscript.evaluator.tensor import Tensor

    if isinstance(value, Tensor):
        return f"Tensor of {value.value.dtype} with shape {tuple(value.value.shape)}"
    if isinstance(value, np.ndarray):
        return f"numpy array of {value.dtype} with shape {tuple(value.shape)}"
    if isinstance(value, np.generic):
        return f"numpy scalar {type(value).__name__} {value!r}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(sorted({type(v).__name__ for v in value})) or "nothing"
        return f"{type(value).__name__} of {len(value)} item(s) ({inner})"
    if isinstance(value, (bool, int, float, str)):
        return f"Python {type(value).__name__} {value!r}"
    return f"{type(value).__module__}.{type(value).__qualname__} object"


def value_type_string(value: Any) -> str:
    """The schema type string of an eager value: ``tensor(float)``, ``seq(tensor(int64))``."""
    if isinstance(value, np.ndarray):
        return type_string(onnx_dtype(value.dtype))
    if isinstance(value, list):
        if not value:
            elem_type = getattr(value, "elem_type", None)
            return f"seq({type_string(elem_type)})" if elem_type else "seq(?)"
        return f"seq({value_type_string(value[0])})"
    return "?"
