"""Common subexpressions computed once, in every graph of a model: the main graph,
function bodies and their subgraphs. Nodes of one graph that apply the same op (or call
the same function) to the same values with the same attributes are merged, except random
ops and calls of functions that use one (at any depth), whose results differ per node."""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import onnx_ir as ir

from onnxscript.ir_utils.graphs import model_graphs, nested_graphs
from onnxscript.ir_utils.metadata import carry_metadata
from onnxscript.unique_names import first_free

_RANDOM = frozenset(
    {"RandomUniform", "RandomNormal", "RandomUniformLike", "RandomNormalLike", "Multinomial"}
)


class CommonSubexpressionPass(ir.passes.InPlacePass):
    """Compute once what several nodes of a graph compute alike. Tensor attributes are
    compared up to ``size_limit`` elements (a node with a bigger one is left alone)."""

    def __init__(self, size_limit: int = 10) -> None:
        super().__init__()
        self.size_limit = size_limit

    def call(self, model: ir.Model) -> ir.passes.PassResult:
        random = _random_functions(model)
        modified = False
        for graph in list(model_graphs(model)):
            seen: dict[Hashable, ir.Node] = {}
            for node in list(graph):
                key = self._key(node, random)
                if key is None:
                    continue
                if key in seen:
                    _merge(graph, seen[key], node)
                    modified = True
                else:
                    seen[key] = node
        return ir.passes.PassResult(model, modified)

    def _key(self, node: ir.Node, random: set[ir.OperatorIdentifier]) -> Hashable | None:
        """What identifies the computation ``node`` makes; None when it is not mergeable
        (random, holds a subgraph, has a big tensor attribute)."""
        identifier = node.op_identifier()
        if identifier in random or (not node.domain and node.op_type in _RANDOM):
            return None
        attributes = []
        for name, attr in sorted(node.attributes.items()):
            value = self._attribute_key(attr)
            if value is None:
                return None
            attributes.append((name, value))
        inputs = tuple(id(v) if v is not None else None for v in node.inputs)
        return identifier, len(node.outputs), inputs, tuple(attributes)

    def _attribute_key(self, attr: ir.Attr) -> Hashable | None:
        if attr.is_ref():
            return ("ref", attr.ref_attr_name)
        if attr.type in (ir.AttributeType.GRAPH, ir.AttributeType.GRAPHS):
            return None
        if attr.type == ir.AttributeType.TENSOR:
            tensor: ir.TensorProtocol = attr.value  # as_tensor()'s protocol check is slow
            if tensor.size > self.size_limit:
                return None
            array = tensor.numpy()
            return (str(tensor.dtype), array.shape, array.tobytes())
        if attr.type in (ir.AttributeType.TENSORS, ir.AttributeType.SPARSE_TENSOR):
            return None
        value = attr.value
        if isinstance(value, Sequence) and not isinstance(value, str):
            value = tuple(value)
        try:
            hash(value)
        except TypeError:
            value = repr(value)
        return (attr.type, value)


def _random_functions(model: ir.Model) -> set[ir.OperatorIdentifier]:
    """The model-local functions that use a random op, themselves or through a call."""
    random: set[ir.OperatorIdentifier] = set()
    grown = True
    while grown:
        grown = False
        for key, function in model.functions.items():
            if key not in random and _uses_random(function.graph, random):
                random.add(key)
                grown = True
    return random


def _uses_random(graph: ir.Graph, random: set[ir.OperatorIdentifier]) -> bool:
    return any(
        node.op_identifier() in random or (not node.domain and node.op_type in _RANDOM)
        for sub in nested_graphs(graph)
        for node in sub
    )


def _merge(graph: ir.Graph, kept: ir.Node, node: ir.Node) -> None:
    """Replace ``node``'s results by ``kept``'s and remove it; a graph output among them
    stays a value of its own name (an Identity of the kept result when that one is an
    input or output already). ``kept`` keeps its metadata and gains the keys it lacks."""
    carry_metadata(kept, node)
    for old, new in zip(node.outputs, kept.outputs):
        if old.is_graph_output():
            new = _as_output(graph, node, old, new)
        old.replace_all_uses_with(new, replace_graph_outputs=True)
    graph.remove(node, safe=True)


def _as_output(graph: ir.Graph, node: ir.Node, old: ir.Value, new: ir.Value) -> ir.Value:
    if new.is_graph_output() or new.is_graph_input():
        taken = {n.name for n in graph if n.name}  # node names are unique in a graph
        node_name = first_free(f"{node.name or 'cse'}_identity", taken)
        identity = ir.Node("", "Identity", [new], name=node_name)
        carry_metadata(identity, node)
        graph.insert_before(node, identity)
        result = identity.outputs[0]
        result.type, result.shape = old.type, old.shape
    else:
        result = new
    name, old.name = old.name, None
    result.name = name
    carry_metadata(result, old)
    return result


__all__ = ["CommonSubexpressionPass"]
