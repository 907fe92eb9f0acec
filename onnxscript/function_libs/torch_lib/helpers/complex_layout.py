"""How torch.onnx lays out complex tensors: a complex tensor of shape S is a real tensor
of shape S + [2] holding the real and imaginary parts."""

from __future__ import annotations

from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.facts import rank

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


def cast_to(self: Any, dtype: int) -> Any:
    """``self`` cast to element type ``dtype``; a complex one gives the layout's pair
    (self, 0) of its part type (onnxscript 0.7's ``common.cast_to``)."""
    if is_complex_dtype(dtype):
        return real_to_complex(self, dtype)
    return op.Cast(self, to=dtype)


def parts_constant(value: complex | float) -> Any:
    """A complex number in the layout: the FLOAT vector (re, im)."""
    number = complex(value)
    return op.Constant(value_floats=[number.real, number.imag])


def complex_constant(value: complex | float, dtype: int) -> Any:
    """A complex scalar of ``dtype`` in the layout."""
    return op.Cast(parts_constant(value), to=PART_TYPE[dtype])


def conjugate(z: Any) -> Any:
    """The complex conjugate: (re, -im)."""
    return op.Mul(z, op.CastLike(op.Constant(value_floats=[1.0, -1.0]), z))


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
    "cast_to",
    "complex_axis",
    "complex_constant",
    "conjugate",
    "imag_part",
    "is_complex_dtype",
    "pack",
    "parts_constant",
    "real_part",
    "real_to_complex",
]
