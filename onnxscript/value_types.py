"""Types of IR values: tensors, sequences and optionals, as immutable plain data."""

from __future__ import annotations

from dataclasses import dataclass

Dim = int | str | None
"""One dimension: a static size, a symbolic name, or unknown."""


@dataclass(frozen=True)
class TensorTypeSpec:
    """A tensor with an element type (onnx ``TensorProto.DataType``) and a shape.

    ``dtype`` is ``None`` when the element type is unknown; ``shape`` is ``None`` when the
    rank is unknown, and a tuple of dims otherwise (``()`` for a scalar).
    """

    dtype: int | None
    shape: tuple[Dim, ...] | None = None


@dataclass(frozen=True)
class SequenceTypeSpec:
    """An ONNX sequence whose elements have type ``elem``."""

    elem: TypeSpec


@dataclass(frozen=True)
class OptionalTypeSpec:
    """An ONNX optional wrapping a value of type ``elem``."""

    elem: TypeSpec


TypeSpec = TensorTypeSpec | SequenceTypeSpec | OptionalTypeSpec

_ELEMENT_ONLY: dict[int, TensorTypeSpec] = {}


def element_type(dtype: int) -> TensorTypeSpec:
    """The (shared, immutable) type of a tensor with element type ``dtype`` and any shape."""
    spec = _ELEMENT_ONLY.get(dtype)
    if spec is None:
        spec = _ELEMENT_ONLY[dtype] = TensorTypeSpec(dtype, None)
    return spec
