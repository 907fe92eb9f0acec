"""Liveness of Python variables over a (structured) script body.

A variable is live at a point if some path from that point reads it before assigning it.
The converter uses this to decide which variables an ``If`` outputs and which ones a
``Loop`` carries. Uses of a nested graph function count, at every place its name is read,
as uses of the variables it reads from the enclosing function.

The analysis is one backward pass (a fixpoint for loops) that updates one mutable set
through straight-line code, so its cost is linear in the code size. Live sets are recorded
for every statement, or only for compound statements (what the converter needs).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence

from onnxscript.analysis.names import (
    assigned_names,
    children,
    free_names,
    target_names,
    used_names,
)

Names = frozenset[str]

_COMPOUND = (ast.If, ast.For, ast.While)


class Liveness:
    """Live variables before (``live_in``) and after (``live_out``) statements.

    Keys are statement objects (AST nodes hash by identity). For loops, ``loop_head`` gives
    the variables live at the top of each iteration.
    """

    __slots__ = ("live_in_map", "live_out_map", "loop_head_map")

    def __init__(self) -> None:
        self.live_in_map: dict[ast.stmt, Names] = {}
        self.live_out_map: dict[ast.stmt, Names] = {}
        self.loop_head_map: dict[ast.stmt, Names] = {}

    def live_in(self, stmt: ast.stmt) -> Names:
        return self.live_in_map[stmt]

    def live_out(self, stmt: ast.stmt) -> Names:
        return self.live_out_map[stmt]

    def loop_head(self, loop: ast.stmt) -> Names:
        return self.loop_head_map[loop]


class _Analyzer:
    def __init__(self, graph_free: Mapping[str, Sequence[str]], every_statement: bool) -> None:
        self.result = Liveness()
        self.graph_free = graph_free
        self.every_statement = every_statement

    def uses(self, node: ast.AST) -> list[str]:
        names = used_names(node)
        if self.graph_free:
            extra = [n for name in names for n in self.graph_free.get(name, ())]
            names.extend(extra)
        return names

    def block(self, stmts: Sequence[ast.stmt], live: Names) -> Names:
        current = set(live)
        record = self.every_statement
        live_in, live_out = self.result.live_in_map, self.result.live_out_map
        for stmt in reversed(stmts):
            if isinstance(stmt, _COMPOUND):
                out = frozenset(current)
                live_out[stmt] = out
                inn = self.compound(stmt, out)
                live_in[stmt] = inn
                current = set(inn)
            else:
                if record:
                    live_out[stmt] = frozenset(current)
                self.simple(stmt, current)
                if record:
                    live_in[stmt] = frozenset(current)
        return frozenset(current)

    def simple(self, stmt: ast.stmt, live: set[str]) -> None:
        """Update ``live`` (after ``stmt``) to the set live before it."""
        if isinstance(stmt, ast.Assign):
            uses = self.uses(stmt.value)
            for target in stmt.targets:
                live.difference_update(target_names(target))
                if not isinstance(target, ast.Name):
                    uses.extend(self.uses(target))
            live.update(uses)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                live.difference_update(target_names(stmt.target))
                live.update(self.uses(stmt.value))
        elif isinstance(stmt, ast.AugAssign):
            live.update(self.uses(stmt))
        elif isinstance(stmt, ast.Return):
            live.clear()
            if stmt.value is not None:
                live.update(self.uses(stmt.value))
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                live.difference_update(target_names(target))
        elif isinstance(stmt, ast.FunctionDef):
            live.discard(stmt.name)
            for dec in stmt.decorator_list:
                live.update(self.uses(dec))
        else:  # expression statements, pass, break, continue, ...
            live.update(self.uses(stmt))

    def compound(self, stmt: ast.stmt, live: Names) -> Names:
        if isinstance(stmt, ast.If):
            then_in = self.block(stmt.body, live)
            else_in = self.block(stmt.orelse, live)
            return frozenset(then_in | else_in | set(self.uses(stmt.test)))
        assert isinstance(stmt, (ast.For, ast.While))
        if isinstance(stmt, ast.For):
            # The targets are assigned at the top of each iteration; the iterable is read
            # once, before the loop.
            head = self.loop(stmt, live, frozenset(), set(target_names(stmt.target)))
            return frozenset(head | set(self.uses(stmt.iter)))
        # The test is read before every iteration and after the last.
        return self.loop(stmt, live, frozenset(self.uses(stmt.test)), set())

    def loop(self, stmt: ast.For | ast.While, live: Names, test: Names, targets: set[str]) -> Names:
        """The variables live at the loop's head: a fixpoint over the body."""
        head = frozenset(live | test)
        while True:
            body_in = self.block(stmt.body, head)
            new_head = frozenset(live | test | (body_in - targets))
            if new_head == head:
                break
            head = new_head
        self.result.loop_head_map[stmt] = head
        if stmt.orelse:
            head = frozenset(head | self.block(stmt.orelse, live))
        return head


def nested_graph_free_names(body: Sequence[ast.stmt]) -> dict[str, list[str]]:
    """For every function defined in ``body`` (at any depth), the names it reads from outside."""
    found: dict[str, list[str]] = {}
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef):
            found[node.name] = free_names(node)
        if isinstance(node, ast.stmt):  # functions are defined by statements only
            stack.extend(children(node))
    return found


def analyze(
    body: Sequence[ast.stmt],
    live_after: Names = frozenset(),
    *,
    every_statement: bool = True,
    has_nested_defs: bool = True,
) -> Liveness:
    """Liveness of the statements of ``body`` given the variables live after it.

    With ``every_statement=False`` only compound statements (if/for/while) get live sets,
    which is all the converter needs. ``has_nested_defs=False`` skips looking for nested
    functions when the caller knows there are none.
    """
    graph_free = nested_graph_free_names(body) if has_nested_defs else {}
    analyzer = _Analyzer(graph_free, every_statement)
    analyzer.block(body, frozenset(live_after))
    return analyzer.result


def if_outputs(stmt: ast.If, liveness: Liveness) -> list[str]:
    """Variables an ``if`` statement must output: assigned in a branch and live after it."""
    live = liveness.live_out(stmt)
    return [n for n in assigned_names([*stmt.body, *stmt.orelse]) if n in live]


def loop_carried(loop: ast.For | ast.While, liveness: Liveness) -> list[str]:
    """Variables a loop carries from one iteration to the next (and out of the loop).

    These are the variables assigned in the body that are live at the top of an iteration:
    read by a later iteration before being reassigned, or read after the loop. The loop
    target of a ``for`` is not carried unless it is read after the loop.
    """
    head = liveness.loop_head(loop)
    assigned = assigned_names(loop.body)
    if isinstance(loop, ast.For):
        targets = list(target_names(loop.target))
        after = liveness.live_out(loop)
        carried = [n for n in assigned if n in head and n not in targets]
        carried.extend(t for t in targets if t in after and t not in carried)
        return carried
    return [n for n in assigned if n in head]
