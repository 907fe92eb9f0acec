"""Reshape-MatMul-Reshape to one broadcast MatMul.

``Reshape(MatMul(Reshape(x, s1), y), s2)`` flattens (or regroups) the batch dims of ``x``,
multiplies its rows by the matrix ``y`` and restores them: ``MatMul(x, y)`` computes the
same, since MatMul treats each row of ``x`` on its own when ``y`` is one matrix (any
batch dims of ``y`` are 1). ``two_reshapes_matmul_reshape_rule`` also allows ``y`` to
be reshaped, when that reshape only adds or drops unit batch dims. A final shape written
with one ``-1`` is accepted, so a symbolic batch dim of ``x`` is no obstacle; the dims the
rule must compare have to be known (sizes, or a ``-1`` in the final shape).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import Dim, constant_ints, dims
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult


def _valid_shape(shape: list[int] | None) -> bool:
    """A Reshape target the rules can read: no 0 (copy) entries, at most one -1."""
    return shape is not None and 0 not in shape and shape.count(-1) <= 1


def _gives(shape: Sequence[int], target: Sequence[Dim]) -> bool:
    """Whether Reshape to ``shape`` yields ``target`` (for an input of as many elements):
    equal ranks, every entry equal to the target's known size except one ``-1``."""
    if len(shape) != len(target):
        return False
    return all(s == -1 or (isinstance(t, int) and s == t) for s, t in zip(shape, target))


def _unit_batch_matrix(shape: Sequence[Dim]) -> bool:
    """A rank >= 2 shape whose dims before the last two are all 1."""
    return len(shape) >= 2 and all(d == 1 for d in shape[:-2])


def _rowwise(
    x: Sequence[Dim], s1: list[int], y: Sequence[Dim], s2: list[int]
) -> MatchResult | None:
    """None when the rows of ``x`` go through unchanged; else the failure."""
    result = MatchResult()
    k = x[-1] if x else None
    if not isinstance(k, int) or s1[-1] != k:
        return result.fail("the first Reshape must keep the last dim of x (known size)")
    if not _unit_batch_matrix(y) or (len(y) > 2 and len(y) > len(x)):
        return result.fail("the right operand must be one matrix (unit batch dims)")
    if not _gives(s2, [*x[:-1], y[-1]]):
        return result.fail("the last Reshape does not restore the batch dims of x")
    return None


def _static_matmul_shape(x: list[int], y: list[int]) -> list[int] | None:
    if len(x) < 2 or len(y) < 2:
        return None
    try:
        batch = np.broadcast_shapes(tuple(x[:-2]), tuple(y[:-2]))
    except ValueError:
        return None
    return [*batch, x[-2], y[-1]]


def _resolved(shape: list[int], size: int) -> list[int]:
    """``shape`` with its -1 (if any) replaced for a tensor of ``size`` elements."""
    known = int(np.prod([d for d in shape if d != -1]))
    return [size // known if d == -1 and known else d for d in shape]


def _identities(
    x: Sequence[Dim], s1: list[int], y: Sequence[Dim], s0: list[int] | None, s2: list[int]
) -> bool:
    """Whether, all shapes being static, every Reshape leaves its input's shape as it is."""
    if not all(isinstance(d, int) for d in (*x, *y)):
        return False
    xs, ys = [int(d) for d in x if isinstance(d, int)], [int(d) for d in y if isinstance(d, int)]
    out = _static_matmul_shape(xs, ys)
    if out is None or _resolved(s1, int(np.prod(xs))) != xs:
        return False
    if s0 is not None and _resolved(s0, int(np.prod(ys))) != ys:
        return False
    return _resolved(s2, int(np.prod(out))) == out


def _check(
    x: ir.Value, s1: ir.Value, y: ir.Value, s2: ir.Value, y_reshape: ir.Value | None = None
) -> MatchResult:
    result = MatchResult()
    shape1, shape2 = constant_ints(s1), constant_ints(s2)
    shape0 = constant_ints(y_reshape) if y_reshape is not None else None
    if not (_valid_shape(shape1) and _valid_shape(shape2)):
        return result.fail("the Reshape shapes must be constants without 0 entries", [s1, s2])
    if y_reshape is not None and not _valid_shape(shape0):
        return result.fail("the shape of y's Reshape must be a constant", y_reshape)
    x_dims, y_dims = dims(x), dims(y)
    if x_dims is None or y_dims is None:
        return result.fail("the ranks of x and y must be known", [x, y])
    assert shape1 is not None and shape2 is not None
    if _identities(x_dims, shape1, y_dims, shape0, shape2):
        return result
    if shape0 is not None and not (_unit_batch_matrix(shape0) and shape0[-2:] == y_dims[-2:]):
        return result.fail("y's Reshape must only add or drop unit batch dims", y_reshape)
    failure = _rowwise(x_dims, shape1, y_dims, shape2)
    return failure if failure is not None else result


class OneReshapeMatMulReshape(RewriteRuleClassBase):
    """``Reshape(MatMul(Reshape(x, s1), y), s2)`` -> ``MatMul(x, y)``."""

    def pattern(self, op: Any, x: Any, s1: Any, y: Any, s2: Any) -> Any:
        return op.Reshape(op.MatMul(op.Reshape(x, s1), y), s2)

    def check(self, context: Any, x: Any, s1: Any, y: Any, s2: Any, **_: Any) -> MatchResult:
        return _check(x, s1, y, s2)

    def rewrite(self, op: Any, x: Any, y: Any, **_: Any) -> Any:
        return op.MatMul(x, y)


class TwoReshapesMatMulReshape(RewriteRuleClassBase):
    """``Reshape(MatMul(Reshape(x, s1), Reshape(y, s0)), s2)`` -> ``MatMul(x, y)``."""

    def pattern(self, op: Any, x: Any, s1: Any, y: Any, s0: Any, s2: Any) -> Any:
        return op.Reshape(op.MatMul(op.Reshape(x, s1), op.Reshape(y, s0)), s2)

    def check(
        self, context: Any, x: Any, s1: Any, y: Any, s0: Any, s2: Any, **_: Any
    ) -> MatchResult:
        return _check(x, s1, y, s2, s0)

    def rewrite(self, op: Any, x: Any, y: Any, **_: Any) -> Any:
        return op.MatMul(x, y)


one_reshape_matmul_reshape_rule = OneReshapeMatMulReshape.rule()
two_reshapes_matmul_reshape_rule = TwoReshapesMatMulReshape.rule()

__all__ = ["one_reshape_matmul_reshape_rule", "two_reshapes_matmul_reshape_rule"]
