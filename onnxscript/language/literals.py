"""Python literals used as tensors: their default element types and what they may become.

``0`` is an INT64 scalar, ``0.0`` a FLOAT scalar, ``True`` a BOOL, ``"x"`` a STRING and a
(nested) list a tensor of those; next to a tensor of another element type a literal takes
that type, unless it cannot do so faithfully (:func:`literal_misfit`). The converter
(constants in the graph) and eager mode (arrays) both apply these rules.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from onnxscript import dtypes
from onnxscript.errors import AttributeValueError


def is_literal(value: Any) -> bool:
    """Whether ``value`` is Python data that scripts treat as a literal.

    Python numbers, booleans, strings and (nested) lists or tuples of them; numpy arrays and
    numpy scalars are not literals (they keep their own element type).
    """
    if isinstance(value, (bool, int, float, str)):
        return True
    if isinstance(value, (list, tuple)):
        return all(is_literal(v) for v in value)
    return False


INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def python_to_array(value: Any, dtype: int | None = None) -> np.ndarray:
    """A numpy array for a Python scalar or (nested) list, with the default element types
    (int -> INT64, float -> FLOAT, bool -> BOOL, str -> STRING), or straight in element type
    ``dtype`` when given (so that 0.1 next to a DOUBLE tensor is the double nearest 0.1,
    not a FLOAT's value widened; the caller has checked that the literal fits ``dtype``,
    see :func:`literal_misfit`). Arrays keep their own element type.

    Exact or refused (:class:`AttributeValueError`): no int outside INT64's range (unless
    ``dtype`` is given), no ragged lists, no strings mixed with numbers, nothing but numbers
    and strings.
    """
    if isinstance(value, (np.ndarray, np.generic)):
        return _checked_array(np.asarray(value))
    _check_items(_flatten(value), value, wide_ints=dtype is not None)
    try:
        if dtype is not None:
            return np.array(value, dtype=dtypes.numpy_dtype(dtype))
        array = np.array(value)
    except OverflowError:
        raise AttributeValueError(
            f"cannot make a tensor from {_short(value)}: a number does not fit in "
            f"{dtypes.dtype_name(dtype)}"
        ) from None
    except ValueError:
        raise AttributeValueError(
            f"cannot make a tensor from {_short(value)}: its nested lists have different lengths"
        ) from None
    if array.dtype.kind == "f":
        array = array.astype(np.float32)
    elif array.dtype.kind in "iu":
        array = array.astype(np.int64)
    elif array.dtype.kind in "UO":
        array = array.astype(object)
    if array.dtype.kind not in "fiubO":
        raise AttributeValueError(f"cannot make a tensor from {value!r}")
    return array


def native_byte_order(array: np.ndarray) -> np.ndarray:
    """``array`` with the same numbers in this machine's byte order (ONNX's tensors and
    onnxruntime take no other)."""
    if array.dtype.isnative:
        return array
    return array.astype(array.dtype.newbyteorder("="))


def _checked_array(array: np.ndarray) -> np.ndarray:
    """A numpy array as ONNX can hold it: native byte order; an object array only of
    strings (or bytes)."""
    array = native_byte_order(array)
    if array.dtype == object:
        for item in array.flat:
            if not isinstance(item, (str, bytes)):
                raise AttributeValueError(
                    f"cannot make a tensor from an object array holding "
                    f"{type(item).__name__} {_short(item)} (only strings)"
                )
    return array


_ITEM_TYPES = (bool, int, float, str, np.number, np.bool_, np.ndarray)


def _check_items(items: list[Any], value: Any, wide_ints: bool = False) -> None:
    for item in items:
        if not isinstance(item, _ITEM_TYPES):
            raise AttributeValueError(
                f"cannot make a tensor from {_short(value)}: it holds "
                f"{type(item).__name__} {_short(item)} (only numbers, booleans and strings)"
            )
    strings = sum(isinstance(item, str) for item in items)
    if 0 < strings < len(items):
        raise AttributeValueError(
            f"cannot make a tensor from {_short(value)}: it mixes strings and numbers"
        )
    if not wide_ints and not any(isinstance(item, (float, np.floating)) for item in items):
        for item in items:
            if type(item) is int and not INT64_MIN <= item <= INT64_MAX:
                raise AttributeValueError(
                    f"the integer {item} does not fit in INT64 (-2**63 to 2**63 - 1)"
                )


def _int_limits(dtype: int) -> tuple[int, int] | None:
    """The range of an integer element type (None for others)."""
    if dtype not in dtypes.INT_TYPES:
        return None
    name = dtypes.dtype_name(dtype)
    bits = int("".join(c for c in name if c.isdigit()))
    if name.startswith("U"):
        return 0, 2**bits - 1
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _flatten(value: Any) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        return [value]
    out: list[Any] = []
    for v in value:
        out.extend(_flatten(v))
    return out


def literal_misfit(value: Any, dtype: int) -> tuple[str, str] | None:
    """Why a literal (a number, string, or nested list of them) cannot take the element
    type ``dtype`` faithfully, as (message, hint); None when it can.

    A non-integral float next to an integer or boolean tensor would be truncated, and
    strings and numbers do not mix.
    """
    values = _flatten(value)
    limits = _int_limits(dtype)
    if limits is not None:
        low, high = limits
        for v in values:
            if type(v) in (int, float) and math.isfinite(v) and not low <= v <= high:
                wider = "INT64" if dtype != dtypes.INT64 and -(2**63) <= v < 2**63 else "DOUBLE"
                return (
                    f"the {'integer' if type(v) is int else 'number'} {v!r} is combined with "
                    f"{dtypes.dtype_name_with_article(dtype)} tensor, "
                    f"whose values range from {low} to {high}",
                    f"cast the tensor to a wider type first, e.g. op.Cast(..., to={wider})",
                )
    if dtype in dtypes.INT_TYPES or dtype == dtypes.BOOL:
        for v in values:
            if isinstance(v, float) and not (math.isfinite(v) and v.is_integer()):
                return (
                    f"the float {v!r} is combined with {dtypes.dtype_name_with_article(dtype)} "
                    "tensor and would be truncated",
                    "ONNX ops need operands of one type: cast the tensor first, e.g. "
                    "op.Cast(..., to=FLOAT)",
                )
    if dtype == dtypes.STRING and any(not isinstance(v, str) for v in values):
        return "a number is combined with a STRING tensor", ""
    if dtype != dtypes.STRING and any(isinstance(v, str) for v in values):
        return f"a string is combined with {dtypes.dtype_name_with_article(dtype)} tensor", ""
    return None


def check_literal_fits(value: Any, dtype: int, where: str) -> None:
    """Raise ``TypeError`` when a literal cannot take element type ``dtype``
    (:func:`literal_misfit`); ``where`` starts the message."""
    misfit = literal_misfit(value, dtype)
    if misfit is not None:
        message, hint = misfit
        raise TypeError(f"{where}: {message}" + (f"; {hint}" if hint else ""))


def describe(value: Any) -> str:
    """A short description of a value for error messages: type, dtype and shape."""
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


def literal_array(value: Any, dtype: int | None, where: str) -> np.ndarray:
    """A literal as an array of element type ``dtype`` (its default type when ``None``).
    Raises ``TypeError`` (message starting with ``where``) when it cannot be one."""
    if dtype is not None:
        check_literal_fits(value, dtype, where)
    try:
        return python_to_array(value, dtype)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"{where}: cannot make a tensor from {describe(value)}: {exc}") from None


def cast_array(array: np.ndarray, dtype: int) -> np.ndarray:
    """``array`` converted to element type ``dtype`` (what an ONNX ``Cast`` does)."""
    target = dtypes.numpy_dtype(dtype)
    if array.dtype == target:
        return array
    return array.astype(target)
