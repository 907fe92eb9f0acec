"""Put each ATen function's schema on the first line of its docstring.

For every function the library registers (``collect_ops``), the schema torch declares for
its first name that has one (``torch.ops.<namespace>.<name>.<overload>._schema``) becomes
the docstring's first line: without the namespace for ``aten::`` names, e.g.
``roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor``, with it for the others
(``prims::``, ``quantized_decomposed::``, ``torchvision::``). A schema line already there is
replaced, any explanation is kept after it, a missing docstring is added. Functions
registered only under Python operators (``_operator::add``, ``math::ceil``) have no schema
and are left alone. Run it again after torch changes a schema; ``--check`` only lists the
functions that differ.

Usage: python tools/aten_docstrings.py [--check]     (needs torch)
"""

from __future__ import annotations

import ast
import inspect
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

_SCHEMA_LINE = re.compile(r"^[A-Za-z_][\w.:]*\(.*\) -> .+$")
"""A first line that is a schema (``[ns::]name.overload(args) -> returns``), to be
replaced."""

_PROVIDERS = {
    "quantized_decomposed": "torch.ao.quantization.fx._decomposed",
    "torchvision": "torchvision",
}
"""The module that defines the operators of a namespace torch does not load itself."""


def torch_schema(qualified_name: str) -> str | None:
    """The schema torch declares for ``namespace::name[.overload]`` (``aten::`` left
    out), or None for a name without one (Python operators, an op this torch lacks)."""
    import importlib

    import torch

    namespace, _, name = qualified_name.partition("::")
    if namespace in _PROVIDERS:
        try:
            importlib.import_module(_PROVIDERS[namespace])
        except ImportError:
            return None
    op_name, _, overload = name.partition(".")
    try:
        packet = getattr(getattr(torch.ops, namespace), op_name)
        schema = getattr(packet, overload or "default")._schema
    except (AttributeError, RuntimeError):
        return None
    return str(schema).removeprefix("aten::")


def registered_functions() -> list[tuple[Callable[..., Any], str]]:
    """Each registered ATen function (the Python function, once) and the schema line its
    docstring should start with: that of its first name torch declares a schema for."""
    from onnxscript.function_libs.torch_lib.registration import collect_ops

    found: dict[int, tuple[Callable[..., Any], str]] = {}
    for record in collect_ops():
        function = record.function.function
        if id(function) in found:
            continue
        schema = torch_schema(record.qualified_name)
        if schema is not None:
            found[id(function)] = (function, schema)
    return list(found.values())


def first_line(function: Callable[..., Any]) -> str:
    """The first line of ``function``'s docstring ("" when it has none)."""
    return (inspect.getdoc(function) or "").partition("\n")[0]


def _defined_by_def(function: Callable[..., Any]) -> bool:
    """Whether ``function`` is a module-level ``def`` of its own name (a function made by a
    factory writes its docstring itself; the test still checks it)."""
    return function.__qualname__ == function.__name__ and function.__code__.co_name == (
        function.__name__
    )


def _function_def(tree: ast.Module, name: str) -> ast.FunctionDef:
    matches = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == name]
    if len(matches) != 1:
        raise LookupError(f"{len(matches)} module-level functions named {name!r}")
    return matches[0]


def _docstring_node(fdef: ast.FunctionDef) -> ast.Constant | None:
    first = fdef.body[0]
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first.value
    return None


def _with_schema(lines: list[str], fdef: ast.FunctionDef, schema: str) -> None:
    """Edit ``lines`` (a module's source) so that ``fdef``'s docstring starts with
    ``schema``."""
    indent = " " * fdef.body[0].col_offset
    doc = _docstring_node(fdef)
    if doc is None:
        lines.insert(fdef.body[0].lineno - 1, f'{indent}"""{schema}"""\n')
        return
    start = doc.lineno - 1
    line = lines[start]
    quote_at = doc.col_offset + len(re.match(r"[rRuU]*", line[doc.col_offset :]).group())  # type: ignore[union-attr]
    quotes = line[quote_at : quote_at + 3]
    head, text = line[: quote_at + 3], line[quote_at + 3 :]
    first = text.rstrip("\n")
    if doc.end_lineno == doc.lineno:  # """text""" on one line
        first = first[: first.rindex(quotes)]
        if not first.strip() or _SCHEMA_LINE.match(first.strip()):
            lines[start] = f"{head}{schema}{quotes}\n"
        else:
            lines[start : start + 1] = [f"{head}{schema}\n", "\n", f"{indent}{first}\n"]
            lines.insert(start + 3, f"{indent}{quotes}\n")
    elif _SCHEMA_LINE.match(first.strip()):
        lines[start] = f"{head}{schema}\n"
    elif not first.strip():  # the text starts on the next line
        lines[start : start + 1] = [f"{head}{schema}\n", "\n"]
    else:
        lines[start : start + 1] = [f"{head}{schema}\n", "\n", f"{indent}{first}\n"]


def update(check: bool = False) -> list[str]:
    """Give every registered ATen function its schema line; the ``module.function`` names
    that did not have it (with ``check``, nothing is written)."""
    by_file: dict[str, list[tuple[str, str]]] = {}
    for function, schema in registered_functions():
        if first_line(function) != schema and _defined_by_def(function):
            by_file.setdefault(inspect.getfile(function), []).append((function.__name__, schema))
    changed = []
    for path, edits in sorted(by_file.items()):
        module = Path(path).stem
        changed.extend(f"{module}.{name}" for name, _ in edits)
        if check:
            continue
        text = Path(path).read_text()
        lines = text.splitlines(keepends=True)
        tree = ast.parse(text)
        # Bottom-up, so that the line numbers of the functions still to edit hold.
        defs = sorted(((_function_def(tree, n), s) for n, s in edits), key=lambda d: -d[0].lineno)
        for fdef, schema in defs:
            _with_schema(lines, fdef, schema)
        Path(path).write_text("".join(lines))
    return changed


def main() -> int:
    check = "--check" in sys.argv[1:]
    sys.path.insert(0, str(ROOT))
    changed = update(check)
    for name in changed:
        print(name)
    verb = "lack" if check else "given"
    print(f"{len(changed)} functions {verb} their schema line", file=sys.stderr)
    return 1 if check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
