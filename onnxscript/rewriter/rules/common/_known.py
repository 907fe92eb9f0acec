"""What the graph says for certain about a value, as the simplification rules read it:
its constant array (never a graph input's, which a caller may override), its rank and
dims (a symbolic dim equals another only when both have the same name: torch names each
dim of a dynamic size), and whether broadcasting it with a constant keeps its shape."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx_ir as ir

_MAX_FOLDED_SIZE = 4096
"""Constants larger than this are not read (rules only combine small ones)."""


def constant_array(value: ir.Value | None, max_size: int = _MAX_FOLDED_SIZE) -> np.ndarray | None:
    """The array ``value`` always holds (an initializer that is no graph input, or a
    Constant node's output), or None."""
    if value is None or value.is_graph_input():
        return None
    tensor = ir.convenience.get_const_tensor(value)
    if tensor is None or tensor.size > max_size:
        return None
    return np.asarray(tensor.numpy())


def constant_ints(value: ir.Value | None) -> list[int] | None:
    """The integers of a constant 0-D or 1-D integer ``value`` (axes, shapes), or None."""
    array = constant_array(value)
    if array is None or array.ndim > 1 or array.dtype.kind not in "iu":
        return None
    return [int(i) for i in array.ravel()]


def rank(value: ir.Value | None) -> int | None:
    """The rank of ``value``, when known."""
    if value is None or value.shape is None:
        return None
    return len(value.shape)


def static_dims(value: ir.Value | None) -> list[int] | None:
    """The dims of ``value`` when all are known numbers, else None."""
    if value is None or value.shape is None:
        return None
    dims = [d for d in value.shape if isinstance(d, int)]
    return dims if len(dims) == len(value.shape) else None


def same_dim(a: object, b: object) -> bool:
    """Whether two dims are surely equal: the same number, or symbolic dims of one name."""
    if isinstance(a, int) or isinstance(b, int):
        return a == b
    name = getattr(a, "value", None)
    return name is not None and name == getattr(b, "value", None)


def same_shape(a: ir.Value, b: ir.Value) -> bool:
    """Whether ``a`` and ``b`` surely have the same shape."""
    if a.shape is None or b.shape is None or len(a.shape) != len(b.shape):
        return False
    return all(same_dim(x, y) for x, y in zip(a.shape, b.shape))


def broadcast_keeps_shape(x: ir.Value, other: Sequence[int]) -> bool:
    """Whether broadcasting ``x`` with a tensor of the static shape ``other`` leaves
    ``x``'s shape as it is (a scalar always does)."""
    if not other:
        return True
    if x.shape is None or len(other) > len(x.shape):
        return False
    tail = list(x.shape)[len(x.shape) - len(other) :]
    return all(o == 1 or (isinstance(d, int) and d == o) for o, d in zip(other, tail))


__all__ = [
    "broadcast_keeps_shape",
    "constant_array",
    "constant_ints",
    "rank",
    "same_dim",
    "same_shape",
    "static_dims",
]
