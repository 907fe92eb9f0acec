"""Dims and shapes as the rules handle them: ``int`` for static dims, ``ir.SymbolicDim``
for named or unknown ones; broadcasting that keeps names."""

from __future__ import annotations

from collections.abc import Sequence

import onnx_ir as ir

from onnxscript.inference import InferenceError
from onnxscript.ir_utils import value_facts

Dim = int | ir.SymbolicDim


def dims(value: ir.Value | None) -> list[Dim] | None:
    """The dims of a tensor ``value``'s shape, or None when its rank is unknown or it is
    not a tensor (``value_facts``: a sequence or an optional has no dims)."""
    if value is None or value.shape is None or not value_facts.is_tensor(value):
        return None
    return list(value.shape.dims)


def unknown() -> ir.SymbolicDim:
    return ir.SymbolicDim(None)


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


def normalize_axis(axis: int, rank: int, op: str, *, end_inclusive: bool = False) -> int:
    """``axis`` of a tensor of rank ``rank`` counted from 0: most ops take an axis in
    ``[-rank, rank - 1]``; ops whose axis may also name the end (Flatten's, in
    ``[-rank, rank]``) say so with ``end_inclusive``. A negative axis counts from the end
    either way: ``axis + rank``."""
    high = rank + 1 if end_inclusive else max(rank, 1)
    if not -rank <= axis < high:
        raise InferenceError(f"axis {axis} is out of range for rank {rank} in {op}")
    return axis + rank if axis < 0 else axis


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
    "dims",
    "normalize_axis",
    "product",
    "unknown",
]
