"""Resolution of the Python names a script reads from where it was defined.

A script function sees its module's globals, the variables of enclosing functions it
closes over, and builtins, as they are when the decorator runs.
"""

from __future__ import annotations

import builtins
import contextlib
from collections.abc import Callable
from typing import Any

from onnxscript.values import as_opset

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
                return _opset_or_self(table[name])
        return getattr(builtins, name, MISSING)

    def values(self) -> list[Any]:
        """Every value visible through closure and globals (closure first)."""
        return [_opset_or_self(v) for v in (*self.closure.values(), *self.globals.values())]


def _opset_or_self(value: Any) -> Any:
    """A builder's ``op`` (an ``OpBuilder``) read by a script stands for its opset, so
    ``op.Add`` in a script defined in builder code is the ai.onnx ``Add``."""
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    opset = as_opset(value)
    return value if opset is None else opset
