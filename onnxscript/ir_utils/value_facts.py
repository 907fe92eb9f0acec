"""What a graph says for certain about an onnx_ir value: the one policy every pass, rule,
fusion, inference rule and version-converter adapter reads values through.

**Constants.** A value is a *constant* when no caller of the model can change its
tensor: the output of a ``Constant`` node of the standard domain (any of its ``value*``
attributes; one that refers to a function attribute is not known) or an initializer that
is not also a graph input. A graph input with an initializer is a default the caller may
override, so it is not a constant, whatever its data says. A ``Constant`` node that does
not follow the spec (no attribute, a sparse one, several) is not a constant either: the
facts never raise on a malformed node, they know less.

**Reading contents.** Reading a constant copies its data (from disk for external data),
so it is bounded: :data:`READ_LIMIT` elements by default. That covers what the rules
read to decide (shapes, axes, pads, starts / ends / steps, split sizes, scalars, one
axis's indices) with room to spare, and no weight of a real model: a rule never loads a
weight by accident to look at it. A caller that needs a large constant (folding a
BatchNorm into a Conv's weight, constant folding with its own size limits, a fusion
reading a cos / sin table) says so with ``max_size=`` (a number, or None for no limit).

**Dims.** A dim is a number, a symbolic dim, or unknown. Two dims are surely equal when
they are the same number or symbolic dims of one name (torch names each dim of a dynamic
size); an unnamed symbolic dim equals nothing, not even itself.

**Values that are not tensors.** Facts about element types, ranks and dims are facts
about tensors: a value whose type is a sequence or an optional has none (``rank``,
``dims``, ``tensor_dtype`` answer None; onnx_ir would answer with the element type's),
and it is never a constant. A string tensor can be a constant (:func:`constant_tensor`,
:func:`constant_array` give its bytes); the numeric readers (:func:`constant_ints`,
:func:`singleton`, :func:`constant_float`) refuse it with None. :func:`tensor_of` makes
the tensor of an array, strings included, in the form onnx_ir can serialize.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import onnx_ir as ir

Dim = int | str | None
"""A dim as the rules compare it: a size, a symbolic name, or None (unknown)."""

INT64_MAX = 2**63 - 1

READ_LIMIT = 4096
"""The most elements a constant is read with unless the caller asks for more (see the
module's policy): 32 KiB of int64, more than any shape, axes or per-axis index list, less
than a weight."""

FLOAT_TYPES = frozenset(
    {ir.DataType.FLOAT, ir.DataType.FLOAT16, ir.DataType.BFLOAT16, ir.DataType.DOUBLE}
)
"""The floating-point element types the fusions take."""

_NUMERIC_KINDS = frozenset("biuf")


# -- types ------------------------------------------------------------------------------


def is_tensor(value: ir.Value | None) -> bool:
    """Whether ``value`` may be a tensor: its type is a tensor type, or unknown (a value
    known to be a sequence or an optional is not)."""
    if value is None:
        return False
    return value.type is None or isinstance(value.type, ir.TensorType)


def _tensor_shape(value: ir.Value | None) -> ir.Shape | None:
    if value is None:
        return None
    shape, value_type = value.shape, value.type  # is_tensor, inlined: rules call it often
    if shape is None or (value_type is not None and not isinstance(value_type, ir.TensorType)):
        return None
    return shape


def tensor_dtype(value: ir.Value | None) -> ir.DataType | None:
    """The element type of a tensor ``value``; None when unknown or not a tensor."""
    if value is None or not isinstance(value.type, ir.TensorType):
        return None
    return value.type.dtype


def is_float(value: ir.Value | None) -> bool:
    """Whether ``value`` is a tensor of one of :data:`FLOAT_TYPES`."""
    return tensor_dtype(value) in FLOAT_TYPES


# -- constants ------------------------------------------------------------------------


def constant_tensor(value: ir.Value | None) -> ir.TensorProtocol | None:
    """The tensor ``value`` always holds, or None (see the module's policy)."""
    if value is None or value.is_graph_input():
        return None
    value_type = value.type  # is_tensor, inlined: rules call it often
    if value_type is not None and not isinstance(value_type, ir.TensorType):
        return None
    if value.const_value is not None:
        return value.const_value
    node = value.producer()
    if node is None or node.op_type != "Constant" or node.domain not in ("", "ai.onnx"):
        return None
    return _constant_node_tensor(node)


def _constant_node_tensor(node: ir.Node) -> ir.TensorProtocol | None:
    """The tensor a standard ``Constant`` node outputs, or None when its attribute is a
    reference or it does not follow the spec."""
    if len(node.outputs) != 1 or len(node.attributes) != 1:
        return None
    (name, attr), output = next(iter(node.attributes.items())), node.outputs[0]
    if attr.is_ref():
        return None
    if name == "value":
        if attr.type != ir.AttributeType.TENSOR:
            return None
        # not attr.as_tensor(): its isinstance check against the runtime protocol costs
        # ~80 us, and every Constant of a model is read here
        tensor: ir.TensorProtocol = attr.value
        return tensor
    if name in ("value_int", "value_ints"):
        return ir.Tensor(np.array(attr.value, dtype=np.int64), name=output.name)
    if name in ("value_float", "value_floats"):
        return ir.Tensor(np.array(attr.value, dtype=np.float32), name=output.name)
    if name == "value_string":
        return tensor_of(np.array(attr.value, dtype=object), output.name)
    if name == "value_strings":
        return tensor_of(np.array(list(attr.value), dtype=object), output.name)
    return None  # sparse_value, or an attribute the spec does not have


def constant_array(value: ir.Value | None, max_size: int | None = READ_LIMIT) -> np.ndarray | None:
    """:func:`constant_tensor` as an array; None when it has more than ``max_size``
    elements (None: any size) or its data cannot be read. A string tensor is an array of
    bytes objects."""
    tensor = constant_tensor(value)
    if tensor is None or (max_size is not None and tensor.size > max_size):
        return None
    try:
        return np.asarray(tensor.numpy())
    except (OSError, ValueError):  # external data that is not there, or unreadable
        return None


def _numeric(value: ir.Value | None, max_size: int | None) -> np.ndarray | None:
    array = constant_array(value, max_size)
    return array if array is not None and array.dtype.kind in _NUMERIC_KINDS else None


def constant_ints(value: ir.Value | None, max_size: int | None = READ_LIMIT) -> list[int] | None:
    """The integers of a constant 0-D or 1-D integer ``value`` (axes, shapes, sizes); None
    for anything else (another rank, another type, too big)."""
    array = _numeric(value, max_size)
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
    """The element of a one-element numeric constant (of rank ``rank``, or one of the
    ranks ``rank`` lists, when given) as a Python number, else None."""
    array = _numeric(value, 1)
    if array is None or array.size != 1 or not _has_rank(array, rank):
        return None
    item: int | float | bool = array.item()
    return item


def constant_float(value: ir.Value | None) -> float | None:
    """The number held by a one-element numeric constant, as a float; else None."""
    found = singleton(value)
    return None if found is None else float(found)


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
    if tensor_dtype(value) != ir.DataType.INT64:
        return False
    array = constant_array(value)
    return array is not None and array.ndim == 1 and array.tolist() == list(expected)


def tensor_of(array: np.ndarray, name: str | None = None) -> ir.TensorProtocol:
    """``array`` as a tensor onnx_ir can serialize: a string array (bytes or str) as a
    ``StringTensor``, anything else as a ``Tensor``."""
    array = np.asarray(array)
    if array.dtype.kind in "SUO":
        data = [s.encode() if isinstance(s, str) else s for s in array.ravel().tolist()]
        strings = np.array(data, dtype=object).reshape(array.shape)
        return ir.StringTensor(strings, name=name)
    return ir.tensor(array, name=name)


def basic_constant_propagation(nodes: Iterable[ir.Node]) -> None:
    """Give the outputs of standard ``Constant`` nodes their tensor (``const_value``), type
    and shape, so that everything reading ``const_value`` sees them as constants."""
    for node in nodes:
        if node.op_type != "Constant" or node.domain not in ("", "ai.onnx"):
            continue
        out = node.outputs[0] if len(node.outputs) == 1 else None
        if out is None or out.const_value is not None:
            continue
        tensor = _constant_node_tensor(node)
        if tensor is not None:
            out.const_value = tensor
            out.type = ir.TensorType(tensor.dtype)
            out.shape = ir.Shape(tensor.shape.numpy())


# -- shapes -----------------------------------------------------------------------------


def rank(value: ir.Value | None) -> int | None:
    """The rank of a tensor ``value``, when known."""
    shape = _tensor_shape(value)
    return None if shape is None else len(shape)


def has_rank(value: ir.Value | None, expected: int) -> bool:
    """Whether ``value`` is known to have rank ``expected``."""
    return rank(value) == expected


def dim(value: ir.Value | None, axis: int) -> int | ir.SymbolicDim | None:
    """Dim ``axis`` of a tensor ``value`` (negative counts from the end): a number or a
    symbolic dim; None when the rank is unknown or ``axis`` is out of range."""
    shape = _tensor_shape(value)
    if shape is None or not -len(shape) <= axis < len(shape):
        return None
    found: int | ir.SymbolicDim = shape[axis]
    return found


def static_dim(value: ir.Value | None, axis: int) -> int | None:
    """Dim ``axis`` of ``value`` when it is a known size, else None."""
    found = dim(value, axis)
    return found if isinstance(found, int) else None


def _as_dim(d: object) -> Dim:
    if isinstance(d, (int, np.integer)):
        return int(d)
    if isinstance(d, str) or d is None:
        return d
    name = getattr(d, "value", None)
    return name if isinstance(name, str) else None


def dims(value: ir.Value | None) -> list[Dim] | None:
    """The dims of ``value`` (sizes, symbolic names or None), None for an unknown rank."""
    shape = _tensor_shape(value)
    return None if shape is None else [_as_dim(d) for d in shape]


def static_dims(value: ir.Value | None) -> list[int] | None:
    """The dims of ``value`` when all are known sizes, else None."""
    found = dims(value)
    if found is None or not all(isinstance(d, int) for d in found):
        return None
    return [d for d in found if isinstance(d, int)]


def is_known_dim(d: object) -> bool:
    """Whether ``d`` is a size or a named symbolic dim (an unnamed one says nothing)."""
    return _as_dim(d) is not None


def same_dim(a: object, b: object) -> bool:
    """Whether two dims (numbers, symbolic dims or their names) are surely equal."""
    left, right = _as_dim(a), _as_dim(b)
    return left is not None and right is not None and left == right


def same_dim_at(a: ir.Value | None, a_axis: int, b: ir.Value | None, b_axis: int) -> bool:
    """Whether dim ``a_axis`` of ``a`` and dim ``b_axis`` of ``b`` are surely equal."""
    return same_dim(dim(a, a_axis), dim(b, b_axis))


def same_dims(a: Sequence[object], b: Sequence[object]) -> bool:
    return len(a) == len(b) and all(same_dim(x, y) for x, y in zip(a, b))


def same_shape(a: ir.Value | ir.Shape | None, b: ir.Value | ir.Shape | None) -> bool:
    """Whether two tensor values (or shapes) surely have the same shape."""
    left = _tensor_shape(a) if isinstance(a, ir.Value) else a
    right = _tensor_shape(b) if isinstance(b, ir.Value) else b
    if left is None or right is None:
        return False
    return same_dims(list(left), list(right))


def broadcast_keeps_shape(x: ir.Value, other: Sequence[int]) -> bool:
    """Whether broadcasting ``x`` with a tensor of the static shape ``other`` leaves
    ``x``'s shape as it is (a scalar always does)."""
    if not other:
        return True
    shape = _tensor_shape(x)
    if shape is None or len(other) > len(shape):
        return False
    tail = list(shape)[len(shape) - len(other) :]
    return all(o == 1 or (isinstance(d, int) and d == o) for o, d in zip(other, tail))


# -- attributes and uses ----------------------------------------------------------------


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


def producer_attr_int(value: ir.Value, name: str, default: int) -> int:
    """Integer attribute ``name`` of the node computing ``value`` (``default`` for a value
    no node computes, or a node without it)."""
    producer = value.producer()
    return default if producer is None else attr_int(producer, name, default)


def unused(values: Iterable[ir.Value]) -> bool:
    """Whether no node and no graph output reads any of ``values``."""
    return all(not v.uses() and not v.is_graph_output() for v in values)


def cast_target(node: ir.Node) -> ir.DataType | None:
    """The element type a Cast converts to: ``to`` is a type code, or before opset 6 a
    type name (``"FLOAT"``); None when absent, a reference or not a type."""
    attr = node.attributes.get("to")
    if attr is None or attr.is_ref():
        return None
    try:
        if attr.type == ir.AttributeType.STRING:
            return ir.DataType[str(attr.value).upper()]
        return ir.DataType(int(attr.value))
    except (KeyError, TypeError, ValueError):
        return None


def opset_version(model: ir.Model, domain: str = "") -> int | None:
    return model.opset_imports.get(domain)


__all__ = [
    "FLOAT_TYPES",
    "INT64_MAX",
    "READ_LIMIT",
    "Dim",
    "attr_float",
    "attr_int",
    "attr_ints",
    "attr_str",
    "basic_constant_propagation",
    "broadcast_keeps_shape",
    "cast_target",
    "constant_array",
    "constant_float",
    "constant_ints",
    "constant_tensor",
    "dim",
    "dims",
    "has_rank",
    "is_1d_ints",
    "is_float",
    "is_known_dim",
    "is_singleton",
    "is_tensor",
    "opset_version",
    "producer_attr_int",
    "rank",
    "same_dim",
    "same_dim_at",
    "same_dims",
    "same_shape",
    "singleton",
    "static_dim",
    "static_dims",
    "tensor_dtype",
    "tensor_of",
    "unused",
]
