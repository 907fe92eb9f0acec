"""How torch.onnx lays out complex tensors: a complex tensor of shape S is a real tensor
of shape S + [2] holding the real and imaginary parts."""

from __future__ import annotations

from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.ops.facts import rank

PART_TYPE = {14: 1, 15: 11}
"""The element type of the parts of each complex type (COMPLEX64: FLOAT, COMPLEX128:
DOUBLE)."""


def is_complex_dtype(dtype: int | None) -> bool:
    return dtype in PART_TYPE


def real_to_complex(self: Any, dtype: int) -> Any:
    """A real tensor as a complex one of ``dtype``: the parts (self, 0)."""
    real = op.Unsqueeze(op.Cast(self, to=PART_TYPE[dtype]), [-1])
    count = rank(self) + 1
    return op.Pad(real, [0] * count + [0] * (count - 1) + [1])


def complex_constant(value: complex | float, dtype: int) -> Any:
    """A complex scalar of ``dtype`` in the layout: the vector (re, im)."""
    number = complex(value)
    parts = op.Constant(value_floats=[number.real, number.imag])
    return op.Cast(parts, to=PART_TYPE[dtype])


def real_part(z: Any) -> Any:
    return op.Squeeze(op.Slice(z, [0], [1], [-1]), [-1])


def imag_part(z: Any) -> Any:
    return op.Squeeze(op.Slice(z, [1], [2], [-1]), [-1])


def pack(real: Any, imag: Any) -> Any:
    """The complex tensor with these parts."""
    return op.Concat(op.Unsqueeze(real, [-1]), op.Unsqueeze(imag, [-1]), axis=-1)


def complex_axis(self: Any, dim: int) -> int:
    """An ATen dim of a complex tensor as an axis of its layout."""
    return dim % (rank(self) - 1)


__all__ = [
    "PART_TYPE",
    "complex_axis",
    "complex_constant",
    "imag_part",
    "is_complex_dtype",
    "pack",
    "real_part",
    "real_to_complex",
]
