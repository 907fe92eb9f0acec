"""Definitions and uses of Python names in script ASTs.

All functions return names in source order (first occurrence first) so that everything
derived from them is deterministic.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator


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
    elif isinstance(stmt, ast.While):
        yield from assigned_names(stmt.body)
        yield from assigned_names(stmt.orelse)
    elif isinstance(stmt, ast.If):
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
    free variables of those functions (see :func:`free_names`).
    """
    found: list[str] = []

    def visit(n: ast.AST) -> None:
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load):
                found.append(n.id)
            return
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if not isinstance(n, ast.Lambda):
                for dec in n.decorator_list:
                    visit(dec)
            return
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            found.append(n.target.id)
        for child in ast.iter_child_nodes(n):
            visit(child)

    visit(node)
    return _unique(found)


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
    for child in ast.iter_child_nodes(node):
        yield from _nested_defs(child)


def all_identifiers(node: ast.AST) -> set[str]:
    """Every identifier spelled in ``node``: names, parameters, attributes, keywords."""
    found: set[str] = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Name):
            found.add(n.id)
        elif isinstance(n, ast.arg):
            found.add(n.arg)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(n.name)
    return found
