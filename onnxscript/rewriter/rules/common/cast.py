"""Casts that can go: ``no_op_cast_rule`` (a Cast to the type its input has) and
``cast_cast_rule`` (``Cast(Cast(x, T1), T2)`` -> ``Cast(x, T2)``).

Two Casts make one when the first changes no value: it casts to ``T2`` itself, or ``x``'s
type converts to ``T1`` exactly (float16 -> float -> int32 is float16 -> int32). As
onnxscript 0.7 does, float -> float16 / bfloat16 through float is also merged whatever
``x`` is (a double rounded twice may differ in the last bit from one rounding)."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.ir_utils.value_facts import cast_target
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_context import MatchContext
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.replacement import RewriterContext

_T = ir.DataType
_FLOATS = (_T.FLOAT16, _T.BFLOAT16, _T.FLOAT, _T.DOUBLE)
_EXACT: dict[ir.DataType, frozenset[ir.DataType]] = {
    _T.BOOL: frozenset(
        {_T.UINT8, _T.INT8, _T.UINT16, _T.INT16, _T.UINT32, _T.INT32, _T.UINT64, _T.INT64}
        | set(_FLOATS)
    ),
    _T.UINT8: frozenset({_T.UINT16, _T.INT16, _T.UINT32, _T.INT32, _T.UINT64, _T.INT64, *_FLOATS}),
    _T.INT8: frozenset({_T.INT16, _T.INT32, _T.INT64, *_FLOATS}),
    _T.UINT16: frozenset({_T.UINT32, _T.INT32, _T.UINT64, _T.INT64, _T.FLOAT, _T.DOUBLE}),
    _T.INT16: frozenset({_T.INT32, _T.INT64, _T.FLOAT, _T.DOUBLE}),
    _T.UINT32: frozenset({_T.UINT64, _T.INT64, _T.DOUBLE}),
    _T.INT32: frozenset({_T.INT64, _T.DOUBLE}),
    _T.FLOAT16: frozenset({_T.FLOAT, _T.DOUBLE}),
    _T.BFLOAT16: frozenset({_T.FLOAT, _T.DOUBLE}),
    _T.FLOAT: frozenset({_T.DOUBLE}),
}
"""The types each type converts to without changing any value."""

_MERGED_AS_072 = frozenset({(_T.FLOAT, _T.FLOAT16), (_T.FLOAT, _T.BFLOAT16)})
"""(intermediate, final) pairs onnxscript 0.7.2 merges whatever the source type."""


class CastCast(RewriteRuleClassBase):
    """``Cast(Cast(x, T1), T2)`` -> ``Cast(x, T2)`` when the first Cast changes no value."""

    def pattern(self, op: Any, x: Any, to: Any, mid_to: Any) -> Any:
        return op.Cast(op.Cast(x, to=mid_to, _outputs=["mid"]), to=to)

    def check(self, context: MatchContext, x: ir.Value, mid: ir.Value, **_: Any) -> MatchResult:
        result = MatchResult()
        inner = mid.producer()
        middle = cast_target(inner) if inner is not None else None
        final = cast_target(context.root)  # type names before opset 6
        if middle is None or final is None:
            return result.fail("a Cast's target type is not known", context.root)
        if middle == final or (middle, final) in _MERGED_AS_072:
            return result
        if x.dtype is not None and (x.dtype == middle or middle in _EXACT.get(x.dtype, ())):
            return result
        return result.fail(f"casting {x.dtype} to {middle.name} may change values", x)

    def rewrite(
        self, op: RewriterContext, x: ir.Value, to: ir.Attr, mid_to: ir.Attr, mid: ir.Value
    ) -> ir.Value:
        """One Cast with the attributes of the Cast that decides the values: the first when
        both cast to one type (its ``saturate`` applies), else the second."""
        inner = mid.producer()
        outer = next(iter(mid.uses())).node
        same = inner is not None and cast_target(inner) == cast_target(outer)
        deciding = inner if inner is not None and same else outer
        attributes = {a.name: a for a in deciding.attributes.values()}
        value: ir.Value = op.Cast(x, **attributes)
        return value


class CastIdentity(RewriteRuleClassBase):
    """``Cast(x, to=T)`` -> ``x`` when ``x`` has type ``T``."""

    def pattern(self, op: Any, x: Any, to: Any) -> Any:
        return op.Cast(x, to=to)

    def check(self, context: MatchContext, x: ir.Value, to: ir.Attr) -> MatchResult:
        result = MatchResult()
        if x.dtype is None or x.dtype != cast_target(context.root):
            return result.fail("the input's type is not known to be the target type", x)
        return result

    def rewrite(self, op: RewriterContext, x: ir.Value, to: ir.Attr) -> ir.Value:
        value: ir.Value = op.Identity(x)
        return value


cast_cast_rule = CastCast.rule()
no_op_cast_rule = CastIdentity.rule()

__all__ = ["CastCast", "CastIdentity", "cast_cast_rule", "no_op_cast_rule"]
