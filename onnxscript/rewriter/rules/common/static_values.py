"""What the structural rules may know statically about a value: its constant contents
(a Constant node's or an initializer's that no caller can override), its dims, and
whether two dims are known to be equal (same size, or the same symbolic name)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import onnx_ir as ir

Dim = int | str | None
"""A dim as the rules compare it: a size, a symbolic name, or None (unknown)."""

INT64_MAX = 2**63 - 1


def constant_array(value: ir.Value | None) -> np.ndarray | None:
    """The contents of ``value`` when it is a constant (not a graph input, which a caller
    could override), else None."""
    if value is None or value.is_graph_input():
        return None
    tensor = ir.convenience.get_const_tensor(value)
    return None if tensor is None else tensor.numpy()


def constant_ints(value: ir.Value | None) -> list[int] | None:
    """A constant integer tensor of rank 0 or 1 as a list, else None."""
    array = constant_array(value)
    if array is None or array.ndim > 1 or array.dtype.kind not in "iu":
        return None
    return [int(i) for i in array.reshape(-1)]


def dims(value: ir.Value | None) -> list[Dim] | None:
    """The dims of ``value`` (sizes, symbolic names or None), None for an unknown rank."""
    if value is None or value.shape is None:
        return None
    return [_dim(d) for d in value.shape]


def static_dims(value: ir.Value | None) -> list[int] | None:
    """The dims of ``value`` when all are known sizes, else None."""
    found = dims(value)
    if found is None or not all(isinstance(d, int) for d in found):
        return None
    return [int(d) for d in found if isinstance(d, int)]


def _dim(d: int | ir.SymbolicDim) -> Dim:
    if isinstance(d, int):
        return d
    return d.value


def same_dim(a: Dim, b: Dim) -> bool:
    """Whether two dims are known to be equal: equal sizes, or the same symbolic name."""
    return a is not None and b is not None and a == b


def same_dims(a: Sequence[Dim], b: Sequence[Dim]) -> bool:
    return len(a) == len(b) and all(same_dim(x, y) for x, y in zip(a, b))


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
    "Dim",
    "attr_float",
    "attr_int",
    "attr_ints",
    "attr_str",
    "constant_array",
    "constant_ints",
    "dims",
    "opset_version",
    "same_dim",
    "same_dims",
    "static_dims",
]
