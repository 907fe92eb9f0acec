"""``Tensor``: the eager value wrapper, whose Python operators mean what they mean in scripts.

``x + 1``, ``x // y``, ``a & b``, ``x[1:, 0]`` and comparisons on a :class:`Tensor` run the
same ONNX ops that the converter emits for them (the rules in
``onnxscript.language``), so code behaves the same eagerly and compiled. Eager calls
return numpy arrays, or ``Tensor`` objects when a ``Tensor`` was passed in; inside a
script function run eagerly every run-time value is a ``Tensor``.

:class:`AttrTensor` is an attribute parameter of a script function while it runs eagerly:
a Python value when passed as an op attribute, a tensor (that takes the element type of
the tensor it is combined with) when used in an expression, as the converter treats it.
:class:`IndexTensor` is a loop index, which behaves like a Python int in operators.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from onnxscript.language.literals import python_to_array


class Tensor:
    """An array with ONNX operator semantics. ``.value`` (or ``.numpy()``) is the array."""

    __slots__ = ("value",)
    __array_ufunc__ = None  # numpy defers to our reflected operators
    __hash__ = None  # type: ignore[assignment]  # == is element-wise

    value: np.ndarray

    def __init__(self, value: Any) -> None:
        if isinstance(value, Tensor):
            value = value.value
        elif isinstance(value, np.generic):
            value = np.asarray(value)
        elif not isinstance(value, np.ndarray):
            value = python_to_array(value)
        self.value = value

    @classmethod
    def of(cls, array: np.ndarray) -> Tensor:
        """A Tensor of ``array`` (no checks: for arrays produced by eager ops)."""
        tensor = object.__new__(cls)
        tensor.value = array
        return tensor

    # -- inspection --------------------------------------------------------------------------

    def numpy(self) -> np.ndarray:
        """The underlying numpy array."""
        return self.value

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        if dtype is not None and dtype != self.value.dtype:
            return self.value.astype(dtype)
        return self.value.copy() if copy else self.value

    @property
    def dtype(self) -> np.dtype[Any]:
        return self.value.dtype

    @property
    def onnx_dtype(self) -> int:
        """The ONNX element type code (``onnx.TensorProto.FLOAT`` ...)."""
        from onnxscript.dtypes import onnx_dtype

        return onnx_dtype(self.value.dtype)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.value.shape)

    @property
    def rank(self) -> int:
        return int(self.value.ndim)

    @property
    def ndim(self) -> int:
        return int(self.value.ndim)

    @property
    def size(self) -> int:
        return int(self.value.size)

    def __repr__(self) -> str:
        return f"Tensor({self.value!r})"

    def __str__(self) -> str:
        return str(self.value)

    # -- Python conversions ----------------------------------------------------------------

    def _scalar(self, what: str) -> Any:
        if self.value.ndim != 0:
            raise TypeError(
                f"{what}() needs a scalar (rank-0) tensor, got shape {self.shape}; index or "
                "reshape it first"
            )
        return self.value.item()

    def __bool__(self) -> bool:
        if self.value.size != 1:
            raise ValueError(
                f"the truth value of a tensor with {self.value.size} elements is ambiguous: an "
                "`if`/`while` condition must be a single element (compare, then reduce with "
                "op.ReduceMin/op.ReduceMax if you mean all/any)"
            )
        return bool(self.value.reshape(()).item())

    def __int__(self) -> int:
        return int(self._scalar("int"))

    def __float__(self) -> float:
        return float(self._scalar("float"))

    def __index__(self) -> int:
        if self.value.dtype.kind not in "iu":
            raise TypeError(f"only integer tensors can be used as an index, not {self.value.dtype}")
        return int(self._scalar("index"))

    def __len__(self) -> int:
        if self.value.ndim == 0:
            raise TypeError("len() of a scalar tensor")
        return int(self.value.shape[0])

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    def __getitem__(self, key: Any) -> Tensor:
        return _ops.getitem_dynamic(self, key)

    # -- operators: the same ops the converter emits -----------------------------------------

    def __add__(self, other: Any) -> Tensor:
        return _ops.binary("+", self, other)

    def __radd__(self, other: Any) -> Tensor:
        return _ops.binary("+", other, self)

    def __sub__(self, other: Any) -> Tensor:
        return _ops.binary("-", self, other)

    def __rsub__(self, other: Any) -> Tensor:
        return _ops.binary("-", other, self)

    def __mul__(self, other: Any) -> Tensor:
        return _ops.binary("*", self, other)

    def __rmul__(self, other: Any) -> Tensor:
        return _ops.binary("*", other, self)

    def __truediv__(self, other: Any) -> Tensor:
        return _ops.binary("/", self, other)

    def __rtruediv__(self, other: Any) -> Tensor:
        return _ops.binary("/", other, self)

    def __floordiv__(self, other: Any) -> Tensor:
        return _ops.binary("//", self, other)

    def __rfloordiv__(self, other: Any) -> Tensor:
        return _ops.binary("//", other, self)

    def __mod__(self, other: Any) -> Tensor:
        return _ops.binary("%", self, other)

    def __rmod__(self, other: Any) -> Tensor:
        return _ops.binary("%", other, self)

    def __pow__(self, other: Any) -> Tensor:
        return _ops.binary("**", self, other)

    def __rpow__(self, other: Any) -> Tensor:
        return _ops.binary("**", other, self)

    def __matmul__(self, other: Any) -> Tensor:
        return _ops.binary("@", self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        return _ops.binary("@", other, self)

    def __and__(self, other: Any) -> Tensor:
        return _ops.binary("&", self, other)

    def __rand__(self, other: Any) -> Tensor:
        return _ops.binary("&", other, self)

    def __or__(self, other: Any) -> Tensor:
        return _ops.binary("|", self, other)

    def __ror__(self, other: Any) -> Tensor:
        return _ops.binary("|", other, self)

    def __xor__(self, other: Any) -> Tensor:
        return _ops.binary("^", self, other)

    def __rxor__(self, other: Any) -> Tensor:
        return _ops.binary("^", other, self)

    def __lshift__(self, other: Any) -> Tensor:
        return _ops.binary("<<", self, other)

    def __rlshift__(self, other: Any) -> Tensor:
        return _ops.binary("<<", other, self)

    def __rshift__(self, other: Any) -> Tensor:
        return _ops.binary(">>", self, other)

    def __rrshift__(self, other: Any) -> Tensor:
        return _ops.binary(">>", other, self)

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _ops.compare("==", self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _ops.compare("!=", self, other)

    def __lt__(self, other: Any) -> Tensor:
        return _ops.compare("<", self, other)

    def __le__(self, other: Any) -> Tensor:
        return _ops.compare("<=", self, other)

    def __gt__(self, other: Any) -> Tensor:
        return _ops.compare(">", self, other)

    def __ge__(self, other: Any) -> Tensor:
        return _ops.compare(">=", self, other)

    def __neg__(self) -> Tensor:
        return _ops.unary("-", self)

    def __pos__(self) -> Tensor:
        return self

    def __invert__(self) -> Tensor:
        return _ops.unary("~", self)


class AttrTensor(Tensor):
    """An attribute parameter of a script function running eagerly.

    ``attr_value`` is the Python value (given to ops as an attribute); ``value`` the tensor
    the converter makes of it when it is used as a tensor: INT64 for ``int``, FLOAT for
    ``float``, BOOL for ``bool``, STRING for ``str``, 1-D for lists.
    """

    __slots__ = ("attr_value",)

    def __init__(self, attr_value: Any, python_type: type) -> None:
        self.attr_value = attr_value
        dtype: Any = {bool: np.bool_, int: np.int64, float: np.float32, str: object}[python_type]
        super().__init__(np.array(attr_value, dtype=dtype))

    def __repr__(self) -> str:
        return f"AttrTensor({self.attr_value!r})"


class IndexTensor(Tensor):
    """The index of a ``for i in range(...)`` loop in a script running eagerly: an INT64
    scalar that, like the Python int it stands for, takes the element type of the other
    operand of an arithmetic operator or comparison (the converter treats it the same)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"IndexTensor({self.value!r})"


class TensorSequence(list):  # type: ignore[type-arg]
    """An ONNX sequence value: a list of arrays (or Tensors) that remembers its element
    type, so that an empty sequence can still be passed to an op (``elem_type`` is the ONNX
    element type code, ``None`` if unknown)."""

    def __init__(self, items: Any = (), elem_type: int | None = None) -> None:
        super().__init__(items)
        self.elem_type = elem_type

    def __repr__(self) -> str:
        return f"TensorSequence({list.__repr__(self)}, elem_type={self.elem_type})"


# Imported last: this module uses Tensor at call time.
from onnxscript.evaluator import array_target as _ops  # noqa: E402
