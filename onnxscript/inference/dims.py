"""Dims and shapes as the rules handle them: ``int`` for static dims, ``ir.SymbolicDim``
for named or unknown ones; broadcasting that keeps names."""

from __future__ import annotations

from collections.abc import Sequence

import onnx_ir as ir

from onnxscript.inference import InferenceError

Dim = int | ir.SymbolicDim


def dims(value: ir.Value | None) -> list[Dim] | None:
    """The dims of ``value``'s shape, or None when its rank is unknown."""
    if value is None or value.shape is None:
        return None
    return list(value.shape.dims)


def unknown() -> ir.SymbolicDim:
    return ir.SymbolicDim(None)


def is_known(dim: Dim) -> bool:
    return isinstance(dim, int) or dim.value is not None


def broadcast_dim(a: Dim, b: Dim) -> Dim:
    """The dim of a broadcast result: equal dims stay, 1 yields to the other, a static
    dim above 1 wins over a symbolic one (which must then equal it or be 1)."""
    if a == b:
        return a
    if isinstance(a, int) and isinstance(b, int):
        if a == 1:
            return b
        if b == 1:
            return a
        raise InferenceError(f"shapes cannot broadcast: dims {a} and {b}")
    if isinstance(a, int):
        return b if a == 1 else a
    if isinstance(b, int):
        return a if b == 1 else b
    return unknown()


def broadcast(shapes: Sequence[list[Dim] | None]) -> list[Dim] | None:
    """Numpy-style broadcast of several shapes (None if any rank is unknown)."""
    result: list[Dim] = []
    for shape in shapes:
        if shape is None:
            return None
        if len(shape) > len(result):
            result = [*shape[: len(shape) - len(result)], *result]
        offset = len(result) - len(shape)
        for i, dim in enumerate(shape):
            result[offset + i] = broadcast_dim(result[offset + i], dim)
    return result


def normalize_axis(axis: int, rank: int, op: str) -> int:
    if not -rank <= axis < max(rank, 1):
        raise InferenceError(f"axis {axis} is out of range for rank {rank} in {op}")
    return axis + rank if axis < 0 else axis


CONST_INTS_LIMIT = 1024
"""The most elements a constant read as a list of ints (a shape, axes, sizes) has; a
bigger tensor is not read (it is not such a list, and may be a large weight)."""


def const_ints(value: ir.Value | None) -> list[int] | None:
    """The content of a constant integer input, or None when it is not known (or has
    more than ``CONST_INTS_LIMIT`` elements)."""
    if value is None or value.const_value is None or value.const_value.size > CONST_INTS_LIMIT:
        return None
    try:
        return [int(v) for v in value.const_value.numpy().reshape(-1)]
    except (TypeError, ValueError):
        return None


def product(values: Sequence[Dim]) -> int | None:
    total = 1
    for dim in values:
        if not isinstance(dim, int):
            return None
        total *= dim
    return total


__all__ = [
    "Dim",
    "broadcast",
    "broadcast_dim",
    "const_ints",
    "dims",
    "is_known",
    "normalize_axis",
    "product",
    "unknown",
]
