"""What a Python expression in a script denotes at compile time.

A translated expression is one of:

* an ``ir.Value`` - a tensor (or sequence) computed at run time;
* :class:`Const` - a Python value known when the decorator runs (numbers, lists, numpy
  arrays, opsets, modules, ...);
* :class:`AttrRef` - an attribute parameter of the function being compiled;
* :class:`SymTuple` - a tuple of the above (multi-output calls, ``a, b`` expressions);
* :class:`NestedGraph` - a nested function to be compiled as a graph attribute.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from onnxscript.program.graph import AttrParam, Value


class Const:
    """A Python value known at compile time; ``name`` is the Python variable it came from.

    (A slotted class rather than a frozen dataclass: symbols are created for every name and
    literal the converter reads, and frozen dataclasses are slow to create.)
    """

    __slots__ = ("name", "value")

    def __init__(self, value: Any, name: str | None = None) -> None:
        self.value = value
        self.name = name

    def __repr__(self) -> str:
        return f"Const({self.value!r})"


@dataclass(slots=True)
class AttrRef:
    """A reference to an attribute parameter; ``python_type`` is the annotation's base
    (``int``, ``float``, ``str``, ``bool``) and ``is_list`` tells list parameters apart."""

    param: AttrParam
    python_type: type
    is_list: bool = False


@dataclass(slots=True)
class SymTuple:
    """A tuple of symbols."""

    items: tuple[Sym, ...]


@dataclass(slots=True)
class NestedGraph:
    """A function defined inside a script, compiled where it is used as a graph attribute."""

    node: ast.FunctionDef


Sym = Value | Const | AttrRef | SymTuple | NestedGraph
