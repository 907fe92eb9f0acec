"""``Cast(ConstantOfShape(shape, value=v), to=T)`` -> ``ConstantOfShape(shape, value=v
as T)``; ``cast_constant_of_shape_without_value_rule`` does it for a ConstantOfShape
without ``value`` (float 0). Values are cast with numpy's rules, which are ONNX's for
the standard types; 8-, 6-, 4- and 2-bit float and integer targets are left alone."""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.replacement import RewriterContext

_T = ir.DataType
_CASTABLE = frozenset(
    {_T.FLOAT, _T.DOUBLE, _T.FLOAT16, _T.BFLOAT16, _T.BOOL}
    | {_T.INT8, _T.INT16, _T.INT32, _T.INT64, _T.UINT8, _T.UINT16, _T.UINT32, _T.UINT64}
)


def cast_constant_of_shape(op: Any, shape: Any, value: Any, to: Any) -> Any:
    return op.Cast(op.ConstantOfShape(shape, value=value), to=to)


def cast_constant_of_shape_without_value(op: Any, shape: Any, to: Any) -> Any:
    return op.Cast(op.ConstantOfShape(shape, _allow_other_attributes=False), to=to)


def _castable(context: MatchContext, to: ir.Attr, value: ir.Attr | None = None) -> MatchResult:
    result = MatchResult()
    if value is not None and (value.type != ir.AttributeType.TENSOR or value.as_tensor().size != 1):
        return result.fail("the value is not a one-element tensor")
    if value is not None and value.as_tensor().dtype not in _CASTABLE:
        return result.fail(f"values of {value.as_tensor().dtype} are not cast here")
    if ir.DataType(to.as_int()) not in _CASTABLE:
        return result.fail(f"casting to {ir.DataType(to.as_int())} is not done here")
    return result


def fused_cast_constant_of_shape(
    op: RewriterContext, shape: ir.Value, to: ir.Attr, value: ir.Attr
) -> ir.Value:
    return _constant_of_shape(op, shape, to, value.as_tensor().numpy().reshape(1))


def fused_cast_constant_of_shape_without_value(
    op: RewriterContext, shape: ir.Value, to: ir.Attr
) -> ir.Value:
    return _constant_of_shape(op, shape, to, np.zeros(1, np.float32))


def _constant_of_shape(
    op: RewriterContext, shape: ir.Value, to: ir.Attr, array: np.ndarray
) -> ir.Value:
    dtype = ir.DataType(to.as_int())
    tensor = ir.tensor(array.astype(dtype.numpy()), dtype=dtype)
    result: ir.Value = op.ConstantOfShape(shape, value=tensor)
    return result


cast_constant_of_shape_rule = RewriteRule(
    cast_constant_of_shape, fused_cast_constant_of_shape, _castable, name="CastConstantOfShape"
)
cast_constant_of_shape_without_value_rule = RewriteRule(
    cast_constant_of_shape_without_value,
    fused_cast_constant_of_shape_without_value,
    _castable,
    name="CastConstantOfShapeWithoutValue",
)

__all__ = [
    "cast_constant_of_shape",
    "cast_constant_of_shape_rule",
    "cast_constant_of_shape_without_value",
    "cast_constant_of_shape_without_value_rule",
    "fused_cast_constant_of_shape",
    "fused_cast_constant_of_shape_without_value",
]
