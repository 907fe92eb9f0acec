"""Nodes the script compiler adds on its own, recognised when models are read back.

A ``for`` loop that can stop early gets a constant ``true`` initial condition, and a
``while`` condition is reshaped to a scalar with ``Reshape(c, [])`` (an empty INT64 shape).
The reverse translator writes such nodes back as plain loop statements, and the canonical
comparison of ``onnxscript.testing`` treats them as absent; both recognise them here.
"""

from __future__ import annotations

import math

import onnx
import onnx.numpy_helper


def is_true_scalar(tensor: onnx.TensorProto) -> bool:
    """Whether ``tensor`` is a one-element BOOL tensor holding ``true``."""
    if tensor.data_type != onnx.TensorProto.BOOL or math.prod(tensor.dims) != 1:
        return False
    try:
        return bool(onnx.numpy_helper.to_array(tensor).all())
    except Exception:  # malformed data in an untrusted model
        return False


def is_scalar_shape(tensor: onnx.TensorProto) -> bool:
    """Whether ``tensor`` is the empty INT64 shape, which reshapes to a scalar."""
    return tensor.data_type == onnx.TensorProto.INT64 and list(tensor.dims) == [0]
