"""Reshape-MatMul-Reshape to one broadcast MatMul.

``Reshape(MatMul(Reshape(x, s1), y), s2)`` flattens (or regroups) the batch dims of ``x``,
multiplies its rows by the matrix ``y`` and restores them: ``MatMul(x, y)`` computes the
same, since MatMul treats each row of ``x`` on its own when ``y`` is one matrix (any
batch dims of ``y`` are 1). ``two_reshapes_matmul_reshape_rule`` also allows ``y`` to
be reshaped, when that reshape only adds or drops unit batch dims. A final shape written
with one ``-1`` is accepted, so a symbolic batch dim of ``x`` is no obstacle; the dims the
rule must compare have to be known (sizes, or a ``-1`` in the final shape).

``gemm_to_matmul_add_rule`` does the same for ``Reshape(Gemm(Reshape(x, s1), y, c), s2)``
(alpha = beta = 1, no transposition): ``Add(MatMul(x, y), c)``, when ``c`` adds one row
(rank <= 1, or leading dims 1) so that it broadcasts over ``x``'s batch dims the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import Dim, attr_float, attr_int, constant_ints, dims
from onnxscript.rewriter.class_rules import RewriteRuleClassBase
from onnxscript.rewriter.match_result import MatchResult
from onnxscript.rewriter.pattern_rules import RewriteRule
from onnxscript.rewriter.rules.common.node_copies import has_ref_attributes


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


def _strip_leading_ones(shape: Sequence[Dim]) -> list[Dim]:
    start = 0
    while start < len(shape) - 1 and shape[start] == 1:
        start += 1
    return list(shape[start:])


def _same_up_to_leading_ones(source: Sequence[Dim], target: list[int]) -> bool:
    """Whether Reshape of ``source`` to ``target`` only adds or drops leading 1 dims."""
    if -1 in target:
        if not all(isinstance(d, int) for d in source):
            return False
        target = _resolved(target, int(np.prod([d for d in source if isinstance(d, int)])))
    kept, wanted = _strip_leading_ones(source), _strip_leading_ones(target)
    return len(kept) == len(wanted) and all(
        isinstance(d, int) and d == w for d, w in zip(kept, wanted)
    )


def _matmul_dims(x: Sequence[Dim], y: Sequence[Dim]) -> list[Dim] | None:
    """MatMul's result dims (numpy's rules, 1-D operands included), None when unknown."""
    if not x or not y:
        return None
    left = [1, *x] if len(x) == 1 else list(x)
    right = [*y, 1] if len(y) == 1 else list(y)
    if left[-1] is None or left[-1] != right[-2]:
        return None  # the contracted dims must be known to agree
    batch: list[Dim] = []
    a, b = left[:-2], right[:-2]
    width = max(len(a), len(b))
    ones: list[Dim] = [1] * width
    a, b = ones[: width - len(a)] + a, ones[: width - len(b)] + b
    for da, db in zip(a, b):
        if da == 1 or da == db:
            batch.append(db)
        elif db == 1:
            batch.append(da)
        else:
            return None
    out = [*batch, left[-2], right[-1]]
    if len(x) == 1:
        out.pop(-2)
    if len(y) == 1:
        out.pop(-1)
    return out


def _only_unit_dims(
    x: Sequence[Dim], s1: list[int], y: Sequence[Dim], s0: list[int] | None, s2: list[int]
) -> bool:
    """Whether the inner Reshapes only add or drop leading 1 dims (MatMul broadcasts past
    them), or make a vector ``y`` a column, and the last Reshape gives ``MatMul(x, y)``'s
    shape."""
    if not _same_up_to_leading_ones(x, s1):
        return False
    column = len(y) == 1 and s0 is not None and len(s0) == 2 and s0[1] == 1 and s0[0] == y[0]
    if s0 is not None and not column and not _same_up_to_leading_ones(y, s0):
        return False
    expected = _matmul_dims(x, y)
    return expected is not None and _gives(s2, expected)


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
    if _only_unit_dims(x_dims, shape1, y_dims, shape0, shape2):
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


def check_if_not_need_reshape(context: Any, *args: Any, **_: Any) -> bool:
    """The condition of both rules, read off a match's nodes (``context.root`` the outer
    Reshape): whether ``MatMul`` broadcasting makes the Reshapes unnecessary."""
    outer = context.root
    matmul = outer.inputs[0].producer() if outer.inputs[0] is not None else None
    if matmul is None or matmul.op_type != "MatMul":
        return False
    first = matmul.inputs[0].producer() if matmul.inputs[0] is not None else None
    if first is None or first.op_type != "Reshape":
        return False
    second = matmul.inputs[1].producer() if matmul.inputs[1] is not None else None
    y, s0 = matmul.inputs[1], None
    if second is not None and second.op_type == "Reshape":
        y, s0 = second.inputs[0], second.inputs[1]
    return bool(_check(first.inputs[0], first.inputs[1], y, outer.inputs[1], s0))


def reshape_gemm_reshape_pattern(
    op: Any, input_a: Any, input_b: Any, input_c: Any, shape_a: Any, shape_c: Any
) -> Any:
    flat = op.Reshape(input_a, shape_a)
    return op.Reshape(op.Gemm(flat, input_b, input_c, _outputs=["gemm"]), shape_c)


def _gemm_check(
    context: Any,
    input_a: ir.Value,
    input_b: ir.Value,
    input_c: ir.Value,
    shape_a: ir.Value,
    shape_c: ir.Value,
    gemm: ir.Value,
) -> MatchResult:
    node = gemm.producer()
    assert node is not None
    result = MatchResult()
    if has_ref_attributes(node):
        return result.fail("the Gemm has attribute references", node)
    if attr_int(node, "transA", 0) or attr_int(node, "transB", 0):
        return result.fail("the Gemm transposes an operand", node)
    if attr_float(node, "alpha", 1.0) != 1.0 or attr_float(node, "beta", 1.0) != 1.0:
        return result.fail("alpha and beta must be 1", node)
    found = _check(input_a, shape_a, input_b, shape_c)
    if not found:
        return found
    a_dims, b_dims, c_dims = dims(input_a), dims(input_b), dims(input_c)
    flat, out = constant_ints(shape_a), constant_ints(shape_c)
    assert a_dims is not None and b_dims is not None and flat is not None and out is not None
    if _identities(a_dims, flat, b_dims, None, out) or _only_unit_dims(
        a_dims, flat, b_dims, None, out
    ):
        return found  # only unit dims reshaped: the addend broadcasts as it did
    if c_dims is None or not all(d == 1 for d in c_dims[:-1]):
        return result.fail("the addend must be one row (rank <= 1, or leading dims 1)", input_c)
    return found


def matmul_add(op: Any, input_a: Any, input_b: Any, input_c: Any, **_: Any) -> Any:
    return op.Add(op.MatMul(input_a, input_b), input_c)


gemm_to_matmul_add_rule = RewriteRule(
    reshape_gemm_reshape_pattern, matmul_add, _gemm_check, name="ReshapeGemmReshapeToMatMulAdd"
)
one_reshape_matmul_reshape_rule = OneReshapeMatMulReshape.rule()
two_reshapes_matmul_reshape_rule = TwoReshapesMatMulReshape.rule()

__all__ = [
    "OneReshapeMatMulReshape",
    "TwoReshapesMatMulReshape",
    "check_if_not_need_reshape",
    "gemm_to_matmul_add_rule",
    "matmul_add",
    "one_reshape_matmul_reshape_rule",
    "reshape_gemm_reshape_pattern",
    "two_reshapes_matmul_reshape_rule",
]
