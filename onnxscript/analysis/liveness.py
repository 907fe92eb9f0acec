"""Liveness of Python variables over a (structured) script body.

A variable is live at a point if some path from that point reads it before assigning it.
The converter uses this to decide which variables an ``If`` outputs and which ones a
``Loop`` carries. Uses of a nested graph function count, at every place its name is read,
as uses of the variables it reads from the enclosing function.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from onnxscript.analysis.names import assigned_names, free_names, target_names, used_names

Names = frozenset[str]


@dataclass
class Liveness:
    """Live variables before (``live_in``) and after (``live_out``) every statement.

    Keys are statement objects (by identity). For loops, ``loop_head`` gives the variables
    live at the top of each iteration.
    """

    live_in_map: dict[int, Names] = field(default_factory=dict)
    live_out_map: dict[int, Names] = field(default_factory=dict)
    loop_head_map: dict[int, Names] = field(default_factory=dict)

    def live_in(self, stmt: ast.stmt) -> Names:
        return self.live_in_map[id(stmt)]

    def live_out(self, stmt: ast.stmt) -> Names:
        return self.live_out_map[id(stmt)]

    def loop_head(self, loop: ast.stmt) -> Names:
        return self.loop_head_map[id(loop)]


class _Analyzer:
    def __init__(self, graph_free: Mapping[str, Sequence[str]]) -> None:
        self.result = Liveness()
        self.graph_free = graph_free

    def uses(self, node: ast.AST) -> set[str]:
        names = set(used_names(node))
        for name in list(names):
            extra = self.graph_free.get(name)
            if extra:
                names.update(extra)
        return names

    def block(self, stmts: Sequence[ast.stmt], live: Names) -> Names:
        for stmt in reversed(stmts):
            self.result.live_out_map[id(stmt)] = live
            live = self.stmt(stmt, live)
            self.result.live_in_map[id(stmt)] = live
        return live

    def stmt(self, stmt: ast.stmt, live: Names) -> Names:
        if isinstance(stmt, ast.Assign):
            defs: set[str] = set()
            uses = self.uses(stmt.value)
            for target in stmt.targets:
                defs.update(target_names(target))
                if not isinstance(target, ast.Name):
                    uses |= self.uses(target)
            return frozenset((live - defs) | uses)
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is None:
                return live
            defs = set(target_names(stmt.target))
            return frozenset((live - defs) | self.uses(stmt.value))
        if isinstance(stmt, ast.AugAssign):
            return frozenset(live | self.uses(stmt))
        if isinstance(stmt, ast.Return):
            return frozenset(self.uses(stmt.value)) if stmt.value is not None else frozenset()
        if isinstance(stmt, ast.Delete):
            gone = {n for t in stmt.targets for n in target_names(t)}
            return frozenset(live - gone)
        if isinstance(stmt, ast.If):
            then_in = self.block(stmt.body, live)
            else_in = self.block(stmt.orelse, live)
            return frozenset(self.uses(stmt.test) | then_in | else_in)
        if isinstance(stmt, ast.For):
            targets = set(target_names(stmt.target))
            head = live
            while True:
                body_in = self.block(stmt.body, head)
                new_head = frozenset(live | (body_in - targets))
                if new_head == head:
                    break
                head = new_head
            self.result.loop_head_map[id(stmt)] = head
            if stmt.orelse:
                head = frozenset(head | self.block(stmt.orelse, live))
            return frozenset(head | self.uses(stmt.iter))
        if isinstance(stmt, ast.While):
            test_uses = self.uses(stmt.test)
            head = frozenset(live | test_uses)
            while True:
                body_in = self.block(stmt.body, head)
                new_head = frozenset(live | test_uses | body_in)
                if new_head == head:
                    break
                head = new_head
            self.result.loop_head_map[id(stmt)] = head
            if stmt.orelse:
                head = frozenset(head | self.block(stmt.orelse, live))
            return head
        if isinstance(stmt, ast.FunctionDef):
            uses = {n for d in stmt.decorator_list for n in self.uses(d)}
            return frozenset((live - {stmt.name}) | uses)
        # Expression statements, pass, break, continue, assert, ...
        return frozenset(live | self.uses(stmt))


def nested_graph_free_names(body: Sequence[ast.stmt]) -> dict[str, list[str]]:
    """For every function defined in ``body`` (at any depth), the names it reads from outside."""
    found: dict[str, list[str]] = {}
    for node in body:
        for inner in ast.walk(node):
            if isinstance(inner, ast.FunctionDef):
                found[inner.name] = free_names(inner)
    return found


def analyze(body: Sequence[ast.stmt], live_after: Names = frozenset()) -> Liveness:
    """Liveness of every statement of ``body`` given the variables live after it."""
    analyzer = _Analyzer(nested_graph_free_names(body))
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
