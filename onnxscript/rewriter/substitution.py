"""Putting a replacement in place of a match: new nodes inserted where the match ends,
uses of the matched outputs moved to the new values (graph outputs keep their names),
matched nodes removed, metadata carried, opsets and initializers registered.

The replacement's constants (its initializers, and the Constant nodes made of numbers)
take the forms the model's IR version and opset allow (``ir_utils.initializers``): a
Constant of a type the opset's Constant does not hold becomes an initializer, and a
replacement whose constants have no allowed form is not put in place
(:func:`constants_placeable`, asked before anything changes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import onnx_ir as ir

from onnxscript.ir_utils.graphs import can_become_output
from onnxscript.ir_utils.initializers import (
    add_initializer,
    constant_form,
    constant_node,
    constant_node_takes,
    made_constant,
)
from onnxscript.ir_utils.metadata import carry_metadata
from onnxscript.ir_utils.names import free_node_names
from onnxscript.rewriter.replacement import ReplacementSubgraph
from onnxscript.unique_names import first_free

RULE_NAME_TAG = "pkg.onnxscript.rewriter.rule_name"
"""The ``metadata_props`` key 0.7 reserved for the rule that made a node (not written by
default, as in 0.7: new nodes carry the metadata of the nodes they replace)."""


def substitute(
    model: ir.Model,
    container: ir.Graph | ir.Function,
    matched_nodes: Sequence[ir.Node],
    old_outputs: Sequence[ir.Value],
    replacement: ReplacementSubgraph,
    *,
    remove_nodes: bool = True,
    last: ir.Node | None = None,
    names: set[str] | None = None,
    remove: Callable[[ir.Graph, Sequence[ir.Node]], object] | None = None,
) -> None:
    """Replace the match; ``last`` is the matched node coming last in the graph when the
    caller knows it (the root of a pattern whose nodes all lead to it), ``names`` the
    value names the graph already has when the caller keeps them. With ``remove_nodes``,
    ``remove(graph, matched_nodes)`` takes the matched nodes away (default: deleting those
    nothing uses any more)."""
    graph = container.graph if isinstance(container, ir.Function) else container
    new_nodes = list(replacement.new_nodes)
    _constants_as_initializers(model, container, new_nodes)
    constants = _place_initializers(model, container, replacement.new_initializers, new_nodes)
    new_outputs = [constants.get(id(v), v) for v in replacement.new_outputs]
    root = old_outputs[0].producer() if old_outputs else None
    others = [n for n in reversed(matched_nodes) if n is not root]
    sources = [root, *others] if root is not None else others  # the root computes the result
    for node in new_nodes:
        carry_metadata(node, *sources)
    if last is None:
        last = max(matched_nodes, key=_position(graph))
    free_node_names(graph, new_nodes)  # a rule may name its nodes (``_name=``)
    graph.insert_before(last, new_nodes)
    for old, new in zip(old_outputs, new_outputs, strict=True):
        _take_place(graph, old, new, new_nodes, last, remove_nodes)
    if remove_nodes:
        (remove or _remove_unused)(graph, matched_nodes)
    _name_new_values(graph, new_nodes, names)
    _register_opsets(model, container, replacement.used_opsets)
    if len(old_outputs) > 1 and _out_of_order(graph, new_nodes):
        graph.sort()


def _remove_unused(graph: ir.Graph, nodes: Sequence[ir.Node]) -> None:
    """Remove the matched nodes, consumers first, keeping any whose result a replacement
    still uses."""
    remaining = list(nodes)
    while remaining:
        removable = [n for n in remaining if not any(_needed(v) for v in n.outputs)]
        if not removable:
            return
        for node in removable:
            graph.remove(node, safe=True)
            remaining.remove(node)


def _needed(value: ir.Value) -> bool:
    return bool(value.uses()) or value.is_graph_output()


def _position(graph: ir.Graph) -> Callable[[ir.Node], int]:
    order = {id(node): index for index, node in enumerate(graph)}
    return lambda node: order.get(id(node), -1)


def _take_place(
    graph: ir.Graph,
    old: ir.Value,
    new: ir.Value,
    new_nodes: list[ir.Node],
    anchor: ir.Node,
    remove_nodes: bool,
) -> None:
    if new is old:
        return
    if new.type is None:
        new.type = old.type
    if new.shape is None and old.shape is not None:
        new.shape = old.shape
    if old.is_graph_output():
        new = _as_output(graph, old, new, new_nodes, anchor, remove_nodes)
        carry_metadata(new, old)
    old.replace_all_uses_with(new, replace_graph_outputs=True)


def _as_output(
    graph: ir.Graph,
    old: ir.Value,
    new: ir.Value,
    new_nodes: list[ir.Node],
    anchor: ir.Node,
    remove_nodes: bool,
) -> ir.Value:
    """``new`` under ``old``'s name, ready to be a graph output: renamed when it is the
    result of a node of this graph (made by the replacement or not: ``x * 1 -> x`` with
    ``x`` computed here); an Identity of it when it already has a name the graph needs
    (an input, initializer, other output or outer value)."""
    name = old.name
    if not can_become_output(new, graph):
        identity = ir.Node("", "Identity", [new])
        graph.insert_before(anchor, identity)
        new_nodes.append(identity)
        new = identity.outputs[0]
        new.type, new.shape = old.type, old.shape
    if remove_nodes:
        old.name = None
        new.name = name
    return new


def _opset(model: ir.Model, container: ir.Graph | ir.Function) -> int:
    found = container.opset_imports.get("") if isinstance(container, ir.Function) else None
    return found if found is not None else model.opset_imports.get("", 1)


def _form(model: ir.Model, container: ir.Graph | ir.Function, dtype: ir.DataType) -> str | None:
    """The form of a new constant of ``dtype`` in ``container``: an initializer only in
    the main graph (in subgraphs and functions, Constant nodes, as 0.7 places them)."""
    initializer = container is model.graph
    return constant_form(model.ir_version, _opset(model, container), dtype, initializer=initializer)


def constants_placeable(
    model: ir.Model, container: ir.Graph | ir.Function, replacement: ReplacementSubgraph
) -> bool:
    """Whether every constant of ``replacement`` (initializers, Constant nodes) has a form
    the model allows in ``container``."""
    for value in replacement.new_initializers:
        if value.const_value is None or _form(model, container, value.const_value.dtype) is None:
            return False
    for node in replacement.new_nodes:
        tensor = made_constant(node)
        if tensor is not None and _form(model, container, tensor.dtype) is None:
            return False
    return True


def _constants_as_initializers(
    model: ir.Model, container: ir.Graph | ir.Function, new_nodes: list[ir.Node]
) -> None:
    """The replacement's Constant nodes that the model's opset cannot hold (int64 before
    opset 9) as initializers of the main graph (:func:`constants_placeable` said they
    can be)."""
    for node in list(new_nodes):
        tensor = made_constant(node)
        if tensor is None or constant_node_takes(tensor.dtype, _opset(model, container)):
            continue
        value = node.outputs[0]
        registered = add_initializer(
            model.graph, value.name or "rewritten_const", tensor, ir_version=model.ir_version
        )
        carry_metadata(registered, value)
        value.replace_all_uses_with(registered)
        new_nodes.remove(node)


def _place_initializers(
    model: ir.Model,
    container: ir.Graph | ir.Function,
    initializers: Sequence[ir.Value],
    new_nodes: list[ir.Node],
) -> dict[int, ir.Value]:
    """Register the replacement's initializers in the form the model allows (in the main
    graph: initializers; elsewhere, functions and subgraphs: Constant nodes). Returns
    what stands in for each."""
    placed: dict[int, ir.Value] = {}
    for value in initializers:
        tensor = value.const_value
        assert tensor is not None
        if _form(model, container, tensor.dtype) == "initializer":
            registered = add_initializer(
                model.graph,
                value.name or "rewritten_const",
                tensor,
                ir_version=model.ir_version,
            )
            carry_metadata(registered, value)
            value.replace_all_uses_with(registered)
            placed[id(value)] = registered
        else:
            constant = constant_node(tensor)
            constant.outputs[0].type = value.type
            constant.outputs[0].shape = value.shape
            carry_metadata(constant.outputs[0], value)
            value.replace_all_uses_with(constant.outputs[0])
            new_nodes.insert(0, constant)
            placed[id(value)] = constant.outputs[0]
    return placed


def _name_new_values(graph: ir.Graph, new_nodes: Sequence[ir.Node], names: set[str] | None) -> None:
    """Names for the new nodes' unnamed outputs that no value of the graph has."""
    unnamed = [v for node in new_nodes for v in node.outputs if not v.name]
    if not unnamed:
        return
    taken = names if names is not None else taken_names(graph)
    for value in unnamed:
        producer = value.producer()
        base = f"{producer.op_type.lower()}" if producer is not None else "value"
        value.name = first_free(base, taken)
        taken.add(value.name)


def taken_names(graph: ir.Graph) -> set[str]:
    names = {v.name for v in (*graph.inputs, *graph.initializers.values()) if v.name}
    for node in graph:
        names.update(v.name for v in node.outputs if v.name)
    return names


def _register_opsets(
    model: ir.Model, container: ir.Graph | ir.Function, used: set[tuple[str, int | None]]
) -> None:
    targets = [model.opset_imports]
    if isinstance(container, ir.Function):
        targets.append(container.opset_imports)
    versions: dict[str, int] = {}
    for domain, version in sorted(used, key=lambda pair: pair[1] is None):
        versions.setdefault(domain, version if version is not None else 1)
    for domain, version in versions.items():
        for imports in targets:
            if domain not in imports:
                imports[domain] = version


def _out_of_order(graph: ir.Graph, new_nodes: Sequence[ir.Node]) -> bool:
    """Whether a consumer of the new nodes now comes before them (matches with outputs
    of several nodes are replaced where the last matched node was)."""
    if not new_nodes:
        return False
    order = {id(node): index for index, node in enumerate(graph)}
    for node in new_nodes:
        here = order[id(node)]
        for value in node.outputs:
            for user, _ in value.uses():
                if user.graph is graph and order.get(id(user), here + 1) < here:
                    return True
    return False


__all__ = ["RULE_NAME_TAG", "substitute", "taken_names"]
