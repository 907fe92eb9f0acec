"""Tensor constants in a form that torch.onnx's recorder, the builder and eager mode all
take as a ``Constant`` value (an ``onnx_ir`` tensor; numpy arrays are not attributes)."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript import opset18 as op


def array_constant(array: np.ndarray) -> Any:
    return op.Constant(value=ir.tensor(array))


def int64_constant(values: Any) -> Any:
    """A constant int64 tensor from (nested) lists of ints."""
    return array_constant(np.asarray(values, dtype=np.int64))


def typed_constant(array: Any, dtype: ir.DataType | int) -> Any:
    """A constant of element type ``dtype`` (an ``ir.DataType`` or its onnx code) from a
    Python number or an array of that type (onnxscript 0.7's ``common.constant``)."""
    return op.Constant(value=ir.tensor(array, dtype=ir.DataType(dtype)))


__all__ = ["array_constant", "int64_constant", "typed_constant"]
