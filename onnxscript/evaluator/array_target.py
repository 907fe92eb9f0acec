"""The language rules (``onnxscript.language``) carried out on eager values.

Operands are :class:`Tensor` objects (an :class:`AttrTensor` is an attribute parameter, an
:class:`IndexTensor` a loop index), numpy arrays and Python values. The rules choose the ops
and the element types exactly as the converter does; each op goes to the current evaluator
(``evaluator.context.eval_op``), as an op of the newest ai.onnx opset onnxruntime runs.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np

from onnxscript import dtypes, schemas
from onnxscript.defaults import default_opset_version
from onnxscript.evaluator import context
from onnxscript.evaluator.arrays import describe
from onnxscript.evaluator.protocol import OpRef
from onnxscript.evaluator.tensor import AttrTensor, IndexTensor, Tensor
from onnxscript.language import indexing
from onnxscript.language import operators as rules
from onnxscript.language.literals import cast_array, literal_array
from onnxscript.language.target import ATTR, INDEX, LITERAL, TENSOR


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
