"""SSA naming: give every IR value a unique, readable name.

ONNX requires each name to be assigned once in a graph and its nested graphs. Values are
named after their hints (usually the Python variable), with ``_1``, ``_2``, ... added on
reuse. Names are assigned in a fixed walk order, so the result is deterministic.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from onnxscript.program.graph import Graph, Value
from onnxscript.unique_names import UniqueNames

_INVALID = re.compile(r"\W")


class NameAllocator(UniqueNames):
    """Hands out unique names derived from hints."""

    __slots__ = ()

    def take(self, hint: str) -> str:
        return self.claim(hint if hint.isidentifier() else (_INVALID.sub("_", hint) or "v"))


def assign_names(graph: Graph, fixed: Iterable[Value] = ()) -> None:
    """Name every value of ``graph`` and its nested graphs.

    Values in ``fixed`` (and values that already have a name) keep their names; those
    names must be unique.
    """
    allocator = NameAllocator()
    for value in fixed:
        if value.name is None:
            value.name = value.hint
        if value.name in allocator.taken:
            raise ValueError(f"duplicate fixed name {value.name!r}")
        allocator.taken.add(value.name)
    _name_graph(graph, allocator)


def _name_value(value: Value | None, allocator: NameAllocator) -> None:
    if value is not None and value.name is None:
        value.name = allocator.take(value.hint)


def _name_graph(graph: Graph, allocator: NameAllocator) -> None:
    for value in graph.inputs:
        _name_value(value, allocator)
    for value, _ in graph.initializers:
        _name_value(value, allocator)
    for node in graph.nodes:
        for value in node.outputs:
            _name_value(value, allocator)
        for sub in node.subgraphs():
            _name_graph(sub, allocator)
    for value in graph.outputs:
        _name_value(value, allocator)
