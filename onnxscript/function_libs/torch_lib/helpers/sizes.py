"""Sizes and scalars that may be symbolic.

With dynamic shapes torch.onnx hands an ``int``/``float`` parameter over either as a Python
number or as a rank-0 value (``INT64`` for a ``SymInt``, ``FLOAT`` for a ``SymFloat``,
``BOOL`` for a ``SymBool``), and a size list may mix both (``[2, s0, 64]``). These helpers
turn either form into what the ONNX ops take, keeping Python numbers as numbers so that
static shapes stay constants, and do size arithmetic that folds while both sides are known.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.constants import (
    array_constant,
    int64_constant,
    typed_constant,
)
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.helpers.facts import element_type
from onnxscript.onnx_types import INT64

BIG = 2**63 - 1
"""An end past any dim (Slice clamps it): torch's ``end=None``."""


def is_static(value: Any) -> bool:
    """A number known while tracing (a Python or numpy scalar, not a symbolic value)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, np.ndarray
    )


def all_static(values: Sequence[Any]) -> bool:
    return all(is_static(v) for v in values)


def as_int64(value: Any) -> Any:
    """A static int as a Python int; a symbolic one as an INT64 value."""
    if is_static(value):
        return int(value)
    if element_type(value) == INT64.dtype:
        return value
    return int64_typed(op.Cast(value, to=INT64.dtype))


def int64_typed(value: Any) -> Any:
    """``value``, an INT64 result of size arithmetic, typed as such: torch.onnx's recorder
    leaves the results of ops untyped, and a later :func:`as_int64` would cast them."""
    if isinstance(value, ir.Value) and value.dtype is None:
        value.dtype = ir.DataType.INT64
    return value


def typed_like(value: Any, like: Any) -> Any:
    """``value`` (an op's result) given the element type of ``like`` when it has none and
    ``like``'s is known: torch.onnx's recorder leaves the results of ops untyped, and an
    ATen function reading the type later (``scalar_like``) needs it."""
    dtype = element_type(like)
    if isinstance(value, ir.Value) and value.dtype is None and dtype is not None:
        value.dtype = dtype
    return value


def concat_shape(pieces: Sequence[Any]) -> Any:
    """Pieces of a 1-D INT64 shape (lists of static ints, 1-D INT64 values) as one input:
    the list itself when every piece is a list; else one Concat in which each run of
    adjacent lists is a single constant."""
    if all(isinstance(p, list) for p in pieces):
        return [d for p in pieces for d in p]
    merged: list[Any] = []
    run: list[int] = []
    for piece in pieces:
        if isinstance(piece, list):
            run.extend(piece)
            continue
        if run:
            merged.append(int64_constant(run))
            run = []
        merged.append(piece)
    if run:
        merged.append(int64_constant(run))
    return merged[0] if len(merged) == 1 else int64_typed(op.Concat(*merged, axis=0))


def merge_dims(dims: Sequence[Any]) -> Any:
    """Sizes (ints, rank-0 or 1-D INT64 values) as one 1-D INT64 value: a constant when
    all are static, else a Concat (onnxscript 0.7's ``common.merge_dims``)."""
    shape = concat_shape(size_pieces(dims))
    return int64_constant(shape) if isinstance(shape, list) else shape


def shape_input(size: Any) -> Any:
    """A size list as Reshape, Expand, ConstantOfShape and Tile take it: the list of ints
    when all are static; otherwise one Concat of INT64 pieces, each run of static ints a
    single constant and each symbolic size one element. A 1-D tensor of sizes (not a
    list) is cast to INT64."""
    if not isinstance(size, (list, tuple)):
        return as_int64(size)
    return concat_shape(size_pieces(size))


def size_pieces(size: Sequence[Any]) -> list[Any]:
    """Each size of a list as a :func:`concat_shape` piece: ``[n]`` for a static one, a
    1-element INT64 vector for a symbolic one."""
    return [[int(d)] if is_static(d) else _as_vector(d) for d in size]


def _as_vector(size: Any) -> Any:
    """A symbolic size as a 1-element INT64 vector: the one-dim Shape slice it was
    squeezed from (``sym_size.int``), else a Reshape of it."""
    producer = size.producer() if isinstance(size, ir.Value) else None
    if producer is not None and producer.op_type == "Squeeze" and len(producer.inputs) == 1:
        sliced = producer.inputs[0]
        if sliced is not None and _shape_slice_source(sliced) is not None:
            return int64_typed(sliced)
    return int64_typed(op.Reshape(as_int64(size), [-1]))


def vector_input(value: Any) -> Any:
    """One size (static or symbolic) as a 1-element INT64 vector: ``[n]`` for Slice's
    starts and ends, Range's bounds made 1-D."""
    return shape_input([value])


def scalar_like(value: Any, like: Any) -> Any:
    """A scalar argument (static or symbolic) in the element type of the tensor ``like``:
    a typed constant when both are known while tracing, a Cast when only ``like``'s type
    is, else a CastLike."""
    dtype = element_type(like)
    if dtype is None:
        return op.CastLike(value, like)
    return scalar_as(value, dtype)


def scalar_as(value: Any, dtype: ir.DataType | int) -> Any:
    """A scalar (a number, a rank-0 Constant of one, or a symbolic value) in element type
    ``dtype``: a typed constant when its number is known while tracing, the value itself
    when it has that type, else a Cast."""
    dtype = ir.DataType(dtype)
    number = _scalar_number(value)
    if number is not None:
        return typed_constant(number, dtype)
    if element_type(value) == dtype:
        return value
    return op.Cast(value, to=dtype)


def _scalar_number(value: Any) -> int | float | None:
    if is_static(value):
        return value
    producer = value.producer() if isinstance(value, ir.Value) else None
    if producer is None or producer.op_type != "Constant" or producer.domain != "":
        return None
    attribute = producer.attributes.get("value")
    if attribute is None or attribute.is_ref():
        return None
    array = np.asarray(attribute.value.numpy())
    if array.ndim != 0 or array.dtype.kind not in "biuf":
        return None
    number: int | float = array.item()
    return number


def empty_like(like: Any) -> Any:
    """A 1-D tensor of no elements in the element type of ``like``: a typed constant when
    that type is known while tracing, else a CastLike."""
    dtype = element_type(like)
    if dtype is None:
        return op.CastLike(op.ConstantOfShape([0]), like)
    return array_constant(np.zeros([0], dtype=dtype.numpy()))


def constant_number(value: Any) -> int | float | complex | None:
    """A number known while tracing: a Python number, or the value of a scalar ``Constant``
    torch.onnx made of one (a complex one is a pair of parts there); else None."""
    if is_static(value) or isinstance(value, complex):
        return value
    producer = value.producer() if isinstance(value, ir.Value) else None
    if producer is None or producer.op_type != "Constant" or producer.domain != "":
        return None
    attribute = producer.attributes.get("value")
    if attribute is None:
        return None
    array = np.asarray(attribute.value.numpy())
    if array.size == 1:
        return array.item()
    if array.shape == (2,):
        return complex(array[0], array[1])
    return None


def dim_source(value: Any) -> tuple[Any, int] | None:
    """``(tensor, axis)`` when ``value`` is dim ``axis`` of ``tensor`` read at run time
    (``aten::sym_size.int``: a Gather of its Shape, or a Squeeze of a one-dim Shape
    slice); else None."""
    producer = value.producer() if isinstance(value, ir.Value) else None
    if producer is None or producer.domain != "":
        return None
    if producer.op_type == "Squeeze" and len(producer.inputs) == 1:
        return _shape_slice_source(producer.inputs[0])
    if producer.op_type != "Gather" or producer.attributes.get_int("axis", 0) != 0:
        return None
    shape, index = producer.inputs
    shaped = shape.producer() if shape is not None else None
    if shaped is None or shaped.op_type != "Shape" or shaped.attributes:
        return None
    axis = constant_number(index)
    if not isinstance(axis, int) or shaped.inputs[0] is None:
        return None
    tensor = shaped.inputs[0]
    return (tensor, axis % len(tensor.shape)) if tensor.shape is not None else None


def _shape_slice_source(value: Any) -> tuple[Any, int] | None:
    shaped = value.producer() if isinstance(value, ir.Value) else None
    if shaped is None or shaped.op_type != "Shape" or shaped.inputs[0] is None:
        return None
    tensor = shaped.inputs[0]
    start = shaped.attributes.get_int("start", 0)
    end = shaped.attributes.get_int("end", None)
    if tensor.shape is None or start < 0 or end != start + 1:
        return None
    return tensor, start


def dim_size(self: Any, axis: int) -> Any:
    """Dim ``axis`` of a tensor: an int when torch's shape has it static, else a rank-0
    INT64 value read at run time."""
    known = static_dim(self, axis) if self.shape is not None else None
    if known is not None:
        return known
    end = axis + 1 if axis != -1 else None
    return int64_typed(op.Squeeze(op.Shape(self, start=axis, end=end)))


def shape_of(self: Any) -> Any:
    """The shape of a tensor: a list of ints when torch's shape is static, else the
    run-time INT64 shape."""
    return dims_piece(self, 0, len(self.shape))


def dims_piece(self: Any, start: int, end: int) -> Any:
    """Dims ``start:end`` of a tensor as a :func:`concat_shape` piece: the list of ints
    when they are static, else the run-time slice of its shape."""
    found = [static_dim(self, axis) for axis in range(start, end)]
    if all(d is not None for d in found):
        return [d for d in found if d is not None]
    return int64_typed(op.Shape(self, start=start, end=end))


def _arith(
    a: Any, b: Any, static: Callable[[int, int], int], symbolic: Callable[[Any, Any], Any]
) -> Any:
    if is_static(a) and is_static(b):
        return static(int(a), int(b))
    return int64_typed(symbolic(as_int64(a), as_int64(b)))


def add(a: Any, b: Any) -> Any:
    """``a + b`` of sizes, folded when both are static (and a static 0 added is free)."""
    if is_static(b) and b == 0:
        return as_int64(a)
    if is_static(a) and a == 0:
        return as_int64(b)
    return _arith(a, b, lambda x, y: x + y, op.Add)


def sub(a: Any, b: Any) -> Any:
    if is_static(b) and b == 0:
        return as_int64(a)
    return _arith(a, b, lambda x, y: x - y, op.Sub)


def mul(a: Any, b: Any) -> Any:
    if is_static(b) and b == 1:
        return as_int64(a)
    if is_static(a) and a == 1:
        return as_int64(b)
    return _arith(a, b, lambda x, y: x * y, op.Mul)


def ceil_div(a: Any, b: Any) -> Any:
    """``ceil(a / b)`` of non-negative sizes (ONNX's integer Div truncates, which is the
    floor here)."""
    if is_static(a) and is_static(b):
        return -(-int(a) // int(b))
    return int64_typed(op.Div(add(a, sub(b, 1)), as_int64(b)))


def minimum(a: Any, b: Any) -> Any:
    return _arith(a, b, min, op.Min)


def maximum(a: Any, b: Any) -> Any:
    return _arith(a, b, max, op.Max)


__all__ = [
    "BIG",
    "add",
    "all_static",
    "as_int64",
    "ceil_div",
    "concat_shape",
    "constant_number",
    "dim_size",
    "dims_piece",
    "empty_like",
    "int64_typed",
    "is_static",
    "maximum",
    "merge_dims",
    "minimum",
    "mul",
    "scalar_as",
    "scalar_like",
    "shape_input",
    "shape_of",
    "size_pieces",
    "sub",
    "typed_like",
    "vector_input",
]
