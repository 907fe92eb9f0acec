"""What traced ATen functions read of their (symbolic) inputs: rank, static dims, element
type. Parameters are annotated with tensor types for torch.onnx's sake, but at trace time
they are ``onnx_ir`` values; these accessors say so to the type checker."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript import dtypes


def rank(value: Any) -> int:
    """The number of dims (the rank must be known when tracing)."""
    return len(value.shape)


def dim(value: Any, axis: int) -> int | None:
    """Dim ``axis`` when it is static, else None (also when the shape is unknown: torch's
    recorder gives the values that ops return no shape)."""
    if value.shape is None:
        return None
    found = value.shape[axis]
    return found if isinstance(found, int) else None


def is_empty_vector(value: Any) -> bool:
    """A 1-D tensor of static length 0 (torch's placeholder in ``cat``)."""
    return value.shape is not None and len(value.shape) == 1 and value.shape[0] == 0


def element_type(value: Any) -> ir.DataType | None:
    """The element type of a symbolic value (``ir.DataType``), an array (numpy dtype,
    when the function runs eagerly) or a Python number (its default ONNX type).

    torch's recorder types the values it hands over but not those that ops return, nor the
    ``Constant`` values it makes of Python numbers: a constant's type is read from its
    node."""
    if isinstance(value, bool):
        return ir.DataType.BOOL
    if isinstance(value, int):
        return ir.DataType.INT64
    if isinstance(value, float):
        return ir.DataType.FLOAT
    dtype = getattr(value, "dtype", None)
    if dtype is None:
        return _constant_type(value)
    if isinstance(dtype, ir.DataType):
        return dtype
    return ir.DataType(dtypes.onnx_dtype(np.dtype(dtype)))


def _constant_type(value: Any) -> ir.DataType | None:
    producer = value.producer() if isinstance(value, ir.Value) else None
    if producer is None or producer.op_type != "Constant" or producer.domain != "":
        return None
    attribute = producer.attributes.get("value")
    return attribute.value.dtype if attribute is not None else None


def is_integer(value: Any) -> bool:
    dtype = element_type(value)
    return dtype is not None and dtype.is_integer()


def is_floating(value: Any) -> bool:
    dtype = element_type(value)
    return dtype is not None and dtype.is_floating_point()


def is_bool(value: Any) -> bool:
    return element_type(value) == ir.DataType.BOOL


__all__ = [
    "dim",
    "element_type",
    "is_bool",
    "is_empty_vector",
    "is_floating",
    "is_integer",
    "rank",
]
