"""GELU written out with elementary ops, to onnxruntime's kernels: the tanh approximation
``0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3)))`` (GPT-2's ``gelu_new``) to
``com.microsoft.FastGelu``, the exact form ``0.5 * x * (1 + erf(x / sqrt(2)))`` to
``com.microsoft.Gelu``. The product's three factors may be grouped either way and every
Add and Mul may have its operands in either order."""

from __future__ import annotations

import math
from typing import Any, ClassVar

import onnx_ir as ir

from onnxscript.ir_utils import value_facts
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.fuse_functions import fuse_function
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.ordered_rules import RewriteRuleSet
from onnxscript.rewriter.ort_fusions import cpu_kernels
from onnxscript.rewriter.pattern_graph import Constant, OrValue

_MS = "com.microsoft"
_SQRT_TWO = math.sqrt(2.0)
_SQRT_TWO_OVER_PI = math.sqrt(2.0 / math.pi)


def _number(value: float) -> Constant:
    """A scalar constant, to float16 precision (exports round these numbers)."""
    return Constant(value, rel_tol=1e-3)


def scaled(op: Any, x: Any, factor: float) -> Any:
    """``x * factor`` or ``factor * x``."""
    c = _number(factor)
    return OrValue([op.Mul(x, c), op.Mul(c, x)])


def product(op: Any, a: Any, b: Any) -> Any:
    """``a * b`` or ``b * a``."""
    return OrValue([op.Mul(a, b), op.Mul(b, a)])


def half_product(op: Any, x: Any, one_plus: Any, grouping: int, swapped: bool) -> Any:
    """``0.5 * x * one_plus`` grouped as ``(0.5x) f`` (0), ``(x f) 0.5`` (1) or
    ``x (0.5 f)`` (2); ``swapped``: the root Mul's operands in the other order."""
    if grouping == 0:
        left, right = scaled(op, x, 0.5), one_plus
    elif grouping == 1:
        left, right = product(op, x, one_plus), _number(0.5)
    else:
        left, right = x, scaled(op, one_plus, 0.5)
    return op.Mul(right, left) if swapped else op.Mul(left, right)


def plus_one(op: Any, t: Any) -> Any:
    return OrValue([op.Add(t, _number(1.0)), op.Add(_number(1.0), t)])


class _GeluFusion(RewriteRuleClassBase):
    """One grouping of the product (see :func:`half_product`); the check: ``x`` as the
    contrib kernel (``op_type``) takes it on the CPU (:mod:`.cpu_kernels`)."""

    op_type: ClassVar[str]

    def __init__(self, grouping: int, swapped: bool) -> None:
        super().__init__(f"{type(self).__name__}{grouping}{'Swapped' if swapped else ''}")
        self._grouping = grouping
        self._swapped = swapped

    def _half_product(self, op: Any, x: Any, one_plus: Any) -> Any:
        return half_product(op, x, one_plus, self._grouping, self._swapped)

    def check(self, context: Any, x: ir.Value, **_: Any) -> MatchResult:
        result = MatchResult()
        refused = cpu_kernels.gelu(self.op_type, value_facts.tensor_dtype(x), value_facts.rank(x))
        if refused is not None:
            return result.fail(refused, x)
        return result


class GeluTanhFusion(_GeluFusion):
    """The tanh approximation to ``FastGelu(x)``; the cube is ``x ** 3`` or ``x * x * x``."""

    op_type = "FastGelu"

    def pattern(self, op: Any, x: Any) -> Any:
        cube = OrValue([op.Pow(x, _number(3.0)), op.Mul(op.Mul(x, x), x)])
        small = scaled(op, cube, 0.044715)
        inner = OrValue([op.Add(x, small), op.Add(small, x)])
        tanh = op.Tanh(scaled(op, inner, _SQRT_TWO_OVER_PI))
        return self._half_product(op, x, plus_one(op, tanh))

    def rewrite(self, op: Any, x: ir.Value, **_: Any) -> Any:
        return op.FastGelu(x, _domain=_MS, _version=1)


class GeluErfFusion(_GeluFusion):
    """The exact form to ``com.microsoft.Gelu(x)``; ``x / sqrt(2)`` or ``x * (1/sqrt(2))``."""

    op_type = "Gelu"

    def pattern(self, op: Any, x: Any) -> Any:
        argument = OrValue([op.Div(x, _number(_SQRT_TWO)), scaled(op, x, 1 / _SQRT_TWO)])
        return self._half_product(op, x, plus_one(op, op.Erf(argument)))

    def rewrite(self, op: Any, x: ir.Value, **_: Any) -> Any:
        return op.Gelu(x, _domain=_MS, _version=1)


_FORMS = [(grouping, swapped) for grouping in range(3) for swapped in (False, True)]
gelu_tanh_rules = [GeluTanhFusion.rule(grouping=g, swapped=s) for g, s in _FORMS]
gelu_erf_rules = [GeluErfFusion.rule(grouping=g, swapped=s) for g, s in _FORMS]
# Operand orders are spelled out with OrValue: commuting every Mul and Add would make
# hundreds of rules.
gelu_rules = RewriteRuleSet([*gelu_tanh_rules, *gelu_erf_rules])

fuse_gelu = fuse_function(
    gelu_rules, "Fuse GELU decompositions of ``model`` (in place); the number fused."
)

__all__ = [
    "GeluErfFusion",
    "GeluTanhFusion",
    "fuse_gelu",
    "gelu_erf_rules",
    "gelu_rules",
    "gelu_tanh_rules",
    "half_product",
    "plus_one",
    "product",
    "scaled",
]
