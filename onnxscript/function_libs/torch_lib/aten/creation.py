"""Tensors made from sizes and values: full, zeros, ones (and their ``new_``/``_like``
forms), empty, fill, arange, linspace, scalar_tensor and random tensors. Sizes and fill
values may be symbolic (rank-0 values torch.onnx hands over for ``SymInt``/``SymFloat``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

import numpy as np
import onnx_ir as ir

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.helpers.complex_layout import (
    PART_TYPE,
    complex_constant,
    is_complex_dtype,
)
from onnxscript.function_libs.torch_lib.helpers.constants import array_constant
from onnxscript.function_libs.torch_lib.helpers.facts import element_type, is_integer, rank
from onnxscript.function_libs.torch_lib.helpers.sizes import (
    concat_shape,
    constant_number,
    dims_piece,
    is_static,
    scalar_as,
    shape_input,
    shape_of,
    vector_input,
)
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import INT64, TAnyTensor
from onnxscript.onnx_types import (
    BOOL,
    DOUBLE,
    FLOAT,
    FLOAT16,
    INT8,
    INT16,
    INT32,
    UINT8,
    TensorType,
)

# A fill value or a bound is an input with its own type variable: a Python number keeps
# its own type (torch.onnx makes a constant of it: 1 an INT64, 0.5 a FLOAT) and a symbolic
# one its own, instead of taking a partner's.
TFill = TypeVar("TFill", BOOL, INT64, FLOAT, DOUBLE)
TStart = TypeVar("TStart", INT64, FLOAT, DOUBLE)
TEnd = TypeVar("TEnd", INT64, FLOAT, DOUBLE)
TStep = TypeVar("TStep", INT64, FLOAT, DOUBLE)
TValue = TypeVar("TValue", bound=TensorType)

_CONSTANT_OF_SHAPE_TYPES = {
    t.dtype for t in (BOOL, FLOAT16, FLOAT, DOUBLE, INT8, INT16, INT32, INT64, UINT8)
}
"""Element types ConstantOfShape (opset 18) fills with (the common ones)."""

_COMPLEX_OF_PART = {part: complex_type for complex_type, part in PART_TYPE.items()}


def _dtype(dtype: int, default: Any) -> int:
    return int(default) if dtype in (-1, None) else dtype


def _filled(shape: Any, value: Any, dtype: int) -> Any:
    """A tensor of ``shape`` (a list of static or symbolic sizes, or a 1-D INT64 shape)
    filled with ``value`` (a number, or a symbolic scalar) as element type ``dtype``
    (a complex type in torch.onnx's layout of parts on a last axis)."""
    if is_complex_dtype(dtype):
        return _complex_filled(shape, value, dtype)
    target = shape_input(shape) if isinstance(shape, (list, tuple)) else shape
    number = constant_number(value)
    if number is not None and not isinstance(number, complex):
        if dtype in _CONSTANT_OF_SHAPE_TYPES:
            return op.ConstantOfShape(target, value=ir.tensor([number], dtype=ir.DataType(dtype)))
        value = number
    filler = value if element_type(value) == dtype else op.Cast(value, to=dtype)
    return op.Expand(filler, target)


def _complex_filled(shape: Any, value: Any, dtype: int) -> Any:
    """``_filled`` for a complex dtype: the shape gets the parts axis, the value (complex
    or real) becomes its (re, im) pair."""
    if isinstance(shape, (list, tuple)):
        target = shape_input([*shape, 2])
    else:
        target = concat_shape([shape, [2]])
    number = constant_number(value)
    if number is not None:
        parts = complex_constant(number, dtype)
    else:  # a symbolic real number: (value, 0)
        real = op.Unsqueeze(op.Cast(value, to=PART_TYPE[dtype]), [0])
        parts = op.Pad(real, [0, 1])
    return op.Expand(parts, target)


@aten("aten::full")
def full(
    size: Sequence[int],
    fill_value: TFill,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    Without a dtype the fill value's type decides, as in torch (1 fills INT64, 0.5
    FLOAT, True BOOL); a complex number fills COMPLEX64."""
    if dtype in (-1, None):
        number = constant_number(fill_value)
        found = element_type(fill_value)
        if isinstance(number, complex):
            dtype = _COMPLEX_OF_PART[FLOAT.dtype]
        else:
            dtype = int(found) if found is not None else FLOAT.dtype
    return _filled(size, fill_value, dtype)


@aten("aten::zeros")
def zeros(
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 0, _dtype(dtype, FLOAT.dtype))


@aten("aten::ones")
def ones(
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 1, _dtype(dtype, FLOAT.dtype))


@aten("aten::empty.memory_format")
def empty(
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TensorType:
    """empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor

    Zeros: an empty tensor's content is undefined, and zeros are one valid content.
    """
    return _filled(size, 0, _dtype(dtype, FLOAT.dtype))


@aten("aten::empty_strided")
def empty_strided(
    size: Sequence[int],
    stride: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """empty_strided(SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 0, _dtype(dtype, FLOAT.dtype))


@aten("aten::full_like")
def full_like(
    self: TAnyTensor,
    fill_value: float,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"""
    return _filled(shape_of(self), fill_value, _dtype(dtype, element_type(self)))


@aten("aten::zeros_like")
def zeros_like(
    self: TAnyTensor,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"""
    return _filled(shape_of(self), 0, _dtype(dtype, element_type(self)))


@aten("aten::ones_like")
def ones_like(
    self: TAnyTensor,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"""
    return _filled(shape_of(self), 1, _dtype(dtype, element_type(self)))


@aten("aten::empty_like")
def empty_like(
    self: TAnyTensor,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"""
    return _filled(shape_of(self), 0, _dtype(dtype, element_type(self)))


@aten("aten::empty_like", complex=True)
def empty_like_complex(
    self: TAnyTensor,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TAnyTensor:
    """empty_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor

    Zeros shaped like a complex tensor (its layout's shape less the parts axis).
    """
    shape = dims_piece(self, 0, rank(self) - 1)
    return _filled(shape, 0, _dtype(dtype, _complex_of(self)))


def _complex_of(self: Any) -> int:
    """The complex element type whose parts a complex tensor's layout holds."""
    return _COMPLEX_OF_PART[int(element_type(self) or FLOAT.dtype)]


@aten("aten::new_zeros")
def new_zeros(
    self: TAnyTensor,
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 0, _dtype(dtype, element_type(self)))


@aten("aten::new_ones")
def new_ones(
    self: TAnyTensor,
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 1, _dtype(dtype, element_type(self)))


@aten("aten::new_full")
def new_full(
    self: TAnyTensor,
    size: Sequence[int],
    fill_value: float,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, fill_value, _dtype(dtype, element_type(self)))


@aten("aten::new_empty")
def new_empty(
    self: TAnyTensor,
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 0, _dtype(dtype, element_type(self)))


@aten("aten::new_empty_strided")
def new_empty_strided(
    self: TAnyTensor,
    size: Sequence[int],
    stride: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 0, _dtype(dtype, element_type(self)))


@aten("aten::new_zeros", complex=True)
def new_zeros_complex(
    self: TAnyTensor,
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_zeros(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    The ``new_`` tensors of a complex tensor are complex unless dtype says otherwise.
    """
    return _filled(size, 0, _dtype(dtype, _complex_of(self)))


@aten("aten::new_ones", complex=True)
def new_ones_complex(
    self: TAnyTensor,
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_ones(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 1, _dtype(dtype, _complex_of(self)))


@aten("aten::new_full", complex=True)
def new_full_complex(
    self: TAnyTensor,
    size: Sequence[int],
    fill_value: float,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_full(Tensor self, SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, fill_value, _dtype(dtype, _complex_of(self)))


@aten("aten::new_empty", complex=True)
def new_empty_complex(
    self: TAnyTensor,
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_empty(Tensor self, SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 0, _dtype(dtype, _complex_of(self)))


@aten("aten::new_empty_strided", complex=True)
def new_empty_strided_complex(
    self: TAnyTensor,
    size: Sequence[int],
    stride: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TAnyTensor:
    """new_empty_strided(Tensor self, SymInt[] size, SymInt[] stride, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return _filled(size, 0, _dtype(dtype, _complex_of(self)))


@aten("aten::fill.Tensor")
def fill_tensor(self: TAnyTensor, value: TValue) -> TAnyTensor:
    """fill.Tensor(Tensor self, Tensor value) -> Tensor

    ``self``'s shape filled with the 0-d tensor ``value`` in ``self``'s type.
    """
    filler = value if element_type(value) == element_type(self) else op.CastLike(value, self)
    return op.Expand(filler, op.Shape(self))


@aten("aten::fill.Tensor", complex=True)
def fill_tensor_complex(self: TAnyTensor, value: TValue) -> TAnyTensor:
    """fill.Tensor(Tensor self, Tensor value) -> Tensor

    A complex tensor filled with ``value``: a complex one is its (re, im) pair, a real
    one becomes (value, 0)."""
    parts = op.CastLike(value, self)
    if rank(value) == 0:
        parts = op.Pad(op.Unsqueeze(parts, [0]), [0, 1])
    return op.Expand(parts, op.Shape(self))


@aten("aten::scalar_tensor")
def scalar_tensor(
    s: float, *, dtype: int = -1, layout: str = "", device: str = "", pin_memory: bool = False
) -> TensorType:
    """scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    target = _dtype(dtype, FLOAT.dtype)
    if is_complex_dtype(target):
        return complex_constant(s, target)
    if is_static(s):
        return op.Constant(value=ir.tensor(s, dtype=ir.DataType(target)))
    return op.Cast(s, to=target)


@aten("aten::arange.start_step")
def arange(
    start: TStart,
    end: TEnd,
    step: TStep | None = None,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    ``start, start + step, ...`` below ``end``. The bounds are inputs (static numbers
    become constants, symbolic sizes stay values); without a dtype the result is INT64
    when every bound is an integer, FLOAT otherwise (torch's default dtype)."""
    given: tuple[Any, ...] = (start, end, 1 if step is None else step)  # torch.onnx hands
    # an omitted input over as None
    integral = all(is_integer(v) for v in given)
    target = _dtype(dtype, INT64.dtype if integral else FLOAT.dtype)
    counted = target if target in _RANGE_TYPES else None
    if counted is None or (not integral and counted not in _FLOAT_RANGE_TYPES):
        # Range has no other element types (nor integer ones for fractional bounds):
        # count in int64 (or float) and cast.
        counted = INT64.dtype if integral else FLOAT.dtype
    bounds = [scalar_as(v, counted) for v in given]
    values = op.Range(*bounds)
    return values if counted == target else op.Cast(values, to=target)


@aten("aten::arange.start")
def arange_start(
    start: TStart,
    end: TEnd,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """arange.start(Scalar start, Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return arange(start, end, 1, dtype=dtype)


@aten("aten::arange")
def arange_end(
    end: TEnd,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """arange(Scalar end, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return arange(0, end, 1, dtype=dtype)


_RANGE_TYPES = {t.dtype for t in (FLOAT, DOUBLE, INT16, INT32, INT64)}
"""The element types ONNX Range takes."""

_FLOAT_RANGE_TYPES = {FLOAT.dtype, DOUBLE.dtype}


@aten(
    "aten::linspace",
    "aten::linspace.Tensor_Tensor",
    "aten::linspace.Tensor_Scalar",
    "aten::linspace.Scalar_Tensor",
)
def linspace(
    start: TStart,
    end: TEnd,
    steps: int,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    ``steps`` evenly spaced values from ``start`` to ``end`` (FLOAT unless dtype says
    otherwise). As torch does, the first half counts up from ``start`` and the second half
    down from ``end``, so both ends are exact; integer results are computed in floats and
    truncated."""
    target = _dtype(dtype, FLOAT.dtype)
    computed = DOUBLE.dtype if target == DOUBLE.dtype else FLOAT.dtype
    numpy_type = np.float64 if computed == DOUBLE.dtype else np.float32
    if steps == 0:
        return op.Cast(array_constant(np.zeros(0, numpy_type)), to=target)
    first, last = (op.Cast(v, to=computed) for v in (start, end))
    if steps == 1:
        return op.Cast(op.Reshape(first, [1]), to=target)
    count = np.arange(steps)
    up = array_constant(count.astype(numpy_type))
    down = array_constant((steps - 1 - count).astype(numpy_type))
    lower = array_constant(count < steps / 2)
    step = op.Div(op.Sub(last, first), array_constant(np.array(steps - 1, numpy_type)))
    values = op.Where(lower, op.Add(first, op.Mul(step, up)), op.Sub(last, op.Mul(step, down)))
    return values if computed == target else op.Cast(values, to=target)


@aten("aten::_local_scalar_dense")
def local_scalar_dense(self: TAnyTensor) -> TAnyTensor:
    """_local_scalar_dense(Tensor self) -> Scalar"""
    return op.Reshape(self, [])


def uniform_random(size: Sequence[Any], dtype: int) -> Any:
    """Uniform random numbers in [0, 1): RandomUniform for static sizes, RandomUniformLike
    on a tensor of the run-time shape otherwise."""
    if all(is_static(d) for d in size):
        return op.RandomUniform(shape=[int(d) for d in size], dtype=dtype)
    return op.RandomUniformLike(op.ConstantOfShape(shape_input(size)), dtype=dtype)


@aten("aten::rand")
def rand(
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """rand(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return uniform_random(list(size), _dtype(dtype, FLOAT.dtype))


@aten("aten::randn")
def randn(
    size: Sequence[int],
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """randn(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"""
    return normal_random(list(size), _dtype(dtype, FLOAT.dtype))


def normal_random(size: Sequence[Any], dtype: int, mean: float = 0.0, scale: float = 1.0) -> Any:
    """Normal random numbers: RandomNormal for static sizes, RandomNormalLike on a tensor
    of the run-time shape otherwise."""
    if all(is_static(d) for d in size):
        shape = [int(d) for d in size]
        return op.RandomNormal(shape=shape, dtype=dtype, mean=mean, scale=scale)
    filled = op.ConstantOfShape(shape_input(list(size)))
    return op.RandomNormalLike(filled, dtype=dtype, mean=mean, scale=scale)


@aten("aten::randperm")
def randperm(
    n: int,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
) -> TensorType:
    """randperm(SymInt n, *, ScalarType? dtype=4, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor

    A random permutation of 0..n-1: the order that sorts n uniform random numbers.
    """
    keys = uniform_random([n], FLOAT.dtype)
    _, order = op.TopK(keys, vector_input(n), axis=0, _outputs=2)
    return op.Cast(order, to=_dtype(dtype, INT64.dtype))
