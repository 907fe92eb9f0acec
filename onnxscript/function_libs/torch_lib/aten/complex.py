"""Complex-valued variants of ATen operators (registered with ``complex=True``).

torch.onnx carries a complex tensor of shape S as a real tensor of shape S + [2] (real,
imaginary) and, when any input of a node is complex, calls the variant registered as
complex. Views move their dims past the trailing pair; arithmetic works on the parts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from onnxscript import opset18 as op
from onnxscript.function_libs.torch_lib.aten import nn, shape
from onnxscript.function_libs.torch_lib.aten.elementwise import atan2
from onnxscript.function_libs.torch_lib.helpers.complex_layout import (
    PART_TYPE,
    complex_axis,
    conjugate,
    imag_part,
    is_complex_dtype,
    pack,
    parts_constant,
    real_part,
)
from onnxscript.function_libs.torch_lib.helpers.facts import dim as static_dim
from onnxscript.function_libs.torch_lib.helpers.facts import rank
from onnxscript.function_libs.torch_lib.registration import aten
from onnxscript.function_libs.torch_lib.tensor_typing import BOOL, INT64, TFloat


def _operand(other: Any, like: Any) -> Any:
    """The other operand of a binary op as a complex representation: Python numbers
    become (re, im) constants; tensors are complex already (torch.onnx promotes)."""
    if isinstance(other, (bool, int, float, complex)):
        return op.CastLike(parts_constant(other), like)
    return other


@aten("aten::view_as_real", "aten::view_as_real_copy", complex=True)
def view_as_real(self: TFloat) -> TFloat:
    """view_as_real(Tensor(a) self) -> Tensor(a)"""
    return op.Identity(self)


@aten("aten::view_as_complex", "aten::view_as_complex_copy")
def view_as_complex(self: TFloat) -> TFloat:
    """view_as_complex(Tensor(a) self) -> Tensor(a)"""
    return op.Identity(self)


@aten("aten::complex")
def complex_(real: TFloat, imag: TFloat) -> TFloat:
    """complex(Tensor real, Tensor imag) -> Tensor

    The complex tensor with these parts (broadcast together).
    """
    common = op.Shape(op.Add(real, imag))  # only the broadcast shape is used
    return pack(op.Expand(real, common), op.Expand(imag, common))


@aten("aten::polar")
def polar(abs: TFloat, angle: TFloat) -> TFloat:
    """polar(Tensor abs, Tensor angle) -> Tensor"""
    return pack(op.Mul(abs, op.Cos(angle)), op.Mul(abs, op.Sin(angle)))


@aten("aten::real", complex=True)
def real(self: TFloat) -> TFloat:
    """real(Tensor(a) self) -> Tensor(a)"""
    return real_part(self)


@aten("aten::imag", complex=True)
def imag(self: TFloat) -> TFloat:
    """imag(Tensor(a) self) -> Tensor(a)"""
    return imag_part(self)


@aten(
    "aten::clone",
    "aten::alias",
    "aten::detach",
    "aten::lift_fresh_copy",
    "aten::resolve_conj",
    "aten::resolve_neg",
    complex=True,
)
def clone(self: TFloat, memory_format: str = "") -> TFloat:
    """clone(Tensor self, *, MemoryFormat? memory_format=None) -> Tensor"""
    return op.Identity(self)


@aten(
    "aten::_conj",
    "aten::conj",
    "aten::conj_physical",
    "aten::_conj_physical",
    "aten::_conj_copy",
    complex=True,
)
def conj(self: TFloat) -> TFloat:
    """_conj(Tensor(a) self) -> Tensor(a)"""
    return conjugate(self)


@aten("aten::_to_copy", complex=True)
def to_copy(
    self: TFloat,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    non_blocking: bool = False,
    memory_format: str = "",
) -> TFloat:
    """_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None) -> Tensor

    Complex to complex changes the parts' type; complex to real keeps the real part
    (what torch does, with a warning)."""
    if dtype is None or dtype == -1:
        return op.Identity(self)
    if is_complex_dtype(dtype):
        return op.Cast(self, to=PART_TYPE[dtype])
    return op.Cast(real_part(self), to=dtype)


@aten("prims::convert_element_type", complex=True)
def convert_element_type(a: TFloat, dtype: int) -> TFloat:
    """prims::convert_element_type(Tensor a, ScalarType dtype) -> Tensor"""
    return to_copy(a, dtype)


@aten("aten::sym_size.int", complex=True)
def sym_size(self: TFloat, dim: int) -> INT64:
    """sym_size.int(Tensor self, int dim) -> SymInt

    A dim's size read at run time (dynamic shapes), of the layout's dims before the
    pair."""
    return op.Gather(op.Shape(self), complex_axis(self, dim), axis=0)


@aten("aten::sym_numel", complex=True)
def sym_numel(self: TFloat) -> INT64:
    """sym_numel(Tensor self) -> SymInt"""
    return op.ReduceProd(op.Shape(self, end=-1), keepdims=0)


@aten("aten::sym_stride.int", complex=True)
def sym_stride(self: TFloat, dim: int) -> INT64:
    """sym_stride.int(Tensor self, int dim) -> SymInt

    The contiguous stride of ``dim`` in complex elements: the product of the sizes
    after it, the pair left out."""
    return op.ReduceProd(op.Shape(self, start=complex_axis(self, dim) + 1, end=-1), keepdims=0)


@aten("aten::view", "aten::_unsafe_view", "aten::reshape", "aten::view_copy", complex=True)
def view(self: TFloat, size: Sequence[int]) -> TFloat:
    """view(Tensor(a) self, SymInt[] size) -> Tensor(a)"""
    if isinstance(size, (list, tuple)):
        return op.Reshape(self, [*size, 2])
    return op.Reshape(self, op.Concat(op.Cast(size, to=7), op.Constant(value_ints=[2]), axis=0))


@aten("aten::permute", "aten::permute_copy", complex=True)
def permute(self: TFloat, dims: Sequence[int]) -> TFloat:
    """permute(Tensor(a) self, int[] dims) -> Tensor(a)"""
    return op.Transpose(self, perm=[complex_axis(self, d) for d in dims] + [rank(self) - 1])


@aten("aten::transpose.int", "aten::transpose_copy.int", complex=True)
def transpose(self: TFloat, dim0: int, dim1: int) -> TFloat:
    """transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)"""
    perm = list(range(rank(self)))
    a, b = complex_axis(self, dim0), complex_axis(self, dim1)
    perm[a], perm[b] = perm[b], perm[a]
    return op.Transpose(self, perm=perm)


@aten("aten::t", complex=True)
def t(self: TFloat) -> TFloat:
    """t(Tensor(a) self) -> Tensor(a)"""
    return transpose(self, 0, 1) if rank(self) == 3 else op.Identity(self)


@aten("aten::expand", "aten::expand_copy", complex=True)
def expand(self: TFloat, size: Sequence[int], implicit: bool = False) -> TFloat:
    """expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)"""
    return shape.expand(self, [*size, 2])


@aten("aten::unsqueeze", "aten::unsqueeze_copy", complex=True)
def unsqueeze(self: TFloat, dim: int) -> TFloat:
    """unsqueeze(Tensor(a) self, int dim) -> Tensor(a)"""
    return op.Unsqueeze(self, [dim % rank(self)])


@aten("aten::squeeze.dim", "aten::squeeze_copy.dim", complex=True)
def squeeze_dim(self: TFloat, dim: int) -> TFloat:
    """squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)"""
    return (
        shape.squeeze_dims(self, [complex_axis(self, dim)]) if rank(self) > 1 else op.Identity(self)
    )


@aten("aten::squeeze", "aten::squeeze_copy", complex=True)
def squeeze(self: TFloat) -> TFloat:
    """squeeze(Tensor(a) self) -> Tensor(a)"""
    return squeeze_dims(self, list(range(rank(self) - 1)))


@aten("aten::squeeze.dims", "aten::squeeze_copy.dims", complex=True)
def squeeze_dims(self: TFloat, dim: Sequence[int]) -> TFloat:
    """squeeze.dims(Tensor(a) self, int[] dim) -> Tensor(a)"""
    if rank(self) == 1:
        return op.Identity(self)
    return shape.squeeze_dims(self, [complex_axis(self, d) for d in dim])


@aten("aten::cat", "aten::concat", "aten::concatenate", complex=True)
def cat(tensors: Sequence[TFloat], dim: int = 0) -> TFloat:
    # torch's placeholder for nothing is an empty vector: [0, 2] here.
    """cat(Tensor[] tensors, int dim=0) -> Tensor"""
    present = [t for t in tensors if not (rank(t) == 2 and static_dim(t, 0) == 0)]
    present = present or list(tensors)
    return op.Concat(*present, axis=complex_axis(present[0], dim))


@aten("aten::slice.Tensor", "aten::slice_copy.Tensor", complex=True)
def slice_(
    self: TFloat, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1
) -> TFloat:
    """slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)"""
    return shape.slice_(self, complex_axis(self, dim), start, end, step)


@aten("aten::select.int", "aten::select_copy.int", complex=True)
def select(self: TFloat, dim: int, index: int) -> TFloat:
    """select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)"""
    return shape.select(self, complex_axis(self, dim), index)


@aten("aten::split.Tensor", "aten::split_copy.Tensor", "aten::unsafe_split.Tensor", complex=True)
def split(self: TFloat, split_size: int, dim: int = 0) -> Sequence[TFloat]:
    """split.Tensor(Tensor(a -> *) self, SymInt split_size, int dim=0) -> Tensor(a)[]"""
    return shape.split(self, split_size, complex_axis(self, dim))


@aten("aten::split_with_sizes", "aten::split_with_sizes_copy", complex=True)
def split_with_sizes(self: TFloat, split_sizes: Sequence[int], dim: int = 0) -> Sequence[TFloat]:
    """split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]"""
    return shape.split_with_sizes(self, split_sizes, complex_axis(self, dim))


@aten("aten::mT", complex=True)
def matrix_transpose(self: TFloat) -> TFloat:
    """mT(Tensor(a) self) -> Tensor(a)"""
    return transpose(self, -2, -1)


@aten("aten::mH", complex=True)
def matrix_adjoint(self: TFloat) -> TFloat:
    """mH(Tensor(a) self) -> Tensor(a)

    The conjugate transpose.
    """
    return conjugate(transpose(self, -2, -1))


@aten("aten::roll", complex=True)
def roll(self: TFloat, shifts: Sequence[int], dims: Sequence[int] = ()) -> TFloat:
    """roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor"""
    if not dims:  # the flattened tensor rolled: the parts stay together
        pairs = op.Reshape(self, [-1, 2])
        return op.Reshape(shape.roll(pairs, shifts, [0]), op.Shape(self))
    return shape.roll(self, shifts, [complex_axis(self, d) for d in dims])


@aten("aten::flip", complex=True)
def flip(self: TFloat, dims: Sequence[int]) -> TFloat:
    """flip(Tensor self, int[] dims) -> Tensor"""
    return shape.flip(self, [complex_axis(self, d) for d in dims])


@aten("aten::index_select", complex=True)
def index_select(self: TFloat, dim: int, index: Any) -> TFloat:
    """index_select(Tensor self, int dim, Tensor index) -> Tensor"""
    if rank(self) == 1:
        return op.Identity(self)  # a complex scalar: the only valid index is 0
    return op.Gather(self, index, axis=complex_axis(self, dim))


@aten("aten::repeat", complex=True)
def repeat(self: TFloat, repeats: Sequence[int]) -> TFloat:
    """repeat(Tensor self, SymInt[] repeats) -> Tensor"""
    return shape.repeat(self, [*repeats, 1])


@aten("aten::constant_pad_nd", complex=True)
def constant_pad_nd(self: TFloat, pad: Sequence[int], value: float = 0.0) -> TFloat:
    """constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor

    Pads the complex dims (pairs from the last one, which is the parts axis here: one
    (0, 0) pair more); a non-zero value fills the real part."""
    padded = shape.constant_pad_nd(self, [0, 0, *pad], 0.0)
    if complex(value) == 0:
        return padded
    inside = shape.constant_pad_nd(
        op.Expand(op.CastLike(0.0, self), op.Shape(self)), [0, 0, *pad], 1.0
    )
    filler = op.Mul(op.Sub(op.CastLike(1.0, self), inside), _operand(value, self))
    return op.Add(padded, filler)


@aten("aten::full_like", complex=True)
def full_like(
    self: TFloat,
    fill_value: float,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TFloat:
    """full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor

    The same shape filled with a value: complex unless dtype says otherwise.
    """
    if dtype in (-1, None) or is_complex_dtype(dtype):
        filler = _operand(fill_value, self)
        if dtype not in (-1, None):
            filler = op.Cast(filler, to=PART_TYPE[dtype])
        return op.Expand(filler, op.Shape(self))
    return op.Expand(op.Cast(fill_value, to=dtype), op.Shape(real_part(self)))


@aten("aten::zeros_like", complex=True)
def zeros_like(
    self: TFloat,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TFloat:
    """zeros_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"""
    return full_like(self, 0.0, dtype=dtype)


@aten("aten::ones_like", complex=True)
def ones_like(
    self: TFloat,
    *,
    dtype: int = -1,
    layout: str = "",
    device: str = "",
    pin_memory: bool = False,
    memory_format: str = "",
) -> TFloat:
    """ones_like(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor"""
    return full_like(self, 1.0, dtype=dtype)


@aten("aten::unfold", complex=True)
def unfold(self: TFloat, dimension: int, size: int, step: int) -> TFloat:
    """unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)

    Windows along a complex dim: the window axis goes before the parts axis.
    """
    if rank(self) == 1:
        return op.Unsqueeze(self, [0])
    windows = shape.unfold(self, complex_axis(self, dimension), size, step)
    last = rank(self)
    perm = list(range(last - 1))
    perm += [last, last - 1]
    return op.Transpose(windows, perm=perm)


@aten("aten::add.Tensor", "aten::add.Scalar", complex=True)
def add(self: TFloat, other: TFloat, alpha: float = 1.0) -> TFloat:
    """add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"""
    other = _operand(other, self)
    if alpha != 1:
        other = op.Mul(other, op.CastLike(alpha, self))
    return op.Add(self, other)


@aten(
    "aten::sub.Tensor",
    "aten::sub.Scalar",
    "aten::subtract.Tensor",
    "aten::subtract.Scalar",
    complex=True,
)
def sub(self: TFloat, other: TFloat, alpha: float = 1.0) -> TFloat:
    """sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor"""
    other = _operand(other, self)
    if alpha != 1:
        other = op.Mul(other, op.CastLike(alpha, self))
    return op.Sub(self, other)


@aten(
    "aten::mul.Tensor",
    "aten::mul.Scalar",
    "aten::multiply.Tensor",
    "aten::multiply.Scalar",
    complex=True,
)
def mul(self: TFloat, other: TFloat) -> TFloat:
    """mul.Tensor(Tensor self, Tensor other) -> Tensor"""
    if isinstance(other, (bool, int, float)):
        return op.Mul(self, op.CastLike(other, self))
    return _product(self, _operand(other, self))


def _product(a: Any, b: Any) -> Any:
    ar, ai, br, bi = real_part(a), imag_part(a), real_part(b), imag_part(b)
    return pack(op.Sub(op.Mul(ar, br), op.Mul(ai, bi)), op.Add(op.Mul(ar, bi), op.Mul(ai, br)))


@aten("aten::conv1d", "aten::conv2d", "aten::conv3d", complex=True)
def conv(
    input: TFloat,
    weight: TFloat,
    bias: TFloat | None = None,
    stride: Sequence[int] = (1,),
    padding: Sequence[int] = (0,),
    dilation: Sequence[int] = (1,),
    groups: int = 1,
) -> TFloat:
    """conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=[1], SymInt[1] padding=[0], SymInt[1] dilation=[1], SymInt groups=1) -> Tensor

    (a + bi) * (w + vi) = (a*w - b*v) + (a*v + b*w)i, four real convolutions (the bias's
    parts added to the first of each pair); an unbatched input gets a batch dim for the
    while."""
    unbatched = rank(input) == rank(weight) - 1
    if unbatched:
        input = op.Unsqueeze(input, [0])
    common = nn.conv_attributes(rank(weight) - 3, stride, padding, dilation, groups)
    a, b = real_part(input), imag_part(input)
    w, v = real_part(weight), imag_part(weight)
    bias_parts = ([], []) if bias is None else ([real_part(bias)], [imag_part(bias)])
    real = op.Sub(op.Conv(a, w, *bias_parts[0], **common), op.Conv(b, v, **common))
    imag = op.Add(op.Conv(a, v, *bias_parts[1], **common), op.Conv(b, w, **common))
    result = pack(real, imag)
    return op.Squeeze(result, [0]) if unbatched else result


@aten(
    "aten::div.Tensor",
    "aten::div.Scalar",
    "aten::divide.Tensor",
    "aten::divide.Scalar",
    "aten::true_divide.Tensor",
    "aten::true_divide.Scalar",
    complex=True,
)
def div(self: TFloat, other: TFloat) -> TFloat:
    """div.Tensor(Tensor self, Tensor other) -> Tensor"""
    if isinstance(other, (bool, int, float)):
        return op.Div(self, op.CastLike(other, self))
    other = _operand(other, self)
    return _quotient(self, other)


def _quotient(a: Any, b: Any) -> Any:
    """a / b for complex tensors."""
    return op.Div(_product(a, conjugate(b)), op.Unsqueeze(_squared_magnitude(b), [-1]))


def _squared_magnitude(z: Any) -> Any:
    return op.ReduceSum(op.Mul(z, z), [-1], keepdims=0)


@aten("aten::neg", complex=True)
def neg(self: TFloat) -> TFloat:
    """neg(Tensor self) -> Tensor"""
    return op.Neg(self)


@aten("aten::abs", complex=True)
def abs_(self: TFloat) -> TFloat:
    """abs(Tensor self) -> Tensor"""
    return _magnitude(self)


def _magnitude(z: Any) -> Any:
    """|z| scaled by the larger part first, so that squares of large parts cannot
    overflow (torch's hypot)."""
    parts = op.Abs(z)
    larger = op.ReduceMax(parts, [-1], keepdims=1)
    safe = op.Where(op.Equal(larger, op.CastLike(0.0, z)), op.CastLike(1.0, z), larger)
    ratios = op.Div(parts, safe)
    norm = op.Sqrt(op.ReduceSum(op.Mul(ratios, ratios), [-1], keepdims=1))
    # An infinite part makes |z| infinite, even beside a NaN (inf / inf gives NaN above).
    magnitude = op.Where(op.IsInf(larger), larger, op.Mul(larger, norm))
    return op.Squeeze(magnitude, [-1])


@aten("aten::angle", complex=True)
def angle(self: TFloat) -> TFloat:
    """angle(Tensor self) -> Tensor"""
    return atan2(imag_part(self), real_part(self))


@aten("aten::exp", complex=True)
def exp(self: TFloat) -> TFloat:
    """exp(Tensor self) -> Tensor"""
    return _exponential(self)


def _exponential(z: Any) -> Any:
    magnitude, phase = op.Exp(real_part(z)), imag_part(z)
    return pack(op.Mul(magnitude, op.Cos(phase)), op.Mul(magnitude, op.Sin(phase)))


@aten("aten::sigmoid", complex=True)
def sigmoid(self: TFloat) -> TFloat:
    """sigmoid(Tensor self) -> Tensor

    1 / (1 + exp(-z)).
    """
    one = _operand(1.0, self)
    return _quotient(one, op.Add(_exponential(op.Neg(self)), one))


@aten("aten::silu", complex=True)
def silu(self: TFloat) -> TFloat:
    """silu(Tensor self) -> Tensor

    z * sigmoid(z), as z / (1 + exp(-z)).
    """
    return _quotient(self, op.Add(_exponential(op.Neg(self)), _operand(1.0, self)))


@aten("aten::reciprocal", complex=True)
def reciprocal(self: TFloat) -> TFloat:
    """reciprocal(Tensor self) -> Tensor"""
    return op.Div(conjugate(self), op.Unsqueeze(_squared_magnitude(self), [-1]))


@aten("aten::sgn", complex=True)
def sgn(self: TFloat) -> TFloat:
    """sgn(Tensor self) -> Tensor

    z / |z|, and 0 where z is 0.
    """
    magnitude = op.Unsqueeze(_magnitude(self), [-1])
    zero = op.Equal(magnitude, op.CastLike(0.0, self))
    safe = op.Where(zero, op.CastLike(1.0, self), magnitude)
    return op.Where(zero, op.CastLike(0.0, self), op.Div(self, safe))


@aten("aten::eq.Tensor", "aten::eq.Scalar", complex=True)
def eq(self: TFloat, other: TFloat) -> BOOL:
    """eq.Tensor(Tensor self, Tensor other) -> Tensor"""
    both = op.Cast(op.Equal(self, _operand(other, self)), to=6)
    return op.Cast(op.ReduceMin(both, [-1], keepdims=0), to=BOOL.dtype)


@aten("aten::ne.Tensor", "aten::ne.Scalar", complex=True)
def ne(self: TFloat, other: TFloat) -> BOOL:
    """ne.Tensor(Tensor self, Tensor other) -> Tensor"""
    return op.Not(eq(self, other))


@aten("aten::where.self", complex=True)
def where(condition: BOOL, self: TFloat, other: TFloat) -> TFloat:
    """where.self(Tensor condition, Tensor self, Tensor other) -> Tensor"""
    return op.Where(op.Unsqueeze(condition, [-1]), self, other)


@aten("aten::sum.dim_IntList", complex=True)
def sum_dim(
    self: TFloat, dim: Sequence[int] | None, keepdim: bool = False, *, dtype: int = -1
) -> TFloat:
    """sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"""
    return _reduce("ReduceSum", self, dim, keepdim)


def _reduce(onnx_op: str, self: Any, dim: Sequence[int] | None, keepdim: bool) -> Any:
    """A reduction over the given dims (all when none), never over the parts."""
    if rank(self) == 1:
        return op.Identity(self)  # a complex scalar
    axes = [complex_axis(self, d) for d in dim] if dim else list(range(rank(self) - 1))
    return getattr(op, onnx_op)(self, axes, keepdims=int(keepdim))


@aten("aten::sum", complex=True)
def sum_all(self: TFloat, *, dtype: int = -1) -> TFloat:
    """sum(Tensor self, *, ScalarType? dtype=None) -> Tensor"""
    return _reduce("ReduceSum", self, None, False)


@aten("aten::mean", complex=True)
def mean_all(self: TFloat, *, dtype: int = -1) -> TFloat:
    """mean(Tensor self, *, ScalarType? dtype=None) -> Tensor"""
    return _reduce("ReduceMean", self, None, False)


@aten("aten::mean.dim", complex=True)
def mean_dim(
    self: TFloat, dim: Sequence[int] | None, keepdim: bool = False, *, dtype: int = -1
) -> TFloat:
    """mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"""
    return _reduce("ReduceMean", self, dim, keepdim)


@aten("aten::mm", "aten::bmm", "aten::matmul", complex=True)
def matmul(self: TFloat, other: TFloat) -> TFloat:
    """mm(Tensor self, Tensor mat2) -> Tensor"""
    ar, ai, br, bi = real_part(self), imag_part(self), real_part(other), imag_part(other)
    return pack(
        op.Sub(op.MatMul(ar, br), op.MatMul(ai, bi)), op.Add(op.MatMul(ar, bi), op.MatMul(ai, br))
    )
