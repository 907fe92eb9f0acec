"""``import onnxscript._internal.builder``: where onnxscript 0.7 kept its ``GraphBuilder``.

A thin compatibility module: ``GraphBuilder`` and ``OpBuilder`` are this package's
(``onnxscript.builder``), and 0.7's helpers ``make_value``, ``build_graph``,
``build_function`` and ``lift_initializers_to_constants`` are written over them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import onnx_ir as ir

from onnxscript.builder.graph_builder import GraphBuilder
from onnxscript.builder.op_builder import OpBuilder
from onnxscript.builder.types import typed_value

TypeSpec = ir.TypeAndShape | Any
"""A type as ``make_value`` takes it: ``FLOAT[3, 4]``, ``ir.TypeAndShape``, ..."""


def make_value(name: str, type_spec: TypeSpec | None = None) -> ir.Value:
    """A new value named ``name`` of the type ``type_spec`` denotes (untyped if None)."""
    return typed_value(name, type_spec, f"make_value({name!r})")


def _trace(
    builder: GraphBuilder, trace_function: Callable[..., Any], inputs: Sequence[ir.Value | None]
) -> list[ir.Value]:
    """Run ``trace_function(op, *inputs)``; absent inputs are passed as None but still
    declared (as placeholders), as 0.7 does."""
    args: list[ir.Value | None] = []
    for index, value in enumerate(inputs):
        formal = value if value is not None else ir.Value(name=f"_absent_input_{index}")
        builder.graph.inputs.append(formal)
        args.append(value)
    with builder:
        result = trace_function(builder.op, *args)
    if result is None:
        return list(builder.graph.outputs)
    return list(result) if isinstance(result, (tuple, list)) else [result]


def build_graph(
    trace_function: Callable[..., Any],
    inputs: Sequence[ir.Value | None],
    outputs: Sequence[ir.Value],
    *,
    opset_imports: dict[str, int],
    name: str = "subgraph",
    parent: GraphBuilder | None = None,
) -> ir.Graph:
    """A graph (for If/Loop/Scan bodies) traced from ``trace_function(op, *inputs)``; the
    returned values take the names and types of ``outputs``."""
    graph = ir.Graph([], [], nodes=[], opset_imports=opset_imports, name=name)
    builder = GraphBuilder(graph, constants_as_nodes=True)
    results = _trace(builder, trace_function, inputs)
    if len(results) != len(outputs):
        raise ValueError(
            f"build_graph: the function returned {len(results)} values but {len(outputs)} "
            "outputs are declared"
        )
    for value, declared in zip(results, outputs):
        out = builder.add_output(value, declared.name)
        if declared.type is not None:
            out.type = declared.type
        if declared.shape is not None:
            out.shape = declared.shape
    return graph


def build_function(
    trace_function: Callable[..., Any],
    inputs: Sequence[ir.Value | None],
    *,
    domain: str,
    name: str,
    attributes: Mapping[str, ir.Attr] | Sequence[ir.Attr] | None = None,
    opset_imports: dict[str, int],
) -> ir.Function:
    """An ``ir.Function`` traced from ``trace_function(op, *inputs)`` (constants are
    ``Constant`` nodes, as a function body needs)."""
    graph = ir.Graph([], [], nodes=[], opset_imports=opset_imports, name=name)
    builder = GraphBuilder(graph, constants_as_nodes=True)
    results = _trace(builder, trace_function, inputs)
    if not graph.outputs:
        for value in results:
            builder.add_output(value)
    attrs = list(attributes.values()) if isinstance(attributes, Mapping) else attributes
    return ir.Function(domain, name, graph=graph, attributes=list(attrs or []))


def lift_initializers_to_constants(graph: ir.Graph) -> None:
    """Replace each initializer of ``graph`` (not also a graph input) by a ``Constant``
    node, so the graph can be a function body. Unlike 0.7, the Constant's output is a new
    value (of the same name) that takes over every use of the initializer."""
    inputs = {id(v) for v in graph.inputs}
    for key, value in list(graph.initializers.items()):
        if id(value) in inputs or value.const_value is None:
            continue
        del graph.initializers[key]
        node = ir.Node("", "Constant", [], [ir.AttrTensor("value", value.const_value)])
        out = node.outputs[0]
        out.name, out.type, out.shape = value.name, value.type, value.shape
        value.replace_all_uses_with(out, replace_graph_outputs=True)
        if len(graph):
            graph.insert_before(graph[0], node)
        else:
            graph.append(node)


__all__ = [
    "GraphBuilder",
    "OpBuilder",
    "TypeSpec",
    "build_function",
    "build_graph",
    "lift_initializers_to_constants",
    "make_value",
]
