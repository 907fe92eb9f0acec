"""What a graph says for certain about a value, as passes and rewrite rules read it: one
policy for all of them.

- A *constant* is a value whose tensor no caller can change: a Constant node's output or an
  initializer that is not also a graph input (a graph input with an initializer is a
  default the caller may override, so it is not a constant).
- A *dim* is a number, a symbolic dim, or unknown. Two dims are surely equal when they are
  the same number or symbolic dims of one name (torch names each dim of a dynamic size);
  an unnamed symbolic dim equals nothing, not even itself.
- Reading a constant as an array is bounded by the caller's ``max_size`` where only small
  constants matter (axes, shapes, scalars), so that no rule loads a large weight to look at
  it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import onnx_ir as ir

Dim = int | str | None
"""A dim as the rules compare it: a size, a symbolic name, or None (unknown)."""

INT64_MAX = 2**63 - 1

SMALL_CONSTANT = 4096
"""The size up to which the rules read constants they only combine or compare (scalars,
axes, shapes)."""


# -- constants ------------------------------------------------------------------------


def constant_tensor(value: ir.Value | None) -> ir.TensorProtocol | None:
    """The tensor ``value`` always holds, or None (see the module's policy)."""
    if value is None or value.is_graph_input():
        return None
    return ir.convenience.get_const_tensor(value)


def constant_array(value: ir.Value | None, max_size: int | None = None) -> np.ndarray | None:
    """:func:`constant_tensor` as an array; None when larger than ``max_size``."""
    tensor = constant_tensor(value)
    if tensor is None or (max_size is not None and tensor.size > max_size):
        return None
    return np.asarray(tensor.numpy())


def constant_ints(value: ir.Value | None) -> list[int] | None:
    """The integers of a small constant 0-D or 1-D integer ``value`` (axes, shapes)."""
    array = constant_array(value, SMALL_CONSTANT)
    if array is None or array.ndim > 1 or array.dtype.kind not in "iu":
        return None
    return [int(i) for i in array.ravel()]


def _has_rank(array: np.ndarray, rank: int | Sequence[int] | None) -> bool:
    if rank is None:
        return True
    return array.ndim == rank if isinstance(rank, int) else array.ndim in rank


def singleton(
    value: ir.Value | None, rank: int | Sequence[int] | None = None
) -> int | float | bool | None:
    """The element of a one-element constant (of rank ``rank``, or one of the ranks
    ``rank`` lists, when given) as a Python number, else None."""
    array = constant_array(value, 1)
    if array is None or array.size != 1 or not _has_rank(array, rank):
        return None
    item: int | float | bool = array.item()
    return item


def is_singleton(
    value: ir.Value | None,
    expected: float | Callable[[int | float | bool], bool],
    *,
    rtol: float | None = None,
    rank: int | Sequence[int] | None = None,
) -> bool:
    """Whether ``value`` is a one-element constant equal to ``expected`` (within ``rtol``
    of it when given), or for which ``expected(element)`` holds."""
    element = singleton(value, rank)
    if element is None:
        return False
    if callable(expected):
        return bool(expected(element))
    if rtol is not None:
        return math.isclose(element, expected, rel_tol=rtol)
    return bool(element == expected)


def is_1d_ints(value: ir.Value | None, expected: Sequence[int]) -> bool:
    """Whether ``value`` is a 1-D int64 constant holding ``expected``."""
    if value is None or value.dtype != ir.DataType.INT64:
        return False
    array = constant_array(value, SMALL_CONSTANT)
    return array is not None and array.ndim == 1 and array.tolist() == list(expected)


# -- shapes -----------------------------------------------------------------------------


def rank(value: ir.Value | None) -> int | None:
    """The rank of ``value``, when known."""
    if value is None or value.shape is None:
        return None
    return len(value.shape)


def has_rank(value: ir.Value | None, expected: int) -> bool:
    """Whether ``value`` is known to have rank ``expected``."""
    return rank(value) == expected


def dim(value: ir.Value | None, axis: int) -> int | ir.SymbolicDim | None:
    """Dim ``axis`` of ``value`` (negative counts from the end): a number or a symbolic
    dim; None when the rank is unknown or ``axis`` is out of range."""
    if value is None or value.shape is None:
        return None
    size = len(value.shape)
    if not -size <= axis < size:
        return None
    found: int | ir.SymbolicDim = value.shape[axis]
    return found


def _as_dim(d: object) -> Dim:
    if isinstance(d, (int, np.integer)):
        return int(d)
    if isinstance(d, str) or d is None:
        return d
    name = getattr(d, "value", None)
    return name if isinstance(name, str) else None


def dims(value: ir.Value | None) -> list[Dim] | None:
    """The dims of ``value`` (sizes, symbolic names or None), None for an unknown rank."""
    if value is None or value.shape is None:
        return None
    return [_as_dim(d) for d in value.shape]


def static_dims(value: ir.Value | None) -> list[int] | None:
    """The dims of ``value`` when all are known sizes, else None."""
    found = dims(value)
    if found is None or not all(isinstance(d, int) for d in found):
        return None
    return [d for d in found if isinstance(d, int)]


def same_dim(a: object, b: object) -> bool:
    """Whether two dims (numbers, symbolic dims or their names) are surely equal."""
    left, right = _as_dim(a), _as_dim(b)
    return left is not None and right is not None and left == right


def same_dims(a: Sequence[object], b: Sequence[object]) -> bool:
    return len(a) == len(b) and all(same_dim(x, y) for x, y in zip(a, b))


def same_shape(a: ir.Value | ir.Shape | None, b: ir.Value | ir.Shape | None) -> bool:
    """Whether two values (or shapes) surely have the same shape."""
    left = a.shape if isinstance(a, ir.Value) else a
    right = b.shape if isinstance(b, ir.Value) else b
    if left is None or right is None:
        return False
    return same_dims(list(left), list(right))


def broadcast_keeps_shape(x: ir.Value, other: Sequence[int]) -> bool:
    """Whether broadcasting ``x`` with a tensor of the static shape ``other`` leaves
    ``x``'s shape as it is (a scalar always does)."""
    if not other:
        return True
    if x.shape is None or len(other) > len(x.shape):
        return False
    tail = list(x.shape)[len(x.shape) - len(other) :]
    return all(o == 1 or (isinstance(d, int) and d == o) for o, d in zip(other, tail))


# -- attributes -------------------------------------------------------------------------


def attr_int(node: ir.Node, name: str, default: int) -> int:
    attr = node.attributes.get(name)
    return default if attr is None or attr.is_ref() else int(attr.value)


def attr_float(node: ir.Node, name: str, default: float) -> float:
    attr = node.attributes.get(name)
    return default if attr is None or attr.is_ref() else float(attr.value)


def attr_ints(node: ir.Node, name: str) -> list[int] | None:
    attr = node.attributes.get(name)
    return None if attr is None or attr.is_ref() else [int(i) for i in attr.value]


def attr_str(node: ir.Node, name: str, default: str) -> str:
    attr = node.attributes.get(name)
    return default if attr is None or attr.is_ref() else str(attr.value)


def opset_version(model: ir.Model, domain: str = "") -> int | None:
    return model.opset_imports.get(domain)


__all__ = [
    "INT64_MAX",
    "SMALL_CONSTANT",
    "Dim",
    "attr_float",
    "attr_int",
    "attr_ints",
    "attr_str",
    "broadcast_keeps_shape",
    "constant_array",
    "constant_ints",
    "constant_tensor",
    "dim",
    "dims",
    "has_rank",
    "is_1d_ints",
    "is_singleton",
    "opset_version",
    "rank",
    "same_dim",
    "same_dims",
    "same_shape",
    "singleton",
    "static_dims",
]
