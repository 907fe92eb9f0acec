"""Tensor type annotations: ``FLOAT``, ``INT64[10, "N"]``, ``BOOL[...]`` and friends.

Each element type is a class; subscripting it with a shape gives a (cached) subclass, so that
annotations can be used with ``|``, ``Optional[...]`` and ``isinstance``-free introspection.
A bare ``FLOAT`` is a rank-0 tensor, ``FLOAT[None]`` is rank 1 with an unknown dimension and
``FLOAT[...]`` has an unknown rank. The classes cannot be instantiated: they only describe.

Static type checkers see ``FLOAT[64, "N"]`` as a plain ``FLOAT`` when the mypy plugin
``onnxscript.mypy_plugin`` is enabled. For them only (``TYPE_CHECKING``), the classes also
declare the Python operators of the script language, so that ``x * 2.0``, ``-x``,
``a & b``, ``x > 0`` (a ``BOOL``) and ``range(n)`` in a script type-check; nothing changes
at run time.
"""

from __future__ import annotations

from types import EllipsisType
from typing import TYPE_CHECKING, Any, ClassVar

from onnxscript.value_types import Dim, TensorTypeSpec

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import TypeAlias, TypeVar

    import numpy as np
    import onnx
    from typing_extensions import Self

    _T = TypeVar("_T")

    _Constant: TypeAlias = float | np.ndarray[Any, Any]
    """What a script combines with a tensor besides a tensor of its type: a Python number
    (``float`` also admits int and bool) or a numpy array (a constant of the script)."""

    class _TensorTypeMeta(type):
        """``FLOAT["N"]`` as a value (``to_model_proto(io_types=FLOAT["N"])``) is, for type
        checkers, the class itself (in annotations the mypy plugin reads the shape away)."""

        def __getitem__(cls: type[_T], shape: Any) -> type[_T]: ...

else:
    _TensorTypeMeta = type  # at run time, __class_getitem__ makes the shaped classes

ShapeSpec = tuple[Dim, ...] | EllipsisType | None


class TensorType(metaclass=_TensorTypeMeta):
    """Base class of all tensor type annotations. Use a subclass such as ``FLOAT``."""

    dtype: ClassVar[int] = 0
    shape: ClassVar[ShapeSpec] = None
    _spec: ClassVar[TensorTypeSpec | None] = None
    _base: ClassVar[type[TensorType] | None] = None
    _shaped: ClassVar[dict[Any, type[TensorType]]]

    def __init_subclass__(cls, dtype: int | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if dtype is not None:
            cls.dtype = dtype
            cls._shaped = {}

    def __new__(cls, *args: Any, **kwargs: Any) -> TensorType:
        raise NotImplementedError(
            f"{cls.__name__} describes a tensor type and cannot be instantiated; "
            'use it in annotations, e.g. `x: FLOAT["N"]`'
        )

    def __class_getitem__(cls, shape: Any) -> type[TensorType]:
        if cls.dtype == 0:
            raise TypeError("TensorType cannot be subscripted; use an element type such as FLOAT")
        if cls._base is not None:
            raise ValueError(f"{cls.__name__} already has a shape and cannot be subscripted again")
        key = _normalize_shape(shape)
        cached = cls._shaped.get(key)
        if cached is None:
            name = f"{cls.__name__}[{_shape_text(key)}]"
            cached = type(name, (cls,), {"shape": key, "_base": cls})
            cls._shaped[key] = cached
        return cached

    @classmethod
    def type_spec(cls) -> TensorTypeSpec:
        """The IR type this annotation denotes."""
        spec: TensorTypeSpec | None = cls.__dict__.get("_spec")
        if spec is None:
            if cls.shape is None:
                spec = TensorTypeSpec(cls.dtype, ())
            elif cls.shape is Ellipsis:
                spec = TensorTypeSpec(cls.dtype, None)
            else:
                spec = TensorTypeSpec(cls.dtype, cls.shape)
            cls._spec = spec  # immutable, so computed once per class
        return spec

    @classmethod
    def to_type_proto(cls) -> Any:
        """The annotation as an ``onnx.TypeProto``."""
        import onnx.helper

        spec = cls.type_spec()
        return onnx.helper.make_tensor_type_proto(spec.dtype or 0, spec.shape)

    @classmethod
    def to_ir(cls) -> Any:
        """The annotation as an ``onnx_ir.TypeAndShape`` (for the builder's subgraphs)."""
        import onnx_ir as ir

        spec = cls.type_spec()
        type_ = ir.TensorType(ir.DataType(spec.dtype)) if spec.dtype else None
        shape = ir.Shape(list(spec.shape)) if spec.shape is not None else None
        return ir.TypeAndShape(type_, shape)

    @classmethod
    def element_type(cls) -> type[TensorType]:
        """The unshaped class (``FLOAT`` for ``FLOAT[3]``)."""
        return cls._base or cls

    if TYPE_CHECKING:
        # The script language's operators (onnxscript.language.operators), for type checkers:
        # no instance ever exists. ONNX does not promote element types, so the other operand
        # is a tensor of the same type or a constant (a number or an array).
        def __add__(self, other: Self | _Constant) -> Self: ...
        def __radd__(self, other: _Constant) -> Self: ...
        def __sub__(self, other: Self | _Constant) -> Self: ...
        def __rsub__(self, other: _Constant) -> Self: ...
        def __mul__(self, other: Self | _Constant) -> Self: ...
        def __rmul__(self, other: _Constant) -> Self: ...
        def __truediv__(self, other: Self | _Constant) -> Self: ...
        def __rtruediv__(self, other: _Constant) -> Self: ...
        def __floordiv__(self, other: Self | _Constant) -> Self: ...
        def __rfloordiv__(self, other: _Constant) -> Self: ...
        def __mod__(self, other: Self | _Constant) -> Self: ...
        def __rmod__(self, other: _Constant) -> Self: ...
        def __pow__(self, other: TensorType | _Constant) -> Self: ...  # any exponent type
        def __rpow__(self, other: _Constant) -> Self: ...
        def __matmul__(self, other: Self) -> Self: ...
        def __neg__(self) -> Self: ...
        def __pos__(self) -> Self: ...
        def __lt__(self, other: Self | _Constant) -> BOOL: ...
        def __le__(self, other: Self | _Constant) -> BOOL: ...
        def __gt__(self, other: Self | _Constant) -> BOOL: ...
        def __ge__(self, other: Self | _Constant) -> BOOL: ...
        def __eq__(self, other: object) -> BOOL: ...  # type: ignore[override]
        def __ne__(self, other: object) -> BOOL: ...  # type: ignore[override]
        def __getitem__(self, index: Any) -> Self: ...  # x[0], x[1:3], x[:, i]
        def __iter__(self) -> Iterator[Self]: ...  # for row in x


if TYPE_CHECKING:

    class _Bitwise(TensorType):
        """BOOL and integer tensors: ``&``, ``|``, ``^``, ``~`` (logical on BOOL, bitwise on
        integers)."""

        def __and__(self, other: Self | int) -> Self: ...
        def __rand__(self, other: int) -> Self: ...
        def __or__(self, other: Self | int) -> Self: ...
        def __ror__(self, other: int) -> Self: ...
        def __xor__(self, other: Self | int) -> Self: ...
        def __rxor__(self, other: int) -> Self: ...
        def __invert__(self) -> Self: ...

    class _Integer(_Bitwise):
        """Integer tensors: also loop bounds, as in ``range(n)``."""

        def __index__(self) -> int: ...

    class _Unsigned(_Integer):
        """Unsigned integer tensors: also ``<<`` and ``>>`` (ONNX BitShift)."""

        def __lshift__(self, other: Self | int) -> Self: ...
        def __rlshift__(self, other: int) -> Self: ...
        def __rshift__(self, other: Self | int) -> Self: ...
        def __rrshift__(self, other: int) -> Self: ...

else:
    # At run time every tensor type derives from TensorType alone.
    _Bitwise = _Integer = _Unsigned = TensorType


def _normalize_shape(shape: Any) -> ShapeSpec:
    if shape is Ellipsis:
        return ...
    dims: tuple[Any, ...] = shape if isinstance(shape, tuple) else (shape,)
    for dim in dims:
        if (dim is not None and not isinstance(dim, (int, str))) or isinstance(dim, bool):
            raise TypeError(
                f"invalid dimension {dim!r}: use an int (static size), a str (symbolic size) "
                "or None (unknown size)"
            )
        if isinstance(dim, int) and not 0 <= dim < 2**63:
            raise ValueError(
                f"invalid dimension {dim}: a static size is from 0 to 2**63 - 1; use None or "
                "a name such as 'N' for a size not known in advance"
            )
    return tuple(dims)


def _shape_text(shape: ShapeSpec) -> str:
    if shape is Ellipsis:
        return "..."
    assert isinstance(shape, tuple)
    if not shape:
        return "()"
    return ", ".join(repr(d) for d in shape)


# Element type codes follow onnx.TensorProto.DataType; they are fixed by the ONNX standard.
class FLOAT(TensorType, dtype=1):
    """32-bit float tensor."""


class UINT8(_Unsigned, dtype=2):
    """8-bit unsigned integer tensor."""


class INT8(_Integer, dtype=3):
    """8-bit signed integer tensor."""


class UINT16(_Unsigned, dtype=4):
    """16-bit unsigned integer tensor."""


class INT16(_Integer, dtype=5):
    """16-bit signed integer tensor."""


class INT32(_Integer, dtype=6):
    """32-bit signed integer tensor."""


class INT64(_Integer, dtype=7):
    """64-bit signed integer tensor."""


class STRING(TensorType, dtype=8):
    """String tensor."""


class BOOL(_Bitwise, dtype=9):
    """Boolean tensor."""


class FLOAT16(TensorType, dtype=10):
    """IEEE 16-bit float tensor."""


class DOUBLE(TensorType, dtype=11):
    """64-bit float tensor."""


class UINT32(_Unsigned, dtype=12):
    """32-bit unsigned integer tensor."""


class UINT64(_Unsigned, dtype=13):
    """64-bit unsigned integer tensor."""


class COMPLEX64(TensorType, dtype=14):
    """Complex tensor of two 32-bit floats."""


class COMPLEX128(TensorType, dtype=15):
    """Complex tensor of two 64-bit floats."""


class BFLOAT16(TensorType, dtype=16):
    """bfloat16 tensor."""


class FLOAT8E4M3FN(TensorType, dtype=17):
    """8-bit float, 4 exponent bits, 3 mantissa bits, finite only."""


class FLOAT8E4M3FNUZ(TensorType, dtype=18):
    """8-bit float, 4 exponent bits, 3 mantissa bits, finite, no negative zero."""


class FLOAT8E5M2(TensorType, dtype=19):
    """8-bit float, 5 exponent bits, 2 mantissa bits."""


class FLOAT8E5M2FNUZ(TensorType, dtype=20):
    """8-bit float, 5 exponent bits, 2 mantissa bits, finite, no negative zero."""


class UINT4(_Unsigned, dtype=21):
    """4-bit unsigned integer tensor."""


class INT4(_Integer, dtype=22):
    """4-bit signed integer tensor."""


class FLOAT4E2M1(TensorType, dtype=23):
    """4-bit float, 2 exponent bits, 1 mantissa bit."""


class FLOAT8E8M0(TensorType, dtype=24):
    """8-bit exponent-only float (scale type)."""


class UINT2(_Unsigned, dtype=25):
    """2-bit unsigned integer tensor."""


class INT2(_Integer, dtype=26):
    """2-bit signed integer tensor."""


class FLOAT6E2M3(TensorType, dtype=27):
    """6-bit float, 2 exponent bits, 3 mantissa bits."""


class FLOAT6E3M2(TensorType, dtype=28):
    """6-bit float, 3 exponent bits, 2 mantissa bits."""


_ALL_TYPES: tuple[type[TensorType], ...] = (
    FLOAT, UINT8, INT8, UINT16, INT16, INT32, INT64, STRING, BOOL, FLOAT16, DOUBLE, UINT32,
    UINT64, COMPLEX64, COMPLEX128, BFLOAT16, FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2,
    FLOAT8E5M2FNUZ, UINT4, INT4, FLOAT4E2M1, FLOAT8E8M0, UINT2, INT2, FLOAT6E2M3, FLOAT6E3M2,
)  # fmt: skip


def _known_to_onnx() -> dict[int, type[TensorType]]:
    import onnx

    known = set(onnx.TensorProto.DataType.values())
    return {t.dtype: t for t in _ALL_TYPES if t.dtype in known}


TYPES_BY_DTYPE: dict[int, type[TensorType]] = _known_to_onnx()
"""Every tensor type class whose element type the installed onnx defines, by dtype code."""


def tensor_type(dtype: int) -> type[TensorType]:
    """The annotation class for an onnx element type code."""
    try:
        return TYPES_BY_DTYPE[dtype]
    except KeyError:
        raise ValueError(f"unknown onnx element type {dtype}") from None


ONNXType = TensorType
"""onnxscript 0.7's name of :class:`TensorType`, the base of the tensor annotations."""


def onnx_type_to_onnxscript_repr(onnx_type: onnx.TypeProto, *, reversible: bool = True) -> str:
    """The annotation text of a tensor ``TypeProto``, as onnxscript 0.7 writes it:
    ``FLOAT[2,'N']`` (dimensions joined by ``,``; an unknown one is ``None``), ``INT64`` for a
    scalar, ``INT64[...]`` when the rank is unknown. The element type is onnx's name of it.
    Other kinds of type (sequences, optionals, maps, sparse tensors) have no such text:
    NotImplementedError. ``reversible`` is accepted for 0.7's signature; every text written
    here is an annotation the converter reads back."""
    import onnx

    if onnx_type.WhichOneof("value") != "tensor_type":
        raise NotImplementedError(f"Unable to translate type {onnx_type} into onnxscript type.")
    tensor = onnx_type.tensor_type
    name: str = onnx.TensorProto.DataType.Name(tensor.elem_type)
    if not tensor.HasField("shape"):
        return f"{name}[...]"
    if not tensor.shape.dim:
        return name
    dims = []
    for dim in tensor.shape.dim:
        if dim.HasField("dim_value"):
            dims.append(str(dim.dim_value))
        elif dim.HasField("dim_param"):
            dims.append(repr(dim.dim_param))
        else:
            dims.append("None")
    return f"{name}[{','.join(dims)}]"


def is_tensor_type(obj: Any) -> bool:
    """Whether ``obj`` is one of the tensor annotation classes (shaped or not)."""
    return isinstance(obj, type) and issubclass(obj, TensorType) and obj.dtype != 0


__all__ = [
    "BFLOAT16",
    "BOOL",
    "COMPLEX64",
    "COMPLEX128",
    "DOUBLE",
    "FLOAT",
    "FLOAT4E2M1",
    "FLOAT6E2M3",
    "FLOAT6E3M2",
    "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ",
    "FLOAT8E5M2",
    "FLOAT8E5M2FNUZ",
    "FLOAT8E8M0",
    "FLOAT16",
    "INT2",
    "INT4",
    "INT8",
    "INT16",
    "INT32",
    "INT64",
    "STRING",
    "TYPES_BY_DTYPE",
    "UINT2",
    "UINT4",
    "UINT8",
    "UINT16",
    "UINT32",
    "UINT64",
    "_ALL_TYPES",
    "ONNXType",
    "TensorType",
    "is_tensor_type",
    "onnx_type_to_onnxscript_repr",
    "tensor_type",
]
