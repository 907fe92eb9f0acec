"""A module call recorded as one node calling a model-local function (``as_function``).

The module's ``forward`` is recorded inline as usual, then the nodes it made are moved
into an ``onnx_ir.Function`` (domain :data:`DOMAIN`, named after the module's class) and
replaced by one call node. Values the nodes read from outside (the call's inputs, the
parameters, shared constants) become the function's inputs, so the parameters stay
initializers of the model with their qualified names. Calls whose functions are equal up
to value and node names share one function (a model's identical layers give one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import onnx
import onnx_ir as ir

from onnxscript import proto_graphs
from onnxscript.ir_utils.graphs import nested_graphs, nested_nodes, subgraphs
from onnxscript.unique_names import candidates

if TYPE_CHECKING:
    from onnxscript.builder.op_builder import OpBuilder
    from onnxscript.builder.protocol import Recorder


class Module(Protocol):
    """What this module needs of an ``nn.Module``."""

    @property
    def name(self) -> str | None: ...

    def run_forward(self, op: OpBuilder, args: Any, kwargs: Mapping[str, Any]) -> Any: ...


DOMAIN = "pkg.onnxscript.nn"
"""The domain of the functions modules are recorded as."""


def call_as_function(
    module: Module, op: OpBuilder, args: Sequence[Any], kwargs: Mapping[str, Any]
) -> Any:
    """Record ``module(op, *args, **kwargs)`` as a call of a model-local function."""
    builder = op.builder
    graph = builder.graph
    start = len(graph)
    result = module.run_forward(op, args, kwargs)
    body = list(graph)[start:]
    results = list(result) if isinstance(result, (tuple, list)) else [result]
    made = {id(v) for node in body for v in node.outputs}
    outputs = [v for v in results if isinstance(v, ir.Value) and id(v) in made]
    if not body or not outputs:
        return result
    graph.remove(body, safe=False)
    function = _function(builder, type(module).__name__, body, outputs)
    function = _shared(builder, function)
    call = _call_node(builder, function, module, outputs)
    replaced = {id(old): new for old, new in zip(outputs, call.outputs)}
    mapped = [replaced.get(id(v), v) for v in results]
    if isinstance(result, (tuple, list)):
        return type(result)(mapped)
    return mapped[0]


def _function(
    builder: Recorder, name: str, body: list[ir.Node], outputs: list[ir.Value]
) -> ir.Function:
    """The nodes as a function reading every outside value through an input."""
    made = {id(v) for node in body for v in node.outputs}
    inputs: list[ir.Value] = []
    formal: dict[int, ir.Value] = {}
    for node in body:
        inside = made | _defined_within(node)
        for inner in nested_nodes([node]):
            for index, value in enumerate(inner.inputs):
                if value is None or id(value) in inside:
                    continue
                if id(value) not in formal:
                    formal[id(value)] = ir.Value(
                        name=value.name, type=value.type, shape=value.shape
                    )
                    inputs.append(value)
                inner.replace_input_with(index, formal[id(value)])
    graph = ir.Graph(
        [formal[id(v)] for v in inputs],
        outputs,
        nodes=body,
        opset_imports=_imports_of(body, builder.root.graph.opset_imports),
        name=name,
    )
    function = ir.Function(DOMAIN, name, "", graph=graph, attributes=[])
    function.meta["outside_inputs"] = inputs
    return function


def _imports_of(body: list[ir.Node], imports: Mapping[str, int]) -> dict[str, int]:
    """The model's imports of the domains the body's nodes use."""
    used = {node.domain for node in nested_nodes(body)}
    return {domain: version for domain, version in imports.items() if domain in used}


def _defined_within(node: ir.Node) -> set[int]:
    """Ids of the values ``node``'s subgraphs define (their inputs and node outputs)."""
    ids: set[int] = set()
    for graph in (g for sub in subgraphs(node) for g in nested_graphs(sub)):
        ids.update(id(v) for v in graph.inputs)
        ids.update(id(v) for v in graph.initializers.values())
        for inner in graph:
            ids.update(id(v) for v in inner.outputs)
    return ids


def _shared(builder: Recorder, function: ir.Function) -> ir.Function:
    """An equal function already in the model (up to names), else ``function`` added
    under a free name."""
    key = _canonical(function)
    for name in candidates(function.name):
        found = builder.functions.get((DOMAIN, name, ""))
        if found is None:
            function.name = name
            function.meta["canonical"] = key
            builder.functions[(DOMAIN, name, "")] = function
            builder.root.graph.opset_imports.setdefault(DOMAIN, 1)
            return function
        if found.meta.get("canonical") == key:
            found.meta["outside_inputs"] = function.meta["outside_inputs"]
            return found
    raise AssertionError("unreachable: candidates() never ends")


def _canonical(function: ir.Function) -> bytes:
    """The function's proto with value names numbered in order and node names dropped."""
    proto = ir.serde.serialize_function(function)
    names: dict[str, str] = {}

    def rename(name: str) -> str:
        if not name:
            return name
        return names.setdefault(name, f"v{len(names)}")

    def walk(nodes: Sequence[onnx.NodeProto]) -> None:
        for node in nodes:
            node.name = ""
            del node.metadata_props[:]
            node.input[:] = [rename(n) for n in node.input]
            node.output[:] = [rename(n) for n in node.output]
            for sub in proto_graphs.subgraphs(node):
                sub.name = ""
                for info in [*sub.input, *sub.output]:
                    info.name = rename(info.name)
                del sub.value_info[:]
                walk(sub.node)

    proto.name = ""
    proto.input[:] = [rename(n) for n in proto.input]
    walk(proto.node)
    proto.output[:] = [rename(n) for n in proto.output]
    del proto.value_info[:]
    del proto.metadata_props[:]
    return bytes(proto.SerializeToString(deterministic=True))


def _call_node(
    builder: Recorder, function: ir.Function, module: Module, outputs: list[ir.Value]
) -> ir.Node:
    """The node calling ``function`` on the outside values, with outputs named and typed
    like the values ``forward`` returned."""
    names = builder.names
    new_outputs = []
    for index, inner in enumerate(outputs):
        out = ir.Value(name=inner.name, type=inner.type, shape=inner.shape)
        inner.name = names.fresh(f"{function.name}_output_{index}")
        new_outputs.append(out)
    scope = names.node_prefix + (f"{module.name}/" if module.name else "")
    node = ir.Node(
        DOMAIN,
        function.name,
        function.meta["outside_inputs"],
        outputs=new_outputs,
        name=f"{scope}{function.name}_node_{names.next_id()}",
    )
    builder.graph.append(node)
    return node


__all__ = ["DOMAIN", "call_as_function"]
