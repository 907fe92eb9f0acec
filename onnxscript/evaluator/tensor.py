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

The operators are carried out here as well (:class:`ArrayTarget`: the language rules applied
to eager values, each op handed to the current evaluator), since the value classes and
their operators need each other; :func:`wrap` and :func:`describe` are the small helpers
every eager module shares.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from onnxscript import dtypes, schemas
from onnxscript.defaults import default_opset_version
from onnxscript.evaluator import context
from onnxscript.evaluator.protocol import OpRef
from onnxscript.language import indexing
from onnxscript.language import operators as rules
from onnxscript.language.literals import cast_array, literal_array, python_to_array
from onnxscript.language.literals import describe as describe_literal
from onnxscript.language.target import ATTR, INDEX, LITERAL, TENSOR


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
        return getitem_dynamic(self, key)

    # -- operators: the same ops the converter emits -----------------------------------------

    def __add__(self, other: Any) -> Tensor:
        return binary("+", self, other)

    def __radd__(self, other: Any) -> Tensor:
        return binary("+", other, self)

    def __sub__(self, other: Any) -> Tensor:
        return binary("-", self, other)

    def __rsub__(self, other: Any) -> Tensor:
        return binary("-", other, self)

    def __mul__(self, other: Any) -> Tensor:
        return binary("*", self, other)

    def __rmul__(self, other: Any) -> Tensor:
        return binary("*", other, self)

    def __truediv__(self, other: Any) -> Tensor:
        return binary("/", self, other)

    def __rtruediv__(self, other: Any) -> Tensor:
        return binary("/", other, self)

    def __floordiv__(self, other: Any) -> Tensor:
        return binary("//", self, other)

    def __rfloordiv__(self, other: Any) -> Tensor:
        return binary("//", other, self)

    def __mod__(self, other: Any) -> Tensor:
        return binary("%", self, other)

    def __rmod__(self, other: Any) -> Tensor:
        return binary("%", other, self)

    def __pow__(self, other: Any) -> Tensor:
        return binary("**", self, other)

    def __rpow__(self, other: Any) -> Tensor:
        return binary("**", other, self)

    def __matmul__(self, other: Any) -> Tensor:
        return binary("@", self, other)

    def __rmatmul__(self, other: Any) -> Tensor:
        return binary("@", other, self)

    def __and__(self, other: Any) -> Tensor:
        return binary("&", self, other)

    def __rand__(self, other: Any) -> Tensor:
        return binary("&", other, self)

    def __or__(self, other: Any) -> Tensor:
        return binary("|", self, other)

    def __ror__(self, other: Any) -> Tensor:
        return binary("|", other, self)

    def __xor__(self, other: Any) -> Tensor:
        return binary("^", self, other)

    def __rxor__(self, other: Any) -> Tensor:
        return binary("^", other, self)

    def __lshift__(self, other: Any) -> Tensor:
        return binary("<<", self, other)

    def __rlshift__(self, other: Any) -> Tensor:
        return binary("<<", other, self)

    def __rshift__(self, other: Any) -> Tensor:
        return binary(">>", self, other)

    def __rrshift__(self, other: Any) -> Tensor:
        return binary(">>", other, self)

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return compare("==", self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return compare("!=", self, other)

    def __lt__(self, other: Any) -> Tensor:
        return compare("<", self, other)

    def __le__(self, other: Any) -> Tensor:
        return compare("<=", self, other)

    def __gt__(self, other: Any) -> Tensor:
        return compare(">", self, other)

    def __ge__(self, other: Any) -> Tensor:
        return compare(">=", self, other)

    def __neg__(self) -> Tensor:
        return unary("-", self)

    def __pos__(self) -> Tensor:
        return self

    def __invert__(self) -> Tensor:
        return unary("~", self)


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


def wrap(value: Any) -> Any:
    """Arrays (and lists of them) as :class:`Tensor` objects (sequences); other values as
    they are."""
    if isinstance(value, np.ndarray):
        return Tensor(value)
    if isinstance(value, list):
        return TensorSequence([wrap(v) for v in value], getattr(value, "elem_type", None))
    if isinstance(value, np.generic):
        return Tensor(np.asarray(value))
    return value


def describe(value: Any) -> str:
    """A short description of a value for error messages: type, dtype and shape."""
    if isinstance(value, Tensor):
        return f"Tensor of {value.value.dtype} with shape {tuple(value.value.shape)}"
    return describe_literal(value)


# -- operators: the language rules carried out on eager values ------------------------------
#
# Operands are Tensor objects (an AttrTensor is an attribute parameter, an IndexTensor a loop
# index), numpy arrays and Python values. The rules choose the ops and the element types
# exactly as the converter does; each op goes to the current evaluator
# (``evaluator.context.eval_op``), as an op of the newest ai.onnx opset onnxruntime runs.


@functools.lru_cache(maxsize=256)
def default_op(op_type: str) -> OpRef:
    """``op_type`` of the ai.onnx opset used for operators (the newest onnxruntime runs)."""
    version = default_opset_version()
    return OpRef("", op_type, version, schemas.get_schema("", op_type, version))


def emit(op_type: str, *inputs: Any, **attributes: Any) -> Tensor:
    """Apply one ai.onnx op to eager values through the current evaluator; a Tensor."""
    result = context.eval_op(default_op(op_type), inputs, attributes)
    if type(result) is np.ndarray:
        return Tensor.of(result)
    return result if isinstance(result, Tensor) else Tensor(result)


def _array(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.value
    return np.asarray(value)


class ArrayTarget:
    """:class:`~onnxscript.language.indexing.IndexTarget` for eager values. ``where`` names
    the construct in messages (```+```, ``indexing``)."""

    __slots__ = ("where",)

    def __init__(self, where: str) -> None:
        self.where = where

    def kind(self, operand: Any) -> int:
        if type(operand) is Tensor:
            return TENSOR
        if isinstance(operand, Tensor):
            if isinstance(operand, AttrTensor):
                return ATTR
            return INDEX if isinstance(operand, IndexTensor) else TENSOR
        if isinstance(operand, (np.ndarray, np.generic)):
            return TENSOR
        return LITERAL

    def literal(self, operand: Any) -> Any:
        return operand

    def dtype(self, value: Any) -> int | None:
        return dtypes.onnx_dtype(value.dtype)

    def tensor(self, operand: Any, *, dtype: int | None = None, like: Any = None) -> Any:
        if type(operand) is Tensor:
            return operand.value
        if isinstance(operand, Tensor) and not isinstance(operand, AttrTensor):
            return operand.value
        if isinstance(operand, (np.ndarray, np.generic)):
            return np.asarray(operand)
        target = dtype if dtype is not None else (self.dtype(like) if like is not None else None)
        if isinstance(operand, AttrTensor):
            return operand.value if target is None else cast_array(operand.value, target)
        return literal_array(operand, target, self.where)

    def retype_index(self, value: Any, *, dtype: int | None = None, like: Any = None) -> Any:
        target = dtype if dtype is not None else self.dtype(like)
        return cast_array(value.value, target) if target is not None else value.value

    def emit(self, op_type: str, *inputs: Any, **attributes: Any) -> Tensor:
        if op_type == "OptionalHasElement" and len(inputs) == 1 and inputs[0] is not None:
            # An eager value that exists is present (what the op computes for a tensor).
            return Tensor(np.array(True))
        return emit(op_type, *inputs, **attributes)

    def mark_index(self, value: Any) -> Any:
        return IndexTensor(_array(value))

    def static(self, operand: Any) -> tuple[bool, Any]:
        return not isinstance(operand, Tensor), operand

    def python(self, value: Any) -> Any:
        return value

    # -- indexing ---------------------------------------------------------------------------

    def slice_bound(self, item: Any, part: str) -> Any:
        value = getattr(item, part)
        if value is None:
            return None
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)):
            return int(value)
        if isinstance(value, Tensor):
            return cast_array(value.value, dtypes.INT64).reshape(-1)
        raise TypeError(f"slice bounds must be integers or integer tensors, got {describe(value)}")

    def gather_index(self, item: Any) -> tuple[Any, bool]:
        if isinstance(item, AttrTensor):
            return cast_array(item.value, dtypes.INT64), True
        if isinstance(item, Tensor):
            return item.value, True
        if isinstance(item, (bool, np.bool_)) or not isinstance(
            item, (int, np.integer, list, tuple, np.ndarray)
        ):
            raise TypeError(
                f"cannot index a tensor with {describe(item)}: indices are integers, slices, "
                "`...`, None, or integer tensors"
            )
        misfit = indexing.index_misfit(item)
        if misfit is not None:
            raise IndexError(misfit)
        index = np.asarray(item, dtype=np.int64)
        return index, index.ndim > 0

    def int_vector(self, parts: Sequence[Any]) -> Any:
        pieces = [
            np.array([p], dtype=np.int64) if isinstance(p, int) else p.astype(np.int64).reshape(-1)
            for p in parts
        ]
        return np.concatenate(pieces) if pieces else np.zeros((0,), dtype=np.int64)

    def fail(self, item: Any, message: str, hint: str = "", kind: type = TypeError) -> Exception:
        error: Exception = kind(f"{message}; {hint}" if hint else message)
        return error


_TARGETS = {symbol: ArrayTarget(f"`{symbol}`") for symbol in (*rules.BINARY_SYMBOLS, "-", "~", "not",
            "==", "!=", "<", "<=", ">", ">=", "is", "is not", "in", "not in")}  # fmt: skip
_INDEXING = ArrayTarget("indexing")


def binary(symbol: str, a: Any, b: Any) -> Tensor:
    """``a <symbol> b`` for arithmetic and bitwise operators."""
    result: Tensor = rules.binary(_TARGETS[symbol], symbol, a, b)
    return result


def compare(symbol: str, a: Any, b: Any) -> Tensor:
    """``a <symbol> b`` element-wise (``== != < <= > >=``)."""
    result: Tensor = rules.compare(_TARGETS[symbol], symbol, a, b)
    return result


def unary(symbol: str, a: Any) -> Tensor:
    """``-a``, ``~a``, ``not a`` on a tensor (an attribute parameter uses its own type)."""
    result: Tensor = rules.unary(_TARGETS[symbol], symbol, a)
    return result


def boolean(is_and: bool, values: Sequence[Any]) -> Any:
    """``a and b ...`` / ``a or b ...`` as compiled."""
    return rules.boolean(_TARGETS["&" if is_and else "|"], is_and, values, bool)


def compare_chain(symbols: Sequence[str], values: Sequence[Any]) -> Any:
    """``a < b < c``: each comparison on its pair, combined with ``and`` as compiled."""
    return rules.compare_chain(_TARGETS["=="], symbols, values)


def getitem(x: Tensor, items: Sequence[Any], kinds: str) -> Tensor:
    """``x[items]``, with each item's role (slice, index, ``...``, ``None``) in ``kinds``."""
    result = indexing.getitem(_INDEXING, x, items, kinds)
    return result if isinstance(result, Tensor) else Tensor(result)


def getitem_dynamic(x: Tensor, key: Any) -> Tensor:
    """``x[key]`` for a key built at run time (outside a script's source)."""
    items = key if isinstance(key, tuple) else (key,)
    return getitem(x, items, "".join(indexing.kind_of_value(i) for i in items))
