"""Python numbers, lists and arrays passed where an op wants a tensor: the constant tensor,
its cache key and its name."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript import dtypes
from onnxscript.builder.diagnostics import BuilderError
from onnxscript.language import literals

_SCALARS = (bool, int, float, str)


def cache_key(value: Any, dtype: int | None) -> Hashable | None:
    """A key equal for equal literals of the same Python types, or None (not cached).

    Types are part of the key (``1``, ``1.0`` and ``True`` hash alike but differ here).
    """
    if isinstance(value, _SCALARS):
        return (type(value), value, dtype)
    if (
        isinstance(value, (list, tuple))
        and len(value) <= 64
        and all(isinstance(v, _SCALARS) for v in value)
    ):
        return (tuple(type(v) for v in value), tuple(value), dtype)
    return None


def as_array(value: Any, dtype: int | None, where: str) -> np.ndarray:
    """The literal as an array of ``dtype`` (its own default type when None)."""
    if isinstance(value, ir.TensorProtocol):
        value = value.numpy()
    if isinstance(value, np.generic):
        value = np.asarray(value)
    if isinstance(value, np.ndarray):
        return value if dtype is None else literals.cast_array(value, dtype)
    if not literals.is_literal(value):
        raise BuilderError(
            f"{where}: expected an ir.Value, a number, a list of numbers or an array, got "
            f"{literals.describe(value)}"
        )
    return literals.literal_array(value, dtype, where)


def constant_name(value: Any, array: np.ndarray) -> str:
    """``const_1.0_f32``, ``const_[1,2,3]_i64``, ``const_[10,20,...]_i64``."""
    code = dtypes.onnx_dtype(array.dtype)
    suffix = ir.DataType(code).short_name()
    if isinstance(value, _SCALARS):
        return f"const_{value}_{suffix}"
    if isinstance(value, (list, tuple)) and all(isinstance(v, _SCALARS) for v in value):
        shown = [str(v) for v in value[:3]] if len(value) <= 3 else [*map(str, value[:2]), "..."]
        return f"const_[{','.join(shown)}]_{suffix}"
    return f"const_{suffix}_{'x'.join(map(str, array.shape)) or 'scalar'}"


__all__ = ["as_array", "cache_key", "constant_name"]
