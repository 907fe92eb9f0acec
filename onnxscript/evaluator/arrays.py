"""Element types, literal promotion and readable descriptions of eager values.

Python numbers given where a tensor is expected become arrays by the same rules the
converter uses for literals (``attributes.python_to_array``, then a conversion to the
element type they must take), including the refusal to truncate a float literal that is
combined with an integer tensor.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx.helper

from onnxscript.attributes import python_to_array
from onnxscript.converter.dtypes import STRING, dtype_name, numpy_dtype
from onnxscript.operator_rules import literal_misfit

_CODE_OF_DTYPE: dict[np.dtype[Any], int] = {}


def onnx_dtype(dtype: np.dtype[Any]) -> int:
    """The ONNX element type of a numpy dtype (object and unicode arrays are STRING)."""
    code = _CODE_OF_DTYPE.get(dtype)
    if code is None:
        code = STRING if dtype.kind in "OUS" else onnx.helper.np_dtype_to_tensor_dtype(dtype)
        _CODE_OF_DTYPE[dtype] = code
    return code


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
    """Refuse a literal that the element type ``dtype`` cannot represent faithfully (the
    rule the converter applies too: ``operator_rules.literal_misfit``)."""
    misfit = literal_misfit(value, dtype)
    if misfit is not None:
        message, hint = misfit
        raise TypeError(f"{where}: {message}" + (f"; {hint}" if hint else ""))


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
