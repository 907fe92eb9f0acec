"""Rewrite ``return``, ``break`` and ``continue`` anywhere into structured control flow.

ONNX has no jumps: an ``If`` runs one branch to its end and a ``Loop`` body runs to its end
and then says whether to go on. This pass turns a function body into an equivalent Python
body (it still runs as Python, which is how it is tested) in which:

* the function has one ``return``, as its last statement;
* a ``for`` loop body has no jumps, except that its last statement may be
  ``if not <name>: break`` (the loop condition ONNX ``Loop`` carries);
* a ``while`` loop tests a plain name that its body reassigns;
* loops have no ``else`` clauses.

The code following an ``if`` that jumps on some paths moves into the paths that fall
through (it is copied when both branches may fall through). Jumps out of loops set flags
that the code after the loop tests. Generated statements carry the location of the user
statement they come from, so errors still point at the user's code.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Sequence
from typing import TypeVar

from onnxscript.analysis.names import children
from onnxscript.source import SourceText
from onnxscript.unique_names import UniqueNames

_JUMPS = (ast.Break, ast.Continue, ast.Return)


_RETURN, _BREAK, _CONTINUE = 1, 2, 4
_BITS = {ast.Return: _RETURN, ast.Break: _BREAK, ast.Continue: _CONTINUE}
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


class Jumps:
    """Which jumps statements contain, computed once per node (the rewrite asks often).

    A ``break``/``continue`` inside a nested loop belongs to that loop and does not count
    for the statements around it; a ``return`` counts anywhere outside nested functions.
    """

    def __init__(self) -> None:
        self._memo: dict[ast.AST, int] = {}

    def flags(self, node: ast.AST) -> int:
        found = self._memo.get(node)
        if found is not None:
            return found
        bit = _BITS.get(type(node))
        if bit is not None:
            result = bit
        elif isinstance(node, (*_DEFS, ast.expr)):
            result = 0
        else:
            result = 0
            for child in children(node):
                result |= self.flags(child)
            if isinstance(node, (ast.For, ast.While)):
                result &= _RETURN
        self._memo[node] = result
        return result

    def any(self, node: ast.AST) -> bool:
        """Whether ``node`` can jump out of itself."""
        return self.flags(node) != 0

    def has(self, node: ast.AST, kind: type[ast.stmt]) -> bool:
        """Whether ``node`` contains a jump of ``kind`` that leaves it."""
        return bool(self.flags(node) & _BITS[kind])

    def stops(self, stmt: ast.stmt) -> bool:
        """Whether no path through ``stmt`` reaches the next statement."""
        if isinstance(stmt, _JUMPS):
            return True
        if isinstance(stmt, ast.If):
            return not self.falls_through(stmt.body) and not self.falls_through(stmt.orelse)
        return False

    def falls_through(self, stmts: Sequence[ast.stmt]) -> bool:
        """Whether some path through ``stmts`` reaches its end."""
        return not any(self.stops(s) for s in stmts)


def has_jump(node: ast.AST) -> bool:
    """Whether ``node`` can jump out of itself: a ``return`` anywhere (outside nested
    functions), or a ``break``/``continue`` that does not belong to a loop inside it."""
    return Jumps().any(node)


def falls_through(stmts: Sequence[ast.stmt]) -> bool:
    """Whether some path through ``stmts`` reaches its end."""
    return Jumps().falls_through(stmts)


def restructure(stmts: Sequence[ast.stmt], jumps: Jumps | None = None) -> list[ast.stmt]:
    """Move the code after each jumping ``if`` into its fall-through paths.

    Afterwards every jump is the last statement of its path. Statements after an
    unconditional jump are unreachable and dropped.
    """
    jumps = jumps or Jumps()
    out: list[ast.stmt] = []
    for i, stmt in enumerate(stmts):
        if isinstance(stmt, _JUMPS):
            out.append(stmt)
            return out
        if isinstance(stmt, ast.If) and jumps.any(stmt):
            rest = list(stmts[i + 1 :])
            body = list(stmt.body)
            orelse = list(stmt.orelse)
            used = False
            if rest and jumps.falls_through(body):
                body += rest
                used = True
            if rest and jumps.falls_through(orelse):
                orelse += copy.deepcopy(rest) if used else rest
            new_if = ast.If(
                test=stmt.test, body=restructure(body, jumps), orelse=restructure(orelse, jumps)
            )
            out.append(ast.copy_location(new_if, stmt))
            return out
        out.append(stmt)
    return out


JumpHandler = Callable[[ast.stmt], list[ast.stmt]]
FallHandler = Callable[[ast.stmt | None], list[ast.stmt]]


def rewrite_ends(
    stmts: list[ast.stmt],
    on_jump: JumpHandler,
    on_fall: FallHandler,
    anchor: ast.stmt,
    jumps: Jumps | None = None,
) -> list[ast.stmt]:
    """Replace the jump ending each path of a restructured block, or extend its end."""
    jumps = jumps or Jumps()
    if not stmts:
        return on_fall(anchor) or [_at(ast.Pass(), anchor)]
    last = stmts[-1]
    if isinstance(last, _JUMPS):
        return stmts[:-1] + on_jump(last) or [_at(ast.Pass(), last)]
    if isinstance(last, ast.If) and jumps.any(last):
        new_if = ast.If(
            test=last.test,
            body=rewrite_ends(list(last.body), on_jump, on_fall, last, jumps),
            orelse=rewrite_ends(list(last.orelse), on_jump, on_fall, last, jumps),
        )
        return [*stmts[:-1], ast.copy_location(new_if, last)]
    return stmts + on_fall(last)


_N = TypeVar("_N", bound=ast.AST)


def _at(node: _N, anchor: ast.AST | None) -> _N:
    """Give the generated nodes in ``node`` that have no location the anchor's location."""
    if anchor is None:
        return node
    for n in ast.walk(node):
        if "lineno" in n._attributes and getattr(n, "lineno", None) is None:
            for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
                setattr(n, attr, getattr(anchor, attr, None))
    return node


def _assign(name: str, value: ast.expr, anchor: ast.AST | None) -> ast.stmt:
    stmt = ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value)
    return _at(stmt, anchor)


def _const(value: bool) -> ast.expr:
    return ast.Constant(value=value)


def _load(name: str) -> ast.expr:
    return ast.Name(id=name, ctx=ast.Load())


def _not(expr: ast.expr) -> ast.expr:
    return ast.UnaryOp(op=ast.Not(), operand=expr)


class Normalizer:
    """Rewrites one function body; see the module docstring."""

    def __init__(self, source: SourceText, fresh: UniqueNames, n_returns: int) -> None:
        self.source = source
        self.fresh = fresh
        self.arity = n_returns
        self._ret_names: list[str] | None = None
        self._ret_flag: str | None = None
        self.jumps = Jumps()

    def ret_names(self) -> list[str]:
        if self._ret_names is None:
            if self.arity == 1:
                self._ret_names = [self.fresh.claim("return_val")]
            else:
                self._ret_names = [self.fresh.claim(f"return_val_{i}") for i in range(self.arity)]
        return self._ret_names

    def ret_flag(self) -> str:
        if self._ret_flag is None:
            self._ret_flag = self.fresh.claim("returned")
        return self._ret_flag

    def returned_value(self) -> ast.expr:
        """The expression the final ``return`` gives: the return variable(s)."""
        names = self.ret_names()
        if len(names) == 1:
            return _load(names[0])
        return ast.Tuple(elts=[_load(n) for n in names], ctx=ast.Load())

    def store_return(self, stmt: ast.stmt) -> list[ast.stmt]:
        """``return e`` as assignments of the return variables."""
        assert isinstance(stmt, ast.Return)
        names = self.ret_names()
        if stmt.value is None:
            raise self.source.error(
                stmt, "`return` without a value", "a script function must return tensors"
            )
        if len(names) == 1:
            if isinstance(stmt.value, ast.Name) and stmt.value.id == names[0]:
                return []
            return [_assign(names[0], stmt.value, stmt)]
        target = ast.Tuple(elts=[ast.Name(id=n, ctx=ast.Store()) for n in names], ctx=ast.Store())
        value = stmt.value
        if isinstance(value, ast.Tuple) and len(value.elts) != len(names):
            raise self.source.error(
                stmt,
                f"this return gives {len(value.elts)} values but another gives {len(names)}",
                "every return of a script function must give the same number of values",
            )
        assign = ast.Assign(targets=[target], value=value)
        return [_at(assign, stmt)]

    def function_body(self, body: list[ast.stmt]) -> list[ast.stmt]:
        body = self.loops(body)
        body = restructure(body, self.jumps)
        if not any(self.jumps.has(s, ast.Return) for s in body):
            return body
        if isinstance(body[-1], ast.Return) and not any(
            self.jumps.has(s, ast.Return) for s in body[:-1]
        ):
            return body  # one return, at the end

        def on_fall(anchor: ast.stmt | None) -> list[ast.stmt]:
            raise self.source.error(
                anchor,
                "some path through the function ends without `return`",
                "every path of a script function must return a value",
            )

        body = rewrite_ends(body, self.store_return, on_fall, body[-1], self.jumps)
        final = _at(ast.Return(value=self.returned_value()), body[-1] if body else None)
        return [*body, final]

    def loops(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        """Rewrite every loop in ``stmts`` (innermost first)."""
        out: list[ast.stmt] = []
        for stmt in stmts:
            if isinstance(stmt, ast.If):
                new_if = ast.If(
                    test=stmt.test, body=self.loops(stmt.body), orelse=self.loops(stmt.orelse)
                )
                out.append(ast.copy_location(new_if, stmt))
            elif isinstance(stmt, (ast.For, ast.While)):
                out.extend(self.loop(stmt))
            else:
                out.append(stmt)
        return out

    def loop(self, stmt: ast.For | ast.While) -> list[ast.stmt]:
        body = self.loops(list(stmt.body))
        breaks = any(self.jumps.has(s, ast.Break) for s in body)
        conts = any(self.jumps.has(s, ast.Continue) for s in body)
        rets = any(self.jumps.has(s, ast.Return) for s in body)
        pre: list[ast.stmt] = []
        post: list[ast.stmt] = []
        is_while = isinstance(stmt, ast.While)

        if not (breaks or conts or rets):
            if stmt.orelse:
                post.extend(self.loops(list(stmt.orelse)))
            if isinstance(stmt, ast.While) and not isinstance(stmt.test, ast.Name):
                cond = self.fresh.claim("cond")
                pre.append(_assign(cond, stmt.test, stmt))
                body = [*body, _assign(cond, copy.deepcopy(stmt.test), stmt)]
                plain = ast.While(test=_at(_load(cond), stmt.test), body=body, orelse=[])
                return [*pre, ast.copy_location(plain, stmt), *post]
            new_loop = copy.copy(stmt)
            new_loop.body = body
            new_loop.orelse = []
            return [new_loop, *post]

        if isinstance(stmt, ast.For) and not stmt.orelse:
            compact = self._compact_for(stmt, body)
            if compact is not None:
                return compact

        cond = self.fresh.claim("cond")
        flag = self.ret_flag() if rets else None
        broke = self.fresh.claim("broke") if (is_while and stmt.orelse and breaks) else None
        if isinstance(stmt, ast.While):
            pre.append(_assign(cond, stmt.test, stmt))
        elif breaks or rets:
            pre.append(_assign(cond, _const(True), stmt))
        if flag is not None:
            pre.append(_assign(flag, _const(False), stmt))
        if broke is not None:
            pre.append(_assign(broke, _const(False), stmt))

        def again(anchor: ast.stmt | None) -> list[ast.stmt]:
            if isinstance(stmt, ast.While):
                return [_assign(cond, copy.deepcopy(stmt.test), anchor or stmt)]
            return []

        def on_jump(jump: ast.stmt) -> list[ast.stmt]:
            if isinstance(jump, ast.Continue):
                return again(jump)
            stop = [_assign(cond, _const(False), jump)]
            if isinstance(jump, ast.Break):
                if broke is not None:
                    stop.append(_assign(broke, _const(True), jump))
                return stop
            assert flag is not None
            return [*self.store_return(jump), _assign(flag, _const(True), jump), *stop]

        new_body = rewrite_ends(restructure(body, self.jumps), on_jump, again, stmt, self.jumps)
        new: ast.stmt
        if isinstance(stmt, ast.While):
            new = ast.While(test=_at(_load(cond), stmt), body=new_body, orelse=[])
        else:
            if breaks or rets:
                stop = ast.If(test=_not(_load(cond)), body=[ast.Break()], orelse=[])
                new_body.append(_at(stop, stmt))
            new = ast.For(
                target=stmt.target, iter=stmt.iter, body=new_body, orelse=[], type_comment=None
            )
        ast.copy_location(new, stmt)
        if flag is not None:
            ret = _at(ast.Return(value=self.returned_value()), stmt)
            post.append(_at(ast.If(test=_load(flag), body=[ret], orelse=[]), stmt))
        if stmt.orelse:
            orelse = self.loops(list(stmt.orelse))
            if not breaks:
                post.extend(orelse)
            else:
                test = _not(_load(broke)) if broke is not None else _load(cond)
                post.append(_at(ast.If(test=test, body=orelse, orelse=[]), stmt))
        return [*pre, new, *post]

    def _compact_for(self, stmt: ast.For, body: list[ast.stmt]) -> list[ast.stmt] | None:
        """``for ...: ...; if t: break`` becomes ``cond = not t`` as the loop condition."""
        if not body:
            return None
        last = body[-1]
        if not (
            isinstance(last, ast.If)
            and not last.orelse
            and len(last.body) == 1
            and isinstance(last.body[0], ast.Break)
        ):
            return None
        if any(self.jumps.any(s) for s in body[:-1]) or self.jumps.any(last.test):
            return None
        test = last.test
        if (
            isinstance(test, ast.UnaryOp)
            and isinstance(test.op, ast.Not)
            and isinstance(test.operand, ast.Name)
        ):
            keep = copy.copy(stmt)
            keep.body = body
            return [keep]  # already `if not c: break`
        cond = self.fresh.claim("cond")
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            update = _assign(cond, test.operand, last)  # `if not t: break`: t is the condition
        else:
            update = _assign(cond, _at(_not(test), test), last)
        stop = _at(ast.If(test=_not(_load(cond)), body=[ast.Break()], orelse=[]), last)
        new = ast.For(
            target=stmt.target,
            iter=stmt.iter,
            body=[*body[:-1], update, stop],
            orelse=[],
            type_comment=None,
        )
        return [ast.copy_location(new, stmt)]


def return_arity(body: Sequence[ast.stmt]) -> int:
    """How many values the function returns, from its ``return`` statements."""
    arity = 1
    for stmt in _statements(body):
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Tuple):
            arity = max(arity, len(stmt.value.elts))
    return arity


def _statements(body: Sequence[ast.stmt]) -> list[ast.stmt]:
    """Every statement in ``body`` and in its nested blocks (not in nested functions)."""
    found: list[ast.stmt] = []
    stack = list(body)
    while stack:
        stmt = stack.pop()
        found.append(stmt)
        if not isinstance(stmt, _DEFS):
            for block in ("body", "orelse", "finalbody"):
                stack.extend(getattr(stmt, block, ()))
            for handler in getattr(stmt, "handlers", ()):
                stack.extend(handler.body)
    return found


MAX_NESTING = 32
"""Deepest nesting of If/Loop subgraphs accepted: protobuf refuses to parse messages nested
more than 100 levels, and each subgraph level takes three (node, attribute, graph); 32
levels is the most that onnx and onnxruntime were measured to load."""


def check_nesting(body: Sequence[ast.stmt], source: SourceText) -> None:
    """Raise a ScriptError where control flow nests deeper than ONNX can represent."""
    stack: list[tuple[ast.stmt, int]] = [(s, 1) for s in body]
    while stack:
        stmt, depth = stack.pop()
        if isinstance(stmt, (ast.If, ast.For, ast.While)):
            if depth > MAX_NESTING:
                raise source.error(
                    stmt,
                    f"control flow nests more than {MAX_NESTING} levels deep here (counting "
                    "elif branches, and early returns turned into if/else)",
                    "ONNX models cannot nest that many If/Loop subgraphs; combine "
                    "conditions, compute candidates and pick one with op.Where, or split "
                    "the function",
                )
            stack.extend((s, depth + 1) for s in stmt.body)
            stack.extend((s, depth + 1) for s in stmt.orelse)


def normalize(body: list[ast.stmt], source: SourceText, fresh: UniqueNames) -> list[ast.stmt]:
    """The structured equivalent of a function body (see the module docstring).

    Bodies that are structured already come back equivalent; callers skip them with
    ``analysis.names.scan(fdef).needs_normalize``, which tells which bodies need this pass.
    """
    return Normalizer(source, fresh, return_arity(body)).function_body(body)
