"""Liveness, loop-carried values and If outputs, on small ASTs."""

from __future__ import annotations

import ast
import textwrap

from onnxscript.analysis import analyze, if_outputs, loop_carried
from onnxscript.analysis.names import assigned_names, free_names, used_names


def body(src: str) -> list[ast.stmt]:
    return ast.parse(textwrap.dedent(src)).body


def test_straight_line_live_in_sets():
    stmts = body(
        """
        a = x + 1
        b = a * y
        c = b + a
        z = c
        """
    )
    live = analyze(stmts, frozenset({"z"}))
    assert [sorted(live.live_in(s)) for s in stmts] == [
        ["x", "y"],
        ["a", "y"],
        ["a", "b"],
        ["c"],
    ]
    assert sorted(live.live_out(stmts[-1])) == ["z"]


def test_if_outputs_are_assigned_and_live_in_source_order():
    stmts = body(
        """
        if c:
            b = 1
            a = 2
            tmp = 3
        else:
            a = 4
            d = 5
        r = a + b + d
        """
    )
    live = analyze(stmts)
    assert if_outputs(stmts[0], live) == ["b", "a", "d"]


def test_for_loop_carried_values():
    stmts = body(
        """
        s = 0
        t = 0
        for i in range(n):
            u = s * 2
            s = u + i
            t = i
            w = u
        r = s + t
        """
    )
    live = analyze(stmts, frozenset({"r"}))
    loop = stmts[2]
    assert loop_carried(loop, live) == ["s", "t"]
    assert "n" in live.live_in(loop)
    assert "s" in live.loop_head(loop)


def test_value_read_in_next_iteration_is_carried_even_if_dead_after():
    stmts = body(
        """
        p = x
        for i in range(n):
            q = p
            p = x + q
        r = x
        """
    )
    live = analyze(stmts, frozenset({"r"}))
    assert loop_carried(stmts[1], live) == ["p"]


def test_while_loop_condition_is_live_and_carried():
    stmts = body(
        """
        while c:
            x = x + 1
            c = x < 10
        y = x
        """
    )
    live = analyze(stmts, frozenset({"y"}))
    assert loop_carried(stmts[0], live) == ["x", "c"]
    assert {"c", "x"} <= live.live_in(stmts[0])


def test_loop_target_carried_only_if_used_after():
    stmts = body(
        """
        for i in range(n):
            a = i
        b = i
        """
    )
    live = analyze(stmts, frozenset({"b"}))
    assert loop_carried(stmts[0], live) == ["i"]
    live2 = analyze(stmts[:1], frozenset())
    assert loop_carried(stmts[0], live2) == []


def test_nested_function_uses_count_where_it_is_passed():
    stmts = body(
        """
        k = 2
        def g(s, r):
            return s + r * k
        k2 = 3
        y = op.Scan(x, body=g)
        """
    )
    live = analyze(stmts, frozenset({"y"}))
    assert "k" in live.live_in(stmts[3])
    assert "k" in live.live_out(stmts[0])
    assert free_names(stmts[1]) == ["k"]


def test_assigned_and_used_names_in_order():
    stmts = body(
        """
        a = b
        if c:
            d, e = f
        else:
            for i in range(n):
                g = h
        del a
        """
    )
    assert assigned_names(stmts) == ["a", "d", "e", "i", "g"]
    assert used_names(stmts[1]) == ["c", "f", "range", "n", "h"]


def test_augmented_assignment_uses_its_target():
    stmts = body("x += y\n")
    assert sorted(analyze(stmts, frozenset({"x"})).live_in(stmts[0])) == ["x", "y"]
