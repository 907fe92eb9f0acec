"""Function bodies copied into a graph: the call's inputs wired in, attribute references
resolved, names prefixed (the graph builder's ``call_inline`` and the inlining pass,
``onnxscript.passes.inlining``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import onnx_ir as ir

_Map = dict[ir.Value, "ir.Value | None"]


def expand_call(
    function: ir.Function,
    inputs: Sequence[ir.Value | None],
    attributes: Mapping[str, ir.Attr],
    *,
    prefix: str,
) -> tuple[list[ir.Node], list[ir.Value | None]]:
    """Copies of ``function``'s nodes (in no graph yet, in order) wired to ``inputs``
    (None: an omitted optional input), attribute references resolved from ``attributes``
    or the function's defaults (a reference to neither is dropped, as ONNX says), value
    and node names prefixed with ``prefix``, subgraphs copied with their references
    remapped; and the values that stand for the function's outputs."""
    mapping: _Map = {}
    for index, formal in enumerate(function.inputs):
        mapping[formal] = inputs[index] if index < len(inputs) else None
    given = {**_defaults(function), **attributes}
    nodes = [_copy_node(node, mapping, given, prefix) for node in function]
    return nodes, [mapping.get(v, v) for v in function.outputs]


def _defaults(function: ir.Function) -> dict[str, ir.Attr]:
    return {name: a for name, a in function.attributes.items() if a.value is not None}


def _copy_node(node: ir.Node, mapping: _Map, given: Mapping[str, ir.Attr], prefix: str) -> ir.Node:
    inputs = [None if v is None else mapping.get(v, v) for v in node.inputs]
    attrs = [
        a for a in (_copy_attr(a, mapping, given, prefix) for a in node.attributes.values()) if a
    ]
    copy = ir.Node(
        node.domain,
        node.op_type,
        inputs,
        attrs,
        overload=node.overload,
        num_outputs=len(node.outputs),
        version=node.version,
        name=prefix + (node.name or node.op_type),
        doc_string=node.doc_string,
        metadata_props=dict(node.metadata_props),
    )
    for old, new in zip(node.outputs, copy.outputs):
        new.name = prefix + (old.name or "")
        new.type = old.type
        new.shape = old.shape.copy() if old.shape is not None else None
        new.const_value = old.const_value
        new.metadata_props.update(old.metadata_props)
        mapping[old] = new
    return copy


def _copy_attr(
    attr: ir.Attr, mapping: _Map, given: Mapping[str, ir.Attr], prefix: str
) -> ir.Attr | None:
    if attr.is_ref():
        found = given.get(attr.ref_attr_name or "")
        return None if found is None else ir.Attr(attr.name, found.type, found.value)
    if attr.type == ir.AttributeType.GRAPH:
        return ir.AttrGraph(attr.name, _copy_graph(attr.as_graph(), mapping, given, prefix))
    if attr.type == ir.AttributeType.GRAPHS:
        graphs = [_copy_graph(g, mapping, given, prefix) for g in attr.as_graphs()]
        return ir.AttrGraphs(attr.name, graphs)
    return attr


def _copy_graph(
    graph: ir.Graph, mapping: _Map, given: Mapping[str, ir.Attr], prefix: str
) -> ir.Graph:
    inputs = []
    for old in graph.inputs:
        new = ir.Value(
            name=prefix + (old.name or ""),
            type=old.type,
            shape=old.shape,
            metadata_props=dict(old.metadata_props),
        )
        mapping[old] = new
        inputs.append(new)
    initializers = []
    for old in graph.initializers.values():
        new = ir.Value(
            name=prefix + (old.name or ""),
            type=old.type,
            shape=old.shape,
            const_value=old.const_value,
            metadata_props=dict(old.metadata_props),
        )
        mapping[old] = new
        initializers.append(new)
    nodes = [_copy_node(node, mapping, given, prefix) for node in graph]
    outputs = [mapping.get(v, v) for v in graph.outputs]
    return ir.Graph(
        inputs,
        [v for v in outputs if v is not None],
        nodes=nodes,
        initializers=initializers,
        name=graph.name,
        doc_string=graph.doc_string,
        metadata_props=dict(graph.metadata_props),
    )


__all__ = ["expand_call"]
