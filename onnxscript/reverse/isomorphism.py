"""Structural comparison of two models (or functions) up to renaming of values.

Two graphs are *isomorphic* when their nodes correspond one to one, with equal op types,
domains and attributes, and inputs that are corresponding values. The comparison starts
from the graph outputs and walks producers, so node order does not matter, and nested
graphs are matched through the nodes that hold them.

Before comparing, both sides are put in a canonical form that differs only in ways that
do not change results and that the script language cannot spell:

* initializers become ``Constant`` nodes (scripts have no initializers);
* a ``Loop`` condition input that is a constant ``true`` is the same as no condition;
* a graph output that is not computed by a node of that graph (a graph input, an outer
  value, or an output listed twice) gets an ``Identity`` (scripts always add one);
* names of node outputs nobody reads are dropped, and nodes whose results are never used
  are removed.

Types are compared for the main graph's inputs and outputs; nested graphs' inputs and
outputs are compared by element type where both sides declare one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import onnx
import onnx.numpy_helper

AT = onnx.AttributeProto


@dataclass
class _Node:
    op_type: str
    domain: str
    inputs: list[str]
    outputs: list[str]
    attrs: dict[str, onnx.AttributeProto]
    graphs: dict[str, _Graph] = field(default_factory=dict)


@dataclass
class _Graph:
    inputs: list[str]
    input_types: list[onnx.TypeProto]
    outputs: list[str]
    output_types: list[onnx.TypeProto]
    nodes: list[_Node]
    parent: _Graph | None = None
    producers: dict[str, tuple[_Node, int]] = field(default_factory=dict)


def _domain(domain: str) -> str:
    return "" if domain == "ai.onnx" else domain


def _const_true(node: _Node | None) -> bool:
    if node is None or node.op_type != "Constant" or node.domain:
        return False
    attr = node.attrs.get("value")
    if attr is None or attr.t.data_type != onnx.TensorProto.BOOL:
        return False
    array = onnx.numpy_helper.to_array(attr.t)
    return array.size == 1 and bool(array.all())


def _canonical_graph(
    graph: onnx.GraphProto | None,
    nodes: Sequence[onnx.NodeProto],
    inputs: list[str],
    input_types: list[onnx.TypeProto],
    outputs: list[str],
    output_types: list[onnx.TypeProto],
    parent: _Graph | None,
) -> _Graph:
    result = _Graph(inputs, input_types, [], output_types, [], parent)
    if graph is not None:
        for tensor in graph.initializer:
            if tensor.name in inputs:
                continue
            attr = onnx.helper.make_attribute("value", tensor)
            attr.t.name = ""
            result.nodes.append(_Node("Constant", "", [], [tensor.name], {"value": attr}))
        for sparse in graph.sparse_initializer:
            attr = onnx.helper.make_attribute("sparse_value", sparse)
            result.nodes.append(
                _Node("Constant", "", [], [sparse.values.name], {"sparse_value": attr})
            )
    for node in nodes:
        attrs = {a.name: a for a in node.attribute if a.type != AT.GRAPH}
        node_inputs = list(node.input)
        while node_inputs and not node_inputs[-1]:
            node_inputs.pop()
        item = _Node(node.op_type, _domain(node.domain), node_inputs, list(node.output), attrs)
        result.nodes.append(item)
        for a in node.attribute:
            if a.type == AT.GRAPH:
                g = a.g
                item.graphs[a.name] = _canonical_graph(
                    g,
                    g.node,
                    [i.name for i in g.input],
                    [i.type for i in g.input],
                    [o.name for o in g.output],
                    [o.type for o in g.output],
                    result,
                )
    for item in result.nodes:
        for i, name in enumerate(item.outputs):
            if name:
                result.producers[name] = (item, i)
    # Outputs not computed here (or listed twice) get an Identity.
    seen: set[str] = set()
    for k, name in enumerate(outputs):
        if name in result.producers and name not in seen:
            result.outputs.append(name)
        else:
            new = f"{name}\x00identity{k}"
            identity = _Node("Identity", "", [name], [new], {})
            result.nodes.append(identity)
            result.producers[new] = (identity, 0)
            result.outputs.append(new)
        seen.add(name)
    return result


def _canonical_loops(graph: _Graph) -> None:
    """A constant-true Loop condition is no condition; a condition reshaped to a scalar is
    the condition. (Run once the whole tree is built, so that outer values resolve.)"""
    for node in graph.nodes:
        for sub in node.graphs.values():
            _canonical_loops(sub)
        if node.op_type == "Loop" and not node.domain and len(node.inputs) > 1 and node.inputs[1]:
            producer = _lookup(graph, node.inputs[1])
            if producer is not None and _scalar_reshape(graph, producer[0]):
                node.inputs[1] = producer[0].inputs[0]
                producer = _lookup(graph, node.inputs[1])
            if producer is not None and _const_true(producer[0]):
                node.inputs[1] = ""


def _scalar_reshape(graph: _Graph, node: _Node) -> bool:
    if node.op_type != "Reshape" or node.domain or len(node.inputs) != 2 or node.attrs:
        return False
    shape = _lookup(graph, node.inputs[1])
    if shape is None or shape[0].op_type != "Constant" or "value" not in shape[0].attrs:
        return False
    tensor = shape[0].attrs["value"].t
    return tensor.data_type == onnx.TensorProto.INT64 and list(tensor.dims) == [0]


def _lookup(graph: _Graph, name: str) -> tuple[_Node, int] | None:
    g: _Graph | None = graph
    while g is not None:
        found = g.producers.get(name)
        if found is not None:
            return found
        g = g.parent
    return None


def _used_names(graph: _Graph, used: set[str]) -> None:
    for node in graph.nodes:
        used.update(node.inputs)
        for sub in node.graphs.values():
            _used_names(sub, used)
    used.update(graph.outputs)


def _prune(graph: _Graph) -> None:
    """Remove nodes whose results nobody uses (repeatedly), and unused output names."""
    while True:
        used: set[str] = set()
        root = graph
        while root.parent is not None:
            root = root.parent
        _used_names(root, used)
        if not _prune_graph(root, used):
            return


def _prune_graph(graph: _Graph, used: set[str]) -> bool:
    changed = False
    kept = []
    for node in graph.nodes:
        if node.outputs and not any(o and o in used for o in node.outputs):
            changed = True
            continue
        node.outputs = [o if o in used else "" for o in node.outputs]
        while node.outputs and not node.outputs[-1]:
            node.outputs.pop()
        kept.append(node)
        for sub in node.graphs.values():
            changed |= _prune_graph(sub, used)
    graph.nodes = kept
    while True:
        before = len(graph.nodes)
        graph.nodes = [n for n in graph.nodes if not n.outputs or any(n.outputs)]
        if len(graph.nodes) == before:
            break
    return changed


def _tensor_equal(a: onnx.TensorProto, b: onnx.TensorProto) -> bool:
    if a.data_type != b.data_type or list(a.dims) != list(b.dims):
        return False
    if a.data_location == onnx.TensorProto.EXTERNAL or b.data_location == onnx.TensorProto.EXTERNAL:
        ea = {e.key: e.value for e in a.external_data}
        eb = {e.key: e.value for e in b.external_data}
        return ea == eb
    x = onnx.numpy_helper.to_array(a)
    y = onnx.numpy_helper.to_array(b)
    if x.dtype == object:
        return bool(x.shape == y.shape and x.tolist() == y.tolist())
    return x.tobytes() == y.tobytes() or bool(
        x.shape == y.shape and np.array_equal(x, y, equal_nan=x.dtype.kind in "fc")
    )


def _float_equal(a: float, b: float) -> bool:
    return a == b or (math.isnan(a) and math.isnan(b))


def _attr_equal(a: onnx.AttributeProto, b: onnx.AttributeProto) -> bool:
    if a.ref_attr_name or b.ref_attr_name:
        return a.ref_attr_name == b.ref_attr_name
    if a.type != b.type:
        return False
    kind = a.type
    if kind == AT.FLOAT:
        return _float_equal(a.f, b.f)
    if kind == AT.INT:
        return a.i == b.i
    if kind == AT.STRING:
        return a.s == b.s
    if kind == AT.TENSOR:
        return _tensor_equal(a.t, b.t)
    if kind == AT.FLOATS:
        return len(a.floats) == len(b.floats) and all(
            _float_equal(x, y) for x, y in zip(a.floats, b.floats)
        )
    if kind == AT.INTS:
        return list(a.ints) == list(b.ints)
    if kind == AT.STRINGS:
        return list(a.strings) == list(b.strings)
    if kind == AT.TENSORS:
        return len(a.tensors) == len(b.tensors) and all(
            _tensor_equal(x, y) for x, y in zip(a.tensors, b.tensors)
        )
    if kind == AT.SPARSE_TENSOR:
        return (
            list(a.sparse_tensor.dims) == list(b.sparse_tensor.dims)
            and _tensor_equal(a.sparse_tensor.values, b.sparse_tensor.values)
            and _tensor_equal(a.sparse_tensor.indices, b.sparse_tensor.indices)
        )
    if kind == AT.TYPE_PROTO:
        return a.tp == b.tp
    if kind == AT.TYPE_PROTOS:
        return list(a.type_protos) == list(b.type_protos)
    return a == b


def _elem_type(t: onnx.TypeProto) -> int:
    return t.tensor_type.elem_type if t.WhichOneof("value") == "tensor_type" else 0


class _Matcher:
    def __init__(self) -> None:
        self.values: dict[tuple[int, str], tuple[int, str]] = {}
        self.nodes: dict[int, int] = {}
        self.graphs: dict[int, int] = {}
        self.work: list[tuple[_Graph, str, _Graph, str]] = []
        self.differences: list[str] = []
        self.matched_nodes: set[int] = set()

    def fail(self, message: str) -> None:
        self.differences.append(message)

    def pair_graphs(self, a: _Graph, b: _Graph, strict_types: bool) -> None:
        self.graphs[id(a)] = id(b)
        if len(a.inputs) != len(b.inputs) or len(a.outputs) != len(b.outputs):
            self.fail(
                f"graph arity differs: {len(a.inputs)}->{len(a.outputs)} vs "
                f"{len(b.inputs)}->{len(b.outputs)}"
            )
            return
        for x, y, tx, ty in zip(a.inputs, b.inputs, a.input_types, b.input_types):
            self.values[(id(a), x)] = (id(b), y)
            self._types(tx, ty, strict_types, f"input {x!r}")
        for x, y, tx, ty in zip(a.outputs, b.outputs, a.output_types, b.output_types):
            self._types(tx, ty, strict_types, f"output {x!r}")
            self.work.append((a, x, b, y))

    def _types(self, tx: onnx.TypeProto, ty: onnx.TypeProto, strict: bool, what: str) -> None:
        if strict:
            if tx != ty and tx.WhichOneof("value") is not None:
                self.fail(f"type of {what} differs")
        else:
            ex, ey = _elem_type(tx), _elem_type(ty)
            if ex and ey and ex != ey:
                self.fail(f"element type of {what} differs")

    def run(self) -> None:
        while self.work and len(self.differences) < 20:
            a, x, b, y = self.work.pop()
            self.match_value(a, x, b, y)

    def _owner(self, graph: _Graph, name: str) -> _Graph | None:
        g: _Graph | None = graph
        while g is not None:
            if name in g.producers or name in g.inputs:
                return g
            g = g.parent
        return None

    def match_value(self, a: _Graph, x: str, b: _Graph, y: str) -> None:
        if not x or not y:
            if x or y:
                self.fail(f"optional input {x!r} vs {y!r}")
            return
        ga = self._owner(a, x)
        gb = self._owner(b, y)
        if ga is None or gb is None:
            self.fail(f"undefined value {x!r} or {y!r}")
            return
        key = (id(ga), x)
        if key in self.values:
            if self.values[key] != (id(gb), y):
                self.fail(f"value {x!r} corresponds to two different values")
            return
        self.values[key] = (id(gb), y)
        if self.graphs.get(id(ga)) != id(gb):
            self.fail(f"value {x!r} and {y!r} live in different graphs")
            return
        a_input, b_input = x in ga.inputs, y in gb.inputs
        if a_input or b_input:
            if not (a_input and b_input and ga.inputs.index(x) == gb.inputs.index(y)):
                self.fail(f"input {x!r} vs {y!r}")
            return
        na, ia = ga.producers[x]
        nb, ib = gb.producers[y]
        if ia != ib:
            self.fail(f"{x!r} is output {ia} of {na.op_type}, {y!r} output {ib} of {nb.op_type}")
            return
        self.match_node(ga, na, gb, nb)

    def match_node(self, ga: _Graph, na: _Node, gb: _Graph, nb: _Node) -> None:
        if id(na) in self.nodes:
            if self.nodes[id(na)] != id(nb):
                self.fail(f"node {na.op_type} corresponds to two nodes")
            return
        self.nodes[id(na)] = id(nb)
        self.matched_nodes.add(id(na))
        if (na.op_type, na.domain) != (nb.op_type, nb.domain):
            self.fail(f"{na.domain}::{na.op_type} vs {nb.domain}::{nb.op_type}")
            return
        if len(na.inputs) != len(nb.inputs) or len(na.outputs) != len(nb.outputs):
            self.fail(
                f"{na.op_type}: inputs/outputs {na.inputs}->{na.outputs} vs "
                f"{nb.inputs}->{nb.outputs}"
            )
            return
        if set(na.attrs) != set(nb.attrs) or set(na.graphs) != set(nb.graphs):
            self.fail(
                f"{na.op_type}: attributes {sorted([*na.attrs, *na.graphs])} vs "
                f"{sorted([*nb.attrs, *nb.graphs])}"
            )
            return
        for name, attr in na.attrs.items():
            if not _attr_equal(attr, nb.attrs[name]):
                self.fail(f"{na.op_type}: attribute {name!r} differs")
        for x, y in zip(na.outputs, nb.outputs):
            if bool(x) != bool(y):
                self.fail(f"{na.op_type}: output {x!r} vs {y!r}")
        for name, sub in na.graphs.items():
            self.pair_graphs(sub, nb.graphs[name], strict_types=False)
        for x, y in zip(na.inputs, nb.inputs):
            self.work.append((ga, x, gb, y))


def _count_nodes(graph: _Graph) -> int:
    return sum(1 + sum(_count_nodes(g) for g in n.graphs.values()) for n in graph.nodes)


def _main_graph(model: onnx.ModelProto | onnx.GraphProto) -> _Graph:
    g = model.graph if isinstance(model, onnx.ModelProto) else model
    result = _canonical_graph(
        g,
        g.node,
        [i.name for i in g.input],
        [i.type for i in g.input],
        [o.name for o in g.output],
        [o.type for o in g.output],
        None,
    )
    _canonical_loops(result)
    _prune(result)
    return result


def _function_graph(fn: onnx.FunctionProto) -> _Graph:
    empty = onnx.TypeProto()
    result = _canonical_graph(
        None,
        fn.node,
        list(fn.input),
        [empty] * len(fn.input),
        list(fn.output),
        [empty] * len(fn.output),
        None,
    )
    _canonical_loops(result)
    _prune(result)
    return result


def _compare(a: _Graph, b: _Graph, strict_types: bool) -> list[str]:
    matcher = _Matcher()
    matcher.pair_graphs(a, b, strict_types)
    matcher.run()
    if not matcher.differences:
        na, nb = _count_nodes(a), _count_nodes(b)
        if na != nb or len(matcher.matched_nodes) != na:
            matcher.fail(f"{na} nodes vs {nb} nodes ({len(matcher.matched_nodes)} matched)")
    return matcher.differences


def _used_opsets(model: onnx.ModelProto) -> dict[str, int]:
    imports = {_domain(o.domain): o.version for o in model.opset_import}
    used: set[str] = set()

    def visit(nodes: Sequence[onnx.NodeProto]) -> None:
        for node in nodes:
            used.add(_domain(node.domain))
            for a in node.attribute:
                if a.type == AT.GRAPH:
                    visit(a.g.node)

    visit(model.graph.node)
    if model.graph.initializer:
        used.add("")
    return {d: v for d, v in imports.items() if d in used}


def differences(
    original: onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto,
    other: onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto,
) -> list[str]:
    """What differs structurally between ``original`` and ``other`` (empty if isomorphic)."""
    if isinstance(original, onnx.FunctionProto) and isinstance(other, onnx.FunctionProto):
        found = _compare(_function_graph(original), _function_graph(other), False)
        if len(original.attribute) + len(original.attribute_proto) != len(other.attribute) + len(
            other.attribute_proto
        ):
            found.append("attribute parameters differ")
        return found
    if isinstance(original, onnx.FunctionProto) or isinstance(other, onnx.FunctionProto):
        return ["a function is compared with a graph"]
    found = _compare(_main_graph(original), _main_graph(other), True)
    if isinstance(original, onnx.ModelProto) and isinstance(other, onnx.ModelProto):
        ours, theirs = _used_opsets(original), _used_opsets(other)
        for domain, version in ours.items():
            if theirs.get(domain, version) != version:
                found.append(f"opset {domain or 'ai.onnx'} {version} vs {theirs[domain]}")
        by_key = {(_domain(f.domain), f.name): f for f in other.functions}
        for fn in original.functions:
            match = by_key.get((_domain(fn.domain), fn.name))
            if match is None:
                found.append(f"function {fn.domain}::{fn.name} is missing")
                continue
            found.extend(f"{fn.name}: {d}" for d in differences(fn, match))
    return found


def isomorphic(
    original: onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto,
    other: onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto,
) -> bool:
    """Whether the two are structurally equal up to renaming (see the module docstring)."""
    return not differences(original, other)
