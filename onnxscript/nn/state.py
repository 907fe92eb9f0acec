"""Values a state dict may hold, as ``onnx_ir`` tensors checked against a parameter.

``load_state_dict`` accepts what a PyTorch user has at hand: ``onnx_ir`` tensors, numpy
arrays (and anything ``numpy.asarray`` takes) and torch tensors (converted through
``onnx_ir.tensor``, so torch is never imported here). A value of another element type is
cast, as ``torch.nn.Module.load_state_dict`` copies into the parameter's type; a value of
another shape is refused.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.errors import OnnxScriptError


class StateDictError(OnnxScriptError, KeyError, ValueError):
    """A state dict that does not fit the module: a missing or unknown key (a
    ``KeyError``), or a value of the wrong shape or of no tensor type (a ``ValueError``)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def as_tensor(value: Any, key: str) -> ir.TensorProtocol:
    """``value`` as an ``onnx_ir`` tensor (a tensor given is kept as it is)."""
    if isinstance(value, ir.TensorProtocol) and not isinstance(value, np.ndarray):
        return value
    if type(value).__module__.startswith("torch"):
        return ir.tensor(value.detach().cpu().contiguous())
    try:
        array = np.asarray(value)
    except Exception as error:
        raise StateDictError(
            f"state_dict[{key!r}] is a {type(value).__name__}, not a tensor: give an onnx_ir "
            f"tensor, a numpy array or a torch tensor ({error})"
        ) from None
    if array.dtype == object:
        raise StateDictError(
            f"state_dict[{key!r}] is a {type(value).__name__} that is not a tensor: give an "
            "onnx_ir tensor, a numpy array or a torch tensor"
        )
    return ir.tensor(array)


def fitted(
    value: Any, key: str, shape: ir.Shape | None, dtype: ir.DataType | None
) -> ir.TensorProtocol:
    """``value`` as a tensor of the parameter's shape and element type (cast if needed)."""
    tensor = as_tensor(value, key)
    if shape is not None and tensor.shape.dims != shape.dims:
        raise StateDictError(
            f"state_dict[{key!r}] has shape {list(tensor.shape.dims)} but the parameter "
            f"has shape {list(shape.dims)}"
        )
    if dtype is not None and tensor.dtype != dtype:
        tensor = ir.tensor(tensor.numpy().astype(dtype.numpy()), dtype=dtype)
    return tensor


__all__ = ["StateDictError", "as_tensor", "fitted"]
