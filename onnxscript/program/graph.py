"""The intermediate representation: values, nodes, graphs and functions as plain dataclasses.

The converter builds these; ``onnxscript.analysis`` names them; ``onnxscript.program.lowering``
turns them into onnx_ir objects. Values are identified by object identity (several values may
want the same name before naming), and nested graphs (If branches, Loop bodies, graph
attributes) refer to values of enclosing graphs directly.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from onnxscript.value_types import TensorTypeSpec, TypeSpec


class SourceLocation(NamedTuple):
    """Where something came from in the user's source: the file as Python named it, the
    1-based line and character column, and the (qualified) name of the script function."""

    filename: str
    line: int
    column: int = 1
    function: str = ""


@dataclass(eq=False, slots=True)
class Value:
    """A value flowing between nodes. ``name`` is filled by the naming pass.

    ``hint`` is the readable base name (usually the Python variable). ``same_type_as``
    records that this value has the same element type as another one, when the exact type
    is not known statically.
    """

    hint: str
    type: TypeSpec | None = None
    name: str | None = None
    same_type_as: Value | None = None
    declared_type: TypeSpec | None = None

    @property
    def dtype(self) -> int | None:
        """The element type if this is a tensor whose element type is known."""
        t = self.type
        if isinstance(t, TensorTypeSpec):
            return t.dtype
        return None

    def __repr__(self) -> str:
        return f"Value({self.name or self.hint!r})"


@dataclass(slots=True)
class Attr:
    """A node attribute. ``kind`` is an ``onnx.AttributeProto.AttributeType`` code.

    ``value`` holds Python data (int, float, bytes, lists of them), an ``onnx.TensorProto``,
    an ``onnx.SparseTensorProto``, an ``onnx.TypeProto`` or a :class:`Graph` (or lists of
    these); a ``TYPE_PROTO`` attribute may hold an IR type, which lowering turns into a proto. When ``ref`` is set, the attribute refers to the enclosing function's attribute
    parameter of that name and ``value`` is unused.
    """

    name: str
    kind: int
    value: Any = None
    ref: str | None = None
    doc_string: str = ""


@dataclass(eq=False, slots=True)
class Node:
    """One operator application. A ``None`` input is an omitted optional input."""

    op_type: str
    domain: str
    inputs: list[Value | None]
    outputs: list[Value]
    attrs: list[Attr] = field(default_factory=list)
    name: str = ""
    doc_string: str = ""
    overload: str = ""
    location: SourceLocation | None = None

    def subgraphs(self) -> Iterator[Graph]:
        """The graphs held by this node's attributes."""
        for attr in self.attrs:
            if isinstance(attr.value, Graph):
                yield attr.value
            elif isinstance(attr.value, list):
                for item in attr.value:
                    if isinstance(item, Graph):
                        yield item


@dataclass(eq=False, slots=True)
class Graph:
    """A graph: inputs, nodes in execution order, outputs.

    ``initializers`` maps values to their constant tensors (``onnx.TensorProto``);
    ``value_infos`` lists intermediate values whose types should be recorded.
    """

    name: str
    inputs: list[Value] = field(default_factory=list)
    outputs: list[Value] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    initializers: list[tuple[Value, Any]] = field(default_factory=list)
    value_infos: list[Value] = field(default_factory=list)
    doc_string: str = ""

    def all_nodes(self) -> Iterator[Node]:
        """Every node of this graph and of its nested graphs, depth first in order."""
        for node in self.nodes:
            yield node
            for sub in node.subgraphs():
                yield from sub.all_nodes()


@dataclass(slots=True)
class AttrParam:
    """An attribute parameter of a function: name, attribute kind and optional default."""

    name: str
    kind: int
    default: Any = None
    has_default: bool = False
    doc_string: str = ""


@dataclass(eq=False)
class Function:
    """A function (or main graph) with attribute parameters and opset imports.

    ``callees`` are the functions its nodes call directly, so that a model can embed every
    function it transitively uses. ``optional_inputs`` are the graph inputs a caller may
    omit (tensor parameters defaulted to ``None``).
    """

    name: str
    domain: str
    graph: Graph
    attr_params: list[AttrParam] = field(default_factory=list)
    opset_imports: dict[str, int] = field(default_factory=dict)
    doc_string: str = ""
    callees: list[Function] = field(default_factory=list)
    overload: str = ""
    optional_inputs: list[Value] = field(default_factory=list)

    @property
    def inputs(self) -> list[Value]:
        """The graph's inputs (read by code written for onnxscript 0.7)."""
        return self.graph.inputs

    @property
    def outputs(self) -> list[Value]:
        """The graph's outputs (torch.onnx counts them to know a call's outputs)."""
        return self.graph.outputs

    def transitive_callees(self) -> list[Function]:
        """Every function reachable through calls, callees before callers, each once."""
        seen: dict[tuple[str, str, str], Function] = {}

        def visit(fn: Function) -> None:
            for callee in fn.callees:
                key = (callee.domain, callee.name, callee.overload)
                if key not in seen:
                    seen[key] = callee
                    visit(callee)
                    # Re-insert so that callees come before their callers.
                    del seen[key]
                    seen[key] = callee

        visit(self)
        return list(seen.values())
