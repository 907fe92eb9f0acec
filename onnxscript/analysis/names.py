"""Definitions and uses of Python names in script ASTs.

All functions return names in source order (first occurrence first) so that everything
derived from them is deterministic.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

# Fields that never hold child nodes (names, numbers, flags, operators, contexts).
_LEAF_FIELDS = frozenset(
    {"id", "arg", "name", "n", "s", "kind", "type_comment", "level", "module", "attr",
     "is_async", "conversion", "ctx", "op", "simple", "tag", "ops", "names"}
)  # fmt: skip


def _child_field_table() -> dict[type, tuple[str, ...]]:
    table: dict[type, tuple[str, ...]] = {}
    for name in dir(ast):
        cls = getattr(ast, name)
        if isinstance(cls, type) and issubclass(cls, ast.AST):
            fields = tuple(f for f in cls._fields if f not in _LEAF_FIELDS)
            if cls is ast.Constant:
                fields = ()
            table[cls] = fields
    return table


CHILD_FIELDS: dict[type, tuple[str, ...]] = _child_field_table()
"""For each AST class, the fields that can hold child nodes (a static table)."""

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def children(node: ast.AST) -> Iterator[ast.AST]:
    """The direct child nodes of ``node`` (a faster ``ast.iter_child_nodes``)."""
    for f in CHILD_FIELDS.get(type(node), ()):
        value = getattr(node, f, None)
        if type(value) is list:
            for item in value:
                if isinstance(item, ast.AST):
                    yield item
        elif isinstance(value, ast.AST):
            yield value


def _unique(names: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(names))


def target_names(target: ast.expr) -> Iterator[str]:
    """Names bound by an assignment target (``a``, ``a, (b, c)``; not ``a[0]``)."""
    if isinstance(target, ast.Name):
        yield target.id
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            yield from target_names(elt)
    elif isinstance(target, ast.Starred):
        yield from target_names(target.value)


def _assigned_in(stmt: ast.stmt) -> Iterator[str]:
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            yield from target_names(target)
    elif isinstance(stmt, (ast.AugAssign, ast.AnnAssign)):
        yield from target_names(stmt.target)
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        yield from target_names(stmt.target)
        yield from assigned_names(stmt.body)
        yield from assigned_names(stmt.orelse)
    elif isinstance(stmt, (ast.While, ast.If)):
        yield from assigned_names(stmt.body)
        yield from assigned_names(stmt.orelse)
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        yield stmt.name
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        for item in stmt.items:
            if item.optional_vars is not None:
                yield from target_names(item.optional_vars)
        yield from assigned_names(stmt.body)
    elif isinstance(stmt, ast.Try):
        yield from assigned_names(stmt.body)
        for handler in stmt.handlers:
            if handler.name:
                yield handler.name
            yield from assigned_names(handler.body)
        yield from assigned_names(stmt.orelse)
        yield from assigned_names(stmt.finalbody)
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            yield (alias.asname or alias.name).split(".")[0]


def assigned_names(stmts: Iterable[ast.stmt]) -> list[str]:
    """Every name a block assigns, through nested if/for/while, in source order.

    Nested function bodies are not entered (they have their own scope); the nested
    function's own name counts as assigned.
    """
    return _unique(name for stmt in stmts for name in _assigned_in(stmt))


def deleted_names(stmts: Iterable[ast.stmt]) -> list[str]:
    """Names removed by ``del`` statements directly in ``stmts``."""
    names: list[str] = []
    for stmt in stmts:
        if isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                names.extend(target_names(target))
    return _unique(names)


def used_names(node: ast.AST) -> list[str]:
    """Names read anywhere in ``node`` (an expression or statement), in source order.

    Names read inside nested function definitions and lambdas are not included: they are
    free variables of those functions (see :func:`free_names`); decorators are included.
    """
    found: list[str] = []
    stack: list[object] = [node]
    table = CHILD_FIELDS
    name_t, load_t, const_t = ast.Name, ast.Load, ast.Constant
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is name_t:
            if type(n.ctx) is load_t:  # type: ignore[attr-defined]
                found.append(n.id)  # type: ignore[attr-defined]
            continue
        if kind is const_t:
            continue
        fields = table.get(kind)
        if fields is None:  # not a node (None, a str in a list, ...)
            continue
        if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
            stack.extend(reversed(n.decorator_list))  # type: ignore[attr-defined]
            continue
        if kind is ast.Lambda:
            continue
        if kind is ast.AugAssign and type(n.target) is name_t:  # type: ignore[attr-defined]
            found.append(n.target.id)  # type: ignore[attr-defined]
        for f in reversed(fields):
            value = getattr(n, f)
            if type(value) is list:
                stack.extend(reversed(value))
            else:
                stack.append(value)
    return list(dict.fromkeys(found))


def parameter_names(fdef: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[str]:
    """The parameter names of a function definition, in order."""
    args = fdef.args
    names = [a.arg for a in args.posonlyargs + args.args]
    if args.vararg:
        names.append(args.vararg.arg)
    names.extend(a.arg for a in args.kwonlyargs)
    if args.kwarg:
        names.append(args.kwarg.arg)
    return names


def free_names(fdef: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """Names a nested function reads from enclosing scopes, in source order.

    A name is free when it is used in the body but neither a parameter nor assigned in the
    body. Free names of functions nested inside it are included.
    """
    local = set(parameter_names(fdef)) | set(assigned_names(fdef.body))
    found: list[str] = []
    for stmt in fdef.body:
        found.extend(n for n in used_names(stmt) if n not in local)
        for inner in _nested_defs(stmt):
            found.extend(n for n in free_names(inner) if n not in local)
    return _unique(found)


def _nested_defs(node: ast.AST) -> Iterator[ast.FunctionDef]:
    """The outermost function definitions within ``node`` (``node`` itself included)."""
    if isinstance(node, ast.FunctionDef):
        yield node
        return
    for child in children(node):
        yield from _nested_defs(child)


def all_identifiers(node: ast.AST) -> set[str]:
    """Every identifier spelled in ``node``: names, parameters, function names.

    For a function definition, only its parameters, name and body count (annotations and
    decorators are evaluated outside the script).
    """
    ids: set[str] = set()
    stack: list[object]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        ids.add(node.name)
        ids.update(parameter_names(node))
        stack = list(node.body)
    else:
        stack = [node]
    table = CHILD_FIELDS
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is ast.Name:
            ids.add(n.id)  # type: ignore[attr-defined]
            continue
        fields = table.get(kind)
        if not fields:
            continue
        if kind is ast.arg:
            ids.add(n.arg)  # type: ignore[attr-defined]
        elif kind is ast.FunctionDef or kind is ast.AsyncFunctionDef or kind is ast.ClassDef:
            ids.add(n.name)  # type: ignore[attr-defined]
        for f in fields:
            value = getattr(n, f)
            if type(value) is list:
                stack.extend(value)
            elif value is not None:
                stack.append(value)
    return ids


def attribute_bases(fdef: ast.FunctionDef) -> list[str]:
    """The names ``X`` of ``X.attr`` expressions in a function body, in source order."""
    found: list[str] = []
    stack: list[object] = list(reversed(fdef.body))
    table = CHILD_FIELDS
    while stack:
        n = stack.pop()
        kind = type(n)
        if kind is ast.Attribute and type(n.value) is ast.Name:  # type: ignore[attr-defined]
            found.append(n.value.id)  # type: ignore[attr-defined]
        fields = table.get(kind)
        if not fields:
            continue
        for f in reversed(fields):
            value = getattr(n, f)
            if type(value) is list:
                stack.extend(reversed(value))
            elif value is not None:
                stack.append(value)
    return found


class Facts:
    """What the converter needs to know about a function body before translating it.

    ``needs_normalize``: control flow must be restructured (a ``break``, ``continue``,
    ``while``, loop ``else`` or a ``return`` before the end); ``has_compound``: there is an
    if/for/while (else no liveness is needed: only they make graph outputs);
    ``assigned``: the names the body binds (outside nested functions).
    """

    __slots__ = ("assigned", "has_compound", "has_nested_defs", "needs_normalize")

    def __init__(self) -> None:
        self.needs_normalize = False
        self.has_compound = False
        self.has_nested_defs = False
        self.assigned: set[str] = set()


_COMPOUND = (ast.If, ast.For, ast.While, ast.AsyncFor, ast.Try, ast.With)
_DEF_STMTS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def scan(fdef: ast.FunctionDef | ast.AsyncFunctionDef) -> Facts:
    """Collect :class:`Facts` about a function body, visiting statements only."""
    facts = Facts()
    assigned = facts.assigned
    last_stmt = fdef.body[-1] if fdef.body else None
    stack: list[ast.stmt] = list(fdef.body)
    while stack:
        stmt = stack.pop()
        kind = type(stmt)
        if kind is ast.Assign:
            for target in stmt.targets:  # type: ignore[attr-defined]
                assigned.update(target_names(target))
            continue
        if kind is ast.AugAssign or kind is ast.AnnAssign:
            assigned.update(target_names(stmt.target))  # type: ignore[attr-defined]
            continue
        if kind is ast.Expr or kind is ast.Pass:
            continue
        if kind in _DEF_STMTS:
            assigned.add(stmt.name)  # type: ignore[attr-defined]
            facts.has_nested_defs = True
            continue
        if (
            kind is ast.Break
            or kind is ast.Continue
            or (kind is ast.Return and stmt is not last_stmt)
            or (kind is ast.While and (stmt.orelse or type(stmt.test) is not ast.Name))  # type: ignore[attr-defined]
        ):
            facts.needs_normalize = True
        if kind is ast.Delete:
            for target in stmt.targets:  # type: ignore[attr-defined]
                assigned.update(target_names(target))
        elif kind in _COMPOUND:
            facts.has_compound = True
            if kind is ast.For or kind is ast.AsyncFor:
                assigned.update(target_names(stmt.target))  # type: ignore[attr-defined]
                if stmt.orelse:  # type: ignore[attr-defined]
                    facts.needs_normalize = True
            elif kind is ast.With:
                for item in stmt.items:  # type: ignore[attr-defined]
                    if item.optional_vars is not None:
                        assigned.update(target_names(item.optional_vars))
            for block in ("body", "orelse", "finalbody"):
                stack.extend(getattr(stmt, block, ()))
            for handler in getattr(stmt, "handlers", ()):
                stack.extend(handler.body)
    # Conditional expressions also need no liveness: only statements make graphs' outputs.
    return facts
