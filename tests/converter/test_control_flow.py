"""Control flow: if/elif/else, return anywhere, for/while loops with break/continue.

Each function is plain Python on numpy scalars, so the undecorated function is the oracle:
the compiled model must give what Python gives, on inputs that take every path.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from onnxscript import BOOL, FLOAT, INT64, graph, script
from onnxscript import opset18 as op
from tests.helpers import assert_close, assert_matches_python, checked_model, run_model


def f32(v):
    return np.array(v, dtype=np.float32)


def i64(v):
    return np.array(v, dtype=np.int64)


SIGNED = [(f32(-3.0),), (f32(0.0),), (f32(2.5),), (f32(40.0),)]


def test_if_else():
    @script()
    def f(x: FLOAT) -> FLOAT:
        if x > 0:
            y = x * 2
        else:
            y = -x
        return y

    assert_matches_python(f, *SIGNED)


def test_if_without_else_keeps_previous_value():
    @script()
    def f(x: FLOAT) -> FLOAT:
        y = x + 1
        if x > 0:
            y = x * 10
        return y

    assert_matches_python(f, *SIGNED)


def test_elif_chain_and_outer_reads():
    @script()
    def f(x: FLOAT, y: FLOAT) -> FLOAT:
        k = y * 2
        if x < -1:
            r = x + k
        elif x < 1:
            r = x - k
        elif x < 10:
            r = x * k
        else:
            r = k
        return r

    assert_matches_python(f, *[(x[0], f32(3.0)) for x in SIGNED])


def test_branch_outputs_are_exactly_live_assigned_variables():
    @script()
    def f(x: FLOAT) -> FLOAT:
        a = x
        if x > 0:
            a = x + 1
            unused = x * 100
            b = a * 2
        else:
            b = x
        return a + b

    model = checked_model(f)
    if_node = next(n for n in model.graph.node if n.op_type == "If")
    # a and b, both read after the If, in the order the then-branch assigns them; not
    # `unused`.
    assert list(if_node.output) == ["a", "b"]
    assert_matches_python(f, *SIGNED)


def test_condition_on_attribute_parameter():
    @script()
    def f(x: FLOAT, alpha: float = 1.0) -> FLOAT:
        if alpha != 1:
            y = x * alpha
        else:
            y = x
        return y

    for alpha in (1.0, 2.5):
        assert_matches_python(f, *SIGNED, alpha=alpha)


def test_python_constant_condition_is_resolved_at_compile_time():
    debug = False

    @script()
    def f(x: FLOAT) -> FLOAT:
        if debug:
            y = x * 100
        else:
            y = x + 1
        return y

    proto = f.to_function_proto()
    assert "If" not in [n.op_type for n in proto.node]
    assert_matches_python(f, *SIGNED)


def test_nested_if():
    @script()
    def f(x: FLOAT, y: FLOAT) -> FLOAT:
        if x > 0:
            if y > 0:
                z = x + y
            else:
                z = x - y
        else:
            z = x * y
        return z

    assert_matches_python(f, *[(a[0], b[0]) for a in SIGNED for b in SIGNED])


def test_conditional_expression():
    @script()
    def f(x: FLOAT) -> FLOAT:
        return x * 2 if x > 1 else x - 1

    assert_matches_python(f, *SIGNED)


def test_return_in_both_branches():
    @script()
    def f(x: FLOAT) -> FLOAT:
        if x > 0:
            return x * 2
        else:
            return x * 3

    assert_matches_python(f, *SIGNED)


def test_early_return_followed_by_code():
    @script()
    def f(x: FLOAT) -> FLOAT:
        if x < 0:
            return -x
        y = x * x
        if y > 100:
            return y - 100
        return y + 1

    assert_matches_python(f, *SIGNED)


def test_return_in_nested_if_with_multiple_outputs():
    @script()
    def f(x: FLOAT, y: FLOAT) -> tuple[FLOAT, FLOAT]:
        if x > 0:
            if y > 0:
                return x, y
            s = x + y
        else:
            s = x - y
        return s, s * 2

    assert_matches_python(f, *[(a[0], b[0]) for a in SIGNED for b in SIGNED])


def test_for_range_with_tensor_bound_and_index():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        s = x
        for i in range(n):
            s = s + op.Cast(i, to=FLOAT.dtype) * x
        return s

    assert_matches_python(f, *[(f32(1.5), i64(n)) for n in (0, 1, 5)])


def test_for_range_start_stop_step_python_and_tensor_bounds():
    @script()
    def f(x: FLOAT, a: INT64, b: INT64, c: INT64) -> tuple[FLOAT, FLOAT, FLOAT]:
        s1 = x
        for i in range(2, 9, 3):
            s1 = s1 + op.Cast(i, to=FLOAT.dtype)
        s2 = x
        for j in range(a, b):
            s2 = s2 * 2 + op.Cast(j, to=FLOAT.dtype)
        s3 = x
        for k in range(b, a, c):
            s3 = s3 - op.Cast(k, to=FLOAT.dtype)
        return s1, s2, s3

    cases = [
        (f32(1.0), i64(a), i64(b), i64(c))
        for a, b, c in [(0, 4, -1), (3, 1, -1), (-2, 5, -2), (5, 5, -3)]
    ]
    assert_matches_python(f, *cases)


def test_zero_trip_loop_keeps_values():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        y = x
        for i in range(n):
            y = y * 2
        return y

    assert_matches_python(f, (f32(3.0), i64(0)), (f32(3.0), i64(4)), (f32(3.0), i64(-2)))


def test_while_loop_with_general_condition():
    @script()
    def f(x: FLOAT) -> FLOAT:
        while x < 100 and x > -100:
            x = x * 3
        return x

    assert_matches_python(f, *[(x,) for (x,) in SIGNED if x != 0])


def test_while_on_a_condition_variable():
    @script()
    def f(x: FLOAT) -> FLOAT:
        go = x < 50
        while go:
            x = x + 7
            go = x < 50
        return x

    assert_matches_python(f, *SIGNED)


def test_break_on_first_and_last_iteration_and_never():
    @script()
    def f(x: FLOAT, n: INT64, stop: INT64) -> FLOAT:
        s = x
        for i in range(n):
            s = s + 1
            if i == stop:
                break
            s = s * 2
        return s

    cases = [(f32(1.0), i64(5), i64(st)) for st in (0, 4, 10)] + [(f32(1.0), i64(0), i64(0))]
    assert_matches_python(f, *cases)


def test_break_as_last_statement_is_compact():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        for i in range(n):
            x = x * 2
            if x > 100:
                break
        return x

    loop = next(n for n in checked_model(f).graph.node if n.op_type == "Loop")
    body = loop.attribute[0].g
    assert "If" not in [n.op_type for n in body.node]
    assert_matches_python(f, *[(f32(v), i64(20)) for v in (1.0, 300.0, -1.0)])


def test_continue_anywhere():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        s = x
        for i in range(n):
            if i % 2 == 0:
                continue
            s = s + op.Cast(i, to=FLOAT.dtype)
            if s > 10:
                continue
            s = s * 2
        return s

    assert_matches_python(f, *[(f32(1.0), i64(n)) for n in (0, 1, 6)])


def test_break_and_continue_in_while():
    @script()
    def f(x: FLOAT) -> FLOAT:
        n = x * 0
        while x > 1:
            x = x - 1
            n = n + 1
            if n > 20:
                break
            if x > 5:
                continue
            n = n + 10
        return n

    assert_matches_python(f, *SIGNED)


def test_return_inside_loop():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        for i in range(n):
            x = x * 2
            if x > 50:
                return x - 1000
        return x

    assert_matches_python(f, *[(f32(v), i64(k)) for v in (1.0, 60.0) for k in (0, 3, 10)])


def test_return_inside_nested_loops():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        total = x
        for i in range(n):
            for j in range(n):
                total = total + 1
                if total > 12:
                    return total * 100
            total = total * 2
        return total

    assert_matches_python(f, *[(f32(v), i64(k)) for v in (0.0, 5.0) for k in (0, 2, 4)])


def test_variable_first_assigned_in_loop_used_after():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        for i in range(n):
            y = x * op.Cast(i, to=FLOAT.dtype)
            if y > 5:
                break
        return y

    assert_matches_python(f, *[(f32(2.0), i64(k)) for k in (1, 3, 10)])


def test_nested_loops_with_if_and_loop_inside_if():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        acc = x
        if x > 0:
            for i in range(n):
                for j in range(i):
                    if j % 2 == 1:
                        acc = acc + op.Cast(j, to=FLOAT.dtype)
                    else:
                        acc = acc - 1
        else:
            k = n
            while k > 0:
                acc = acc * 2
                k = k - 1
        return acc

    assert_matches_python(f, *[(f32(v), i64(k)) for v in (-1.0, 1.0) for k in (0, 3, 5)])


def test_loop_index_visible_after_loop():
    @script()
    def f(n: INT64) -> INT64:
        i = n * 0 - 1
        for i in range(n):
            pass
        return i

    assert_matches_python(f, (i64(0),), (i64(4),))


def test_for_else_and_while_else():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        for i in range(n):
            if x > 10:
                break
            x = x + 3
        else:
            x = x * 100
        y = x
        while y < 20:
            y = y + 4
            if y > 200:
                break
        else:
            y = y - 1
        return y

    assert_matches_python(f, *[(f32(v), i64(k)) for v in (1.0, 8.0) for k in (0, 2, 6)])


def test_scan_with_nested_graph_reading_outer_values():
    @script()
    def cumsum(x: FLOAT["N", 3], scale: FLOAT) -> FLOAT["N", 3]:
        @graph()
        def body(state: FLOAT[3], row: FLOAT[3]):
            new = state + row * scale
            return new, new

        zero = op.ConstantOfShape(op.Constant(value=[3]))
        final, rows = op.Scan(zero, x, body=body, num_scan_inputs=1)
        return rows

    x = np.arange(12, dtype=np.float32).reshape(4, 3)
    assert_close(run_model(checked_model(cumsum), x, f32(2.0)), [np.cumsum(x * 2, axis=0)])


def test_explicit_if_and_loop_ops_with_graph_attributes():
    @script()
    def f(x: FLOAT, c: BOOL) -> FLOAT:
        @graph()
        def then_branch():
            return op.Identity(x * 2)

        @graph()
        def else_branch():
            return op.Identity(x * 3)

        return op.If(c, then_branch=then_branch, else_branch=else_branch)

    model = checked_model(f)
    assert_close(run_model(model, f32(2.0), np.array(True)), [f32(4.0)])
    assert_close(run_model(model, f32(2.0), np.array(False)), [f32(6.0)])


def test_reassignment_gives_readable_unique_names():
    @script()
    def f(x: FLOAT) -> FLOAT:
        y = x + 1
        y = y * 2
        if y > 3:
            y = y - 1
        for i in range(3):
            y = y + 1
        return y

    model = checked_model(f)
    names = []

    def collect(g):
        for n in g.node:
            names.extend(n.output)
            for a in n.attribute:
                if a.type == onnx.AttributeProto.GRAPH:
                    names.extend(i.name for i in a.g.input)
                    collect(a.g)

    collect(model.graph)
    assert len(names) == len(set(names))
    assert {"y", "y_1"} <= set(names)
    assert_matches_python(f, *SIGNED)


def test_loop_carried_type_change_is_an_error():
    from onnxscript import ScriptError

    with pytest.raises(ScriptError, match="loop variable 'y'"):

        @script()
        def f(x: FLOAT, n: INT64) -> FLOAT:
            y = n
            for i in range(n):
                y = op.Cast(y, to=FLOAT.dtype) * x
            return y


def test_loop_with_unused_results_leaves_no_dead_constants():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        for i in range(3):
            if i > 1:
                break
            z = x * 2
        return x

    proto = f.to_function_proto()
    assert [n.op_type for n in proto.node] == ["Identity"]


def test_loop_over_compile_time_tuple_is_unrolled():
    weights = (0.5, 2.0, -1.0)

    @script()
    def f(x: FLOAT, y: FLOAT) -> FLOAT:
        acc = x * 0
        for w in weights:
            acc = acc + w * x
        for a, b in ((1.0, 2.0), (3.0, 4.0)):
            acc = acc + a * b
        for v in (x, y, x * y):
            acc = acc + v
        return acc

    assert "Loop" not in [n.op_type for n in f.to_function_proto().node]
    assert_matches_python(f, (f32(2.0), f32(3.0)), (f32(-1.0), f32(0.5)))


def test_loop_over_tensor_rows():
    @script()
    def f(x: FLOAT["N", 3]) -> FLOAT[3]:
        total = op.ConstantOfShape(op.Constant(value=[3]))
        for row in x:
            if op.ReduceSum(row) > 3:
                continue
            total = total + row
        return total

    x = np.array([[1, 1, 1], [5, 5, 5], [0, 1, 0]], np.float32)
    model = checked_model(f)
    assert_close(run_model(model, x), [x[0] + x[2]])
    assert_close(run_model(model, x[:0]), [np.zeros(3, np.float32)])


@pytest.mark.parametrize(
    ("params", "iterated"), [("x: FLOAT", "x"), ("x: FLOAT, y: FLOAT", "x * y + 1.0")]
)
def test_loop_over_a_scalar_is_a_located_error(params: str, iterated: str):
    """A rank-0 tensor has no rows: the Gather reading them would make a model that onnx's
    shape inference rejects."""
    from onnxscript import ScriptError
    from tests.helpers import define

    source = (
        f"def f({params}) -> FLOAT:\n    s = op.Constant(value_float=0.0)\n"
        f"    for row in {iterated}:\n        s = s + row\n    return s\n"
    )
    with pytest.raises(ScriptError) as info:
        script()(define(source, {"FLOAT": FLOAT, "op": op}))
    err = info.value
    assert (err.lineno, err.col) == (3, len("    for row in "))
    assert err.source_line.strip() == f"for row in {iterated}:"
    assert err.message == (
        f"cannot loop over {iterated}: it is a scalar (rank 0, as annotated), which has no "
        "first axis to iterate over"
    )
    assert err.hint.startswith(f"annotate {iterated} with its shape (FLOAT['N'] for a vector")


def test_explicit_loop_op_with_graph_body():
    @script()
    def f(x: FLOAT, n: INT64) -> FLOAT:
        @graph()
        def body(i: INT64, cond: BOOL, acc: FLOAT):
            out_cond = op.Identity(cond)
            new_acc = acc + x
            return out_cond, new_acc

        return op.Loop(n, None, x, body=body)

    model = checked_model(f)
    assert_close(run_model(model, f32(2.0), i64(3)), [f32(8.0)])
    assert_close(run_model(model, f32(2.0), i64(0)), [f32(2.0)])


def test_while_condition_with_one_element_of_rank_one():
    @script()
    def f(x: FLOAT["N"]) -> FLOAT["N"]:
        limit = op.Constant(value_float=100.0)
        go = op.ReduceSum(x) < limit  # keepdims: shape [1]
        while go:
            x = op.Add(x, x)
            go = op.ReduceSum(x) < limit
        return x

    x = np.ones(3, np.float32)
    assert_close(run_model(checked_model(f), x), [x * 64])


def test_python_int_counter_carried_by_a_loop():
    @script()
    def f(x: FLOAT[3], n: INT64) -> tuple[FLOAT[3], INT64]:
        i = 0
        y = x
        while i < n:
            y = y + i
            i = i + 1
        return y, i

    x = np.ones(3, np.float32)
    model = checked_model(f)
    assert_close(run_model(model, x, i64(4)), [x + 6, i64(4)])
    assert_close(run_model(model, x, i64(0)), [x, i64(0)])
