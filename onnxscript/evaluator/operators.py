"""Python operators on eager values, with the converter's operand rules.

Operands are made tensors as the converter makes them: a run-time tensor (a
:class:`Tensor`, a numpy array or numpy scalar) keeps its element type; a Python number
takes the element type of the tensor it is combined with; an attribute parameter
(:class:`AttrTensor`) is cast to that type, or keeps its own when both sides are attribute
parameters or literals; a loop index (:class:`IndexTensor`) is cast to the type of a
tensor it is combined with (FLOAT next to a Python float, as an int next to a float), and
``+ - * // %`` of loop indices and Python ints give a loop index again. The op choice
itself comes from ``onnxscript.operator_rules``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from onnxscript import operator_rules as rules
from onnxscript.converter.dtypes import BOOL, FLOAT
from onnxscript.defaults import default_opset_version
from onnxscript.evaluator.arrays import cast_array, literal_array, onnx_dtype
from onnxscript.evaluator.tensor import AttrTensor, IndexTensor, Tensor
from onnxscript.values import Op

_TENSOR, _ATTR, _LITERAL, _INDEX = 0, 1, 2, 3


@functools.lru_cache(maxsize=256)
def default_op(op_type: str) -> Op:
    """``op_type`` of the ai.onnx opset used for operators (the newest onnxruntime runs)."""
    from onnxscript.opsets import get_opset

    opset = get_opset(f"opset{default_opset_version()}")
    assert opset is not None
    return opset[op_type]


def emit(op_type: str, *inputs: Any, **attributes: Any) -> Tensor:
    """Run one ai.onnx op eagerly on arrays; the result is a :class:`Tensor`."""
    from onnxscript.evaluator.eager import call_op

    result: Tensor = call_op(default_op(op_type), inputs, attributes, wrap=True)
    return result


def _kind(value: Any) -> int:
    if isinstance(value, Tensor):
        if isinstance(value, AttrTensor):
            return _ATTR
        return _INDEX if isinstance(value, IndexTensor) else _TENSOR
    if isinstance(value, (np.ndarray, np.generic)):
        return _TENSOR
    return _LITERAL


def _array(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return value.value
    return np.asarray(value)


def adopt(value: Any, dtype: int, where: str) -> np.ndarray:
    """``value`` as an array that takes element type ``dtype`` if it is not a run-time
    tensor (run-time tensors keep theirs; a mismatch then fails like the compiled op)."""
    kind = _kind(value)
    if kind in (_TENSOR, _INDEX):
        return _array(value)
    if kind == _ATTR:
        return cast_array(value.value, dtype)
    return literal_array(value, dtype, where)


def default_array(value: Any, where: str) -> np.ndarray:
    """``value`` as an array with its own (or default) element type."""
    if isinstance(value, Tensor):
        return value.value
    if isinstance(value, (np.ndarray, np.generic)):
        return np.asarray(value)
    return literal_array(value, None, where)


def operands(a: Any, b: Any, where: str) -> tuple[np.ndarray, np.ndarray]:
    """Both operands of a binary operator or comparison as arrays."""
    ka, kb = _kind(a), _kind(b)
    if ka == _INDEX and isinstance(b, float):
        return cast_array(a.value, FLOAT), literal_array(b, FLOAT, where)
    if kb == _INDEX and isinstance(a, float):
        return literal_array(a, FLOAT, where), cast_array(b.value, FLOAT)
    if ka == _INDEX and kb == _TENSOR:
        right = _array(b)
        return cast_array(a.value, onnx_dtype(right.dtype)), right
    if kb == _INDEX and ka == _TENSOR:
        left = _array(a)
        return left, cast_array(b.value, onnx_dtype(left.dtype))
    if ka in (_TENSOR, _INDEX):
        left = _array(a)
        return left, adopt(b, onnx_dtype(left.dtype), where)
    if kb in (_TENSOR, _INDEX):
        right = _array(b)
        return adopt(a, onnx_dtype(right.dtype), where), right
    if kb == _ATTR and ka != _ATTR:
        right = b.value
        return adopt(a, onnx_dtype(right.dtype), where), right
    left = default_array(a, where)
    return left, adopt(b, onnx_dtype(left.dtype), where)


def binary(symbol: str, a: Any, b: Any) -> Tensor:
    """``a <symbol> b`` for arithmetic and bitwise operators."""
    left, right = operands(a, b, f"`{symbol}`")
    result: Tensor = rules.binary(symbol, left, right, onnx_dtype(left.dtype), emit)
    if symbol in rules.INT_RESULT_SYMBOLS and _int_like(a) and _int_like(b):
        return IndexTensor(result.value)
    return result


def _int_like(value: Any) -> bool:
    if isinstance(value, IndexTensor):
        return True
    return isinstance(value, int) and not isinstance(value, bool)


def compare(symbol: str, a: Any, b: Any) -> Tensor:
    """``a <symbol> b`` element-wise (``== != < <= > >=``)."""
    left, right = operands(a, b, f"`{symbol}`")
    result: Tensor = rules.compare(symbol, left, right, emit)
    return result


def unary(symbol: str, a: Any) -> Tensor:
    """``-a``, ``~a``, ``not a`` on a tensor (an attribute parameter uses its own type)."""
    value = default_array(a, f"`{symbol}`")
    result: Tensor = rules.unary(symbol, value, onnx_dtype(value.dtype), emit)
    return result


def boolean(is_and: bool, values: Sequence[Any]) -> Any:
    """``a and b ...`` / ``a or b ...`` as compiled: every operand is evaluated; Python
    values that decide the result fold it; the tensors are combined with ``And``/``Or``
    and must be BOOL (attribute parameters are cast to BOOL)."""
    if not any(isinstance(v, Tensor) for v in values):
        result = values[0]
        for v in values[1:]:
            result = (result and v) if is_and else (result or v)
        return result
    tensors: list[np.ndarray] = []
    for v in values:
        if not isinstance(v, Tensor):
            truth = bool(v)
            if truth != is_and:
                return truth
            continue
        tensors.append(cast_array(v.value, BOOL) if isinstance(v, AttrTensor) else v.value)
    dtypes = [onnx_dtype(t.dtype) for t in tensors]
    result = rules.boolean(is_and, tensors, dtypes, emit)
    return Tensor(result) if isinstance(result, np.ndarray) else result


def _contains(a: Any, b: Any) -> bool:
    return a in b


def _not_contains(a: Any, b: Any) -> bool:
    return a not in b


_PY_COMPARE: dict[str, Callable[[Any, Any], Any]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "is": operator.is_,
    "is not": operator.is_not,
    "in": _contains,
    "not in": _not_contains,
}


def compare_chain(symbols: Sequence[str], values: Sequence[Any]) -> Any:
    """``a < b < c``: each comparison on its pair, combined with ``and`` as compiled."""
    results = []
    for symbol, left, right in zip(symbols, values, values[1:], strict=False):
        if not isinstance(left, Tensor) and not isinstance(right, Tensor):
            results.append(_PY_COMPARE[symbol](left, right))
        elif symbol in ("is", "is not", "in", "not in"):
            raise TypeError(
                f"`{symbol}` cannot be used with tensors; use ==, !=, <, <=, >, >= "
                "(they compare element-wise)"
            )
        else:
            results.append(compare(symbol, left, right))
    if len(results) == 1:
        return results[0]
    return boolean(True, results)
