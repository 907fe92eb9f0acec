"""``RewriteRule(as_function=True)``: the matched nodes become the body of a model-local
function, and the replacement's one node becomes a call of it.

The function is named by the call (its domain and op type) with the first overload
``"1"``, ``"2"``, ... the model does not have yet, so every match gets its own function
(matches of one pattern may differ in attributes and constants). Its inputs take the
names of the values the call passes, its outputs (and the call's) those of the values the
call replaces; its opset imports are the model's, for the domains the body uses. As in
0.7, except that applying the rule again does not wrap a function's whole body into yet
another function.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import onnx_ir as ir

from onnxscript.ir_utils.graphs import nested_nodes
from onnxscript.unique_names import UniqueNames


def extraction_refusal(
    container: ir.Graph | ir.Function, nodes: Sequence[ir.Node], new_nodes: Sequence[ir.Node]
) -> str | None:
    """Why the match (``nodes``) cannot become a function called by ``new_nodes`` (None
    when it can): the call must pass every value the matched nodes read from outside."""
    inside = {id(v) for node in nodes for v in node.outputs}
    passed = {id(v) for v in new_nodes[0].inputs if v is not None}
    for node in nodes:
        for value in node.inputs:
            if value is not None and id(value) not in inside and id(value) not in passed:
                return (
                    f"the matched nodes read {value.name!r}, which the replacement node "
                    "does not take as an input: the function could not compute its result"
                )
    if isinstance(container, ir.Function) and len(nodes) == len(container.graph):
        return "the match is the whole body of a function: extracting it again only wraps it"
    return None


def extract_function(
    model: ir.Model,
    graph: ir.Graph,
    nodes: Sequence[ir.Node],
    call: ir.Node,
    replaced: Sequence[ir.Value],
) -> ir.Function:
    """Move ``nodes`` (a match whose outputs ``replaced`` the outputs of ``call`` now
    stand for) out of ``graph`` into a new model-local function that ``call`` calls."""
    body = list(reversed(nodes))  # the matcher lists the root first
    graph.remove(body, safe=False)
    inputs = _function_inputs(body, call)
    outputs = [_named_like(old, new) for old, new in zip(replaced, call.outputs)]
    used = {node.domain for node in nested_nodes(body)}
    overload = _free_overload(model, call.domain, call.op_type)
    function = ir.Function(
        call.domain,
        call.op_type,
        overload,
        graph=ir.Graph(
            inputs,
            outputs,
            nodes=body,
            opset_imports={d: v for d, v in model.opset_imports.items() if d in used},
            name=call.op_type,
        ),
        attributes=[],
    )
    function.sort()  # producers before consumers (a stable sort: the match's order kept)
    model.functions[function.identifier()] = function
    call.overload = overload
    return function


def _function_inputs(body: Sequence[ir.Node], call: ir.Node) -> list[ir.Value]:
    """One input per input of ``call`` (named like the value passed), the body's reads of
    outer values moved onto them."""
    inputs: list[ir.Value] = []
    by_outer: dict[int, ir.Value] = {}
    names = UniqueNames()
    for index, outer in enumerate(call.inputs):
        base = (outer.name if outer is not None else None) or f"input_{index}"
        value = ir.Value(
            name=names.claim(base),
            type=outer.type if outer is not None else None,
            shape=outer.shape if outer is not None else None,
        )
        inputs.append(value)
        if outer is not None:
            by_outer.setdefault(id(outer), value)
    for node in body:
        for position, read in enumerate(node.inputs):
            if read is not None and id(read) in by_outer:
                node.replace_input_with(position, by_outer[id(read)])
    return inputs


def _named_like(old: ir.Value, new: ir.Value) -> ir.Value:
    """``old`` as a function output, and the call's output ``new`` named alike: ``old``'s
    name leaves the graph with it, so the call can take it (a graph output's name the
    substitution has given to ``new`` already)."""
    if old.name:
        new.name = old.name
    else:
        old.name = new.name
    return old


def _free_overload(model: ir.Model, domain: str, name: str) -> str:
    return next(str(i) for i in itertools.count(1) if (domain, name, str(i)) not in model.functions)


__all__ = ["extract_function", "extraction_refusal"]
