"""Resolution of the Python names a script reads from where it was defined.

A script function sees its module's globals, the variables of enclosing functions it
closes over, and builtins, as they are when the decorator runs.
"""

from __future__ import annotations

import builtins
import contextlib
from collections.abc import Callable
from typing import Any

MISSING: Any = object()


class PythonScope:
    """Names visible to a Python function from outside its body."""

    def __init__(self, fn: Callable[..., Any], extra: dict[str, Any] | None = None) -> None:
        self.globals: dict[str, Any] = getattr(fn, "__globals__", {})
        self.closure: dict[str, Any] = {}
        code = getattr(fn, "__code__", None)
        cells = getattr(fn, "__closure__", None) or ()
        if code is not None:
            for name, cell in zip(code.co_freevars, cells):
                # An enclosing variable not assigned yet has no value.
                with contextlib.suppress(ValueError):
                    self.closure[name] = cell.cell_contents
        self.extra = extra or {}

    def lookup(self, name: str) -> Any:
        """The value of ``name``, or :data:`MISSING`."""
        for table in (self.extra, self.closure, self.globals):
            if name in table:
                return table[name]
        return getattr(builtins, name, MISSING)

    def values(self) -> list[Any]:
        """Every value visible through closure and globals (closure first)."""
        return [*self.closure.values(), *self.globals.values()]
