"""torch's type promotion for the binary overloads torch.onnx does not promote itself.

torch.onnx casts the operands of the ops its type-promotion table lists (add, div, lt,
...); aliases it keeps whole when the library registers them (``divide``, ``multiply``,
``subtract``, ``greater``, ``less``, ...) arrive with operands of different element types
(a float tensor divided by an int64 count), which ONNX ops refuse. :func:`promote` casts
them as torch would: across categories (bool < integer < floating) the higher category's
type wins (torch's default float32 for a Python float or a true division of integers);
within one, a tensor with dims wins over a rank-0 one or a Python number, else the wider
type.
"""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.function_libs.torch_lib.helpers.facts import element_type
from onnxscript.function_libs.torch_lib.helpers.sizes import scalar_as

_FLOATING = {
    ir.DataType.FLOAT16: 1,
    ir.DataType.BFLOAT16: 1,
    ir.DataType.FLOAT: 2,
    ir.DataType.DOUBLE: 3,
}


def _category(dtype: ir.DataType) -> int:
    if dtype == ir.DataType.BOOL:
        return 0
    return 2 if dtype in _FLOATING else 1


def _is_number(value: Any) -> bool:
    return isinstance(value, (bool, int, float))


def _weak(value: Any) -> bool:
    """A Python number or a rank-0 tensor: within its category, the other operand's type
    wins (an op's result whose shape torch's recorder left unknown is not weak)."""
    shape = getattr(value, "shape", None)
    return _is_number(value) or (shape is not None and len(shape) == 0)


def _result_type(a: Any, b: Any, ta: ir.DataType, tb: ir.DataType) -> ir.DataType:
    ca, cb = _category(ta), _category(tb)
    if ca != cb:
        value, dtype = (a, ta) if ca > cb else (b, tb)
        if _is_number(value):  # an int tensor times 2.5: torch's default float
            return ir.DataType.FLOAT if dtype in _FLOATING else ir.DataType.INT64
        return dtype
    if _weak(a) != _weak(b):
        return tb if _weak(a) else ta
    if ca == 2:
        if {ta, tb} == {ir.DataType.FLOAT16, ir.DataType.BFLOAT16}:
            return ir.DataType.FLOAT
        return ta if _FLOATING[ta] >= _FLOATING[tb] else tb
    return ta if ta.itemsize >= tb.itemsize else tb


def promote(a: Any, b: Any, *, to_float: bool = False) -> tuple[Any, Any]:
    """``a`` and ``b`` in their common type (floating when ``to_float``: true division);
    unchanged when a type is unknown while tracing."""
    ta, tb = element_type(a), element_type(b)
    if ta is None or tb is None:
        return a, b
    target = _result_type(a, b, ta, tb)
    if to_float and target not in _FLOATING:
        target = ir.DataType.FLOAT
    a = a if ta == target else scalar_as(a, target)
    b = b if tb == target else scalar_as(b, target)
    return a, b
