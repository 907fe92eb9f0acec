"""0.7.2's module path for the facts rules read off values, under 0.7.2's names: one
policy with our own rules (:mod:`onnxscript.ir_utils.value_facts`: a graph input with an
initializer is not a constant; an unnamed symbolic dim equals no other dim)."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.display import display_nodes, display_slice
from onnxscript.ir_utils.value_facts import constant_array, has_rank, same_dim, same_shape
from onnxscript.ir_utils.value_facts import constant_tensor as get_const_value
from onnxscript.ir_utils.value_facts import dim as get_dim
from onnxscript.ir_utils.value_facts import is_1d_ints as is_1d_value
from onnxscript.ir_utils.value_facts import is_singleton as is_singleton_value
from onnxscript.ir_utils.value_facts import singleton as get_singleton_value


def get_numpy_value(val: ir.Value | None) -> np.ndarray | None:
    """The contents of a constant ``val`` as an array, whatever its size (0.7.2 reads
    without a limit), or None."""
    return constant_array(val, max_size=None)


__all__ = [
    "display_nodes",
    "display_slice",
    "get_const_value",
    "get_dim",
    "get_numpy_value",
    "get_singleton_value",
    "has_rank",
    "is_1d_value",
    "is_singleton_value",
    "same_dim",
    "same_shape",
]
