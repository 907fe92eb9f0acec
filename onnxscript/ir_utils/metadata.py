"""What becomes of ``metadata_props`` when a pass replaces nodes or values.

Exporters write metadata that tools read to trace a node back to where it came from:
torch.onnx puts on every node ``namespace``, ``pkg.torch.onnx.class_hierarchy``,
``pkg.torch.onnx.name_scopes``, ``pkg.torch.onnx.fx_node`` and
``pkg.torch.onnx.stack_trace`` (the module path, module classes, fx node and Python
lines the node computes), on the main graph the exported program's graph signature and
range constraints, and on inputs, outputs and initializers their ``InputSpec`` /
``OutputSpec`` kind and original name.

The rule every pass follows (and a rewriter or version-converter adapter should too):

- A node or value a pass leaves in place keeps its metadata as it is.
- A node made to replace others (a folded node's Constant, a fused node, the merged
  axes of two Unsqueezes, a node copied out of a function body) gets the metadata of the
  nodes it replaces, its *sources*, given in order of importance: first the node whose
  result it computes (the folded node, the last node of a fused chain), then the others.
  Each key takes its value from the first source that has it: values that differ are not
  joined, so every key keeps the form its writer gave it (a namespace, a repr of a list,
  one stack trace) and, for torch.onnx's keys, which all sources have, the five keys
  describe one fx node.
- A node that survives a merge (the kept node of common subexpressions, the outer of two
  Transposes or Unsqueezes) keeps its own values and gains only the keys it lacks.
- A value that takes another's place as a graph output (Identity and no-op removal,
  folding, fusion, inlining) gains the keys of the value it replaces (``OutputSpec``).
- A tensor made by folding or fusion records the values it was computed from under
  ``pkg.onnxscript.optimizer.folded_from`` (a repr of their sorted names); a weight
  folded away (a transposed parameter) thus stays findable.
"""

from __future__ import annotations

from collections.abc import Iterable

import onnx_ir as ir

from onnxscript.ir_utils.graphs import attribute_graphs, nested_nodes

FOLDED_FROM = "pkg.onnxscript.optimizer.folded_from"
"""The key of a folded tensor's sources: ``repr`` of the sorted names of the values it was
computed from (as onnxscript 0.7 wrote it)."""

_Holder = ir.Node | ir.Value | ir.Graph | ir.Function | ir.Model


def carry_metadata(target: _Holder, *sources: _Holder | None) -> None:
    """Give ``target`` the ``metadata_props`` of ``sources`` (in order of importance; None
    skipped): each key ``target`` lacks takes its value from the first source having it;
    keys ``target`` has keep their values."""
    props = target.metadata_props
    for source in sources:
        if source is None or source is target or not source.metadata_props:
            continue
        for key, value in source.metadata_props.items():
            props.setdefault(key, value)


def carry_to_nested(nodes: Iterable[ir.Node], *sources: _Holder | None) -> None:
    """:func:`carry_metadata` to each of ``nodes`` and to every node of their subgraphs."""
    for node in nested_nodes(nodes):
        carry_metadata(node, *sources)


def record_folded_from(value: ir.Value, sources: Iterable[ir.Value | None]) -> None:
    """Record on ``value`` (a tensor a pass computed) the names of the values it was
    computed from (unnamed ones and omitted inputs left out)."""
    names = sorted({v.name for v in sources if v is not None and v.name})
    if names:
        value.metadata_props[FOLDED_FROM] = repr(names)


def copy_metadata_by_name(source: ir.Model, target: ir.Model) -> None:
    """Put back into ``target`` the metadata of ``source`` that a tool working on protos
    dropped (onnx's C++ version converter keeps names but no ``metadata_props``): the
    model's, the main graph's, and those of the main graph's nodes and values (subgraphs
    included) matched by name. Keys ``target`` has keep their values."""
    carry_metadata(target, source)
    carry_metadata(target.graph, source.graph)
    nodes, values = _named(source.graph)
    found_nodes, found_values = _named(target.graph)
    for name, node in found_nodes.items():
        carry_metadata(node, nodes.get(name))
    for name, value in found_values.items():
        carry_metadata(value, values.get(name))


_Scope = tuple[str, ...]
"""Where a subgraph is: the names of the nodes and attributes holding it, outermost first."""


def _named(
    graph: ir.Graph, scope: _Scope = ()
) -> tuple[dict[tuple[_Scope, str], ir.Node], dict[tuple[_Scope, str], ir.Value]]:
    """The nodes and values (inputs, initializers, node outputs) of ``graph`` and its
    subgraphs by name within their subgraph (subgraphs may repeat a name)."""
    nodes: dict[tuple[_Scope, str], ir.Node] = {}
    values: dict[tuple[_Scope, str], ir.Value] = {}
    for value in [*graph.inputs, *graph.initializers.values()]:
        if value.name:
            values[scope, value.name] = value
    for node in graph:
        if node.name:
            nodes[scope, node.name] = node
        for value in node.outputs:
            if value.name:
                values[scope, value.name] = value
        for attr in node.attributes.values():
            for index, sub in enumerate(attribute_graphs(attr)):
                inner = (*scope, node.name or node.op_type, attr.name, str(index))
                sub_nodes, sub_values = _named(sub, inner)
                nodes.update(sub_nodes)
                values.update(sub_values)
    return nodes, values


__all__ = [
    "FOLDED_FROM",
    "carry_metadata",
    "carry_to_nested",
    "copy_metadata_by_name",
    "record_folded_from",
]
