"""What a Python expression in a script denotes at compile time.

A translated expression is one of:

* an ``ir.Value`` - a tensor (or sequence) computed at run time;
* :class:`Const` - a Python value known when the decorator runs (numbers, lists, numpy
  arrays, opsets, modules, ...);
* :class:`AttrRef` - an attribute parameter of the function being compiled;
* :class:`SymTuple` - a tuple of the above (multi-output calls, ``a, b`` expressions);
* :class:`NestedGraph` - a nested function to be compiled as a graph attribute.

They are plain slotted classes rather than dataclasses: symbols are made for every name and
literal the converter reads, and dataclasses are slow both to instantiate when frozen and
to define (the converter is imported by the first ``@script()`` of a process).
"""

from __future__ import annotations

import ast
from typing import Any

from onnxscript.program.graph import AttrParam, Value


class Const:
    """A Python value known at compile time; ``name`` is the Python variable it came from."""

    __slots__ = ("name", "value")

    def __init__(self, value: Any, name: str | None = None) -> None:
        self.value = value
        self.name = name

    def __repr__(self) -> str:
        return f"Const({self.value!r})"


class AttrRef:
    """A reference to an attribute parameter; ``python_type`` is the annotation's base
    (``int``, ``float``, ``str``, ``bool``) and ``is_list`` tells list parameters apart."""

    __slots__ = ("is_list", "param", "python_type")

    def __init__(self, param: AttrParam, python_type: type, is_list: bool = False) -> None:
        self.param = param
        self.python_type = python_type
        self.is_list = is_list

    def __repr__(self) -> str:
        return f"AttrRef({self.param.name!r})"


class SymTuple:
    """A tuple of symbols."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[Sym, ...]) -> None:
        self.items = items

    def __repr__(self) -> str:
        return f"SymTuple({self.items!r})"


class NestedGraph:
    """A function defined inside a script, compiled where it is used as a graph attribute."""

    __slots__ = ("node",)

    def __init__(self, node: ast.FunctionDef) -> None:
        self.node = node


Sym = Value | Const | AttrRef | SymTuple | NestedGraph
