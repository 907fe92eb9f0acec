"""Readable descriptions and schema type strings of eager values, for error messages and
type checks."""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxscript.dtypes import onnx_dtype, type_string
from onnxscript.language.literals import describe as describe_literal


def describe(value: Any) -> str:
    """A short description of a value for error messages: type, dtype and shape."""
    from onnxscript.evaluator.tensor import Tensor

    if isinstance(value, Tensor):
        return f"Tensor of {value.value.dtype} with shape {tuple(value.value.shape)}"
    return describe_literal(value)


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
