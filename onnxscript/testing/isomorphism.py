"""Comparing onnx protos up to the names of values and the order of independent nodes.

Two graphs are isomorphic when a one-to-one renaming of values makes them compute the same
thing: inputs and outputs correspond by position (with equal types), and matching outputs
are produced by nodes with the same op, domain and attributes from matching inputs.
Initializers and ``Constant`` nodes match by content. Node names, doc strings and value
infos are immaterial. Nested graphs (``If`` branches, ``Loop`` bodies) are compared the
same way and may refer to matching values of the enclosing graph.

The matching walks backwards from the outputs, so node order does not matter; nodes that
no output depends on must still pair up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import onnx
import onnx.numpy_helper

ProtoLike = onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto


class Mismatch(AssertionError):
    """The protos are not isomorphic; the message says where they differ."""


@dataclass(eq=False)
class _Node:
    """A node read out of its proto once (protobuf wrappers have no stable identity)."""

    op_type: str
    domain: str
    overload: str
    inputs: list[str]
    outputs: list[str]
    attributes: dict[str, onnx.AttributeProto]
    graphs: dict[str, _Graph]


@dataclass(eq=False)
class _Graph:
    inputs: list[onnx.ValueInfoProto]
    outputs: list[onnx.ValueInfoProto]
    initializers: list[onnx.TensorProto]
    nodes: list[_Node]


def _read(graph: onnx.GraphProto) -> _Graph:
    nodes = []
    for node in graph.node:
        graphs: dict[str, _Graph] = {}
        for attr in node.attribute:
            if attr.type == onnx.AttributeProto.GRAPH:
                graphs[attr.name] = _read(attr.g)
            elif attr.type == onnx.AttributeProto.GRAPHS:
                for i, g in enumerate(attr.graphs):
                    graphs[f"{attr.name}[{i}]"] = _read(g)
        nodes.append(
            _Node(
                node.op_type,
                node.domain,
                node.overload,
                list(node.input),
                list(node.output),
                {a.name: a for a in node.attribute},
                graphs,
            )
        )
    return _Graph(list(graph.input), list(graph.output), list(graph.initializer), nodes)


@dataclass(eq=False)
class _Scope:
    """The values of one graph: who produces each name."""

    graph: _Graph
    producers: dict[str, tuple[str, Any, int]]
    parent: _Scope | None = None
    depth: int = 0

    def lookup(self, name: str) -> tuple[int, tuple[str, Any, int]] | None:
        scope: _Scope | None = self
        while scope is not None:
            found = scope.producers.get(name)
            if found is not None:
                return scope.depth, found
            scope = scope.parent
        return None


def _scope(graph: _Graph, parent: _Scope | None) -> _Scope:
    producers: dict[str, tuple[str, Any, int]] = {}
    for t in graph.initializers:
        producers[t.name] = ("initializer", t, 0)
    for i, vi in enumerate(graph.inputs):
        producers[vi.name] = ("input", None, i)
    for node in graph.nodes:
        for k, out in enumerate(node.outputs):
            if out:
                producers[out] = ("node", node, k)
    return _Scope(graph, producers, parent, 0 if parent is None else parent.depth + 1)


def _tensor_key(t: onnx.TensorProto) -> tuple[Any, ...]:
    array = onnx.numpy_helper.to_array(t)
    data = repr(array.tolist()) if array.dtype == object else array.tobytes()
    return (t.data_type, tuple(t.dims), data)


def _attribute_value(attr: onnx.AttributeProto) -> Any:
    if attr.ref_attr_name:
        return ("ref", attr.ref_attr_name, attr.type)
    value = onnx.helper.get_attribute_value(attr)
    if isinstance(value, onnx.TensorProto):
        return _tensor_key(value)
    if isinstance(value, list) and value and isinstance(value[0], onnx.TensorProto):
        return [_tensor_key(v) for v in value]
    if isinstance(value, (onnx.TypeProto, onnx.SparseTensorProto)):
        return value.SerializeToString()
    if isinstance(value, float):
        return ("float", np.float32(value).tobytes())
    if isinstance(value, list) and value and isinstance(value[0], float):
        return ("floats", np.asarray(value, dtype=np.float32).tobytes())
    return value


@dataclass
class _Matcher:
    a2b: dict[str, str] = field(default_factory=dict)
    b2a: dict[str, str] = field(default_factory=dict)
    nodes: dict[int, _Node] = field(default_factory=dict)
    matched_b: set[int] = field(default_factory=set)
    scopes: list[tuple[_Scope, _Scope]] = field(default_factory=list)
    pending: list[tuple[str, str, _Scope, _Scope, str]] = field(default_factory=list)

    def bind(self, a: str, b: str, where: str) -> None:
        if not a or not b:
            if a or b:
                raise Mismatch(f"{where}: one side omits a value the other gives ({a!r} vs {b!r})")
            return
        if self.a2b.get(a, b) != b or self.b2a.get(b, a) != a:
            raise Mismatch(
                f"{where}: value {a!r} corresponds to {self.a2b.get(a)!r} elsewhere, but to {b!r} here"
            )
        self.a2b[a] = b
        self.b2a[b] = a

    def graph(
        self, ga: _Graph, gb: _Graph, parent: tuple[_Scope, _Scope] | None, where: str
    ) -> None:
        if len(ga.inputs) != len(gb.inputs):
            raise Mismatch(f"{where}: {len(ga.inputs)} inputs vs {len(gb.inputs)}")
        if len(ga.outputs) != len(gb.outputs):
            raise Mismatch(f"{where}: {len(ga.outputs)} outputs vs {len(gb.outputs)}")
        for i, (ia, ib) in enumerate(zip(ga.inputs, gb.inputs, strict=True)):
            if ia.type != ib.type:
                raise Mismatch(f"{where}: input {i} types differ:\n{ia.type}\nvs\n{ib.type}")
            self.bind(ia.name, ib.name, f"{where} input {i}")
        for i, (oa, ob) in enumerate(zip(ga.outputs, gb.outputs, strict=True)):
            if oa.type != ob.type:
                raise Mismatch(f"{where}: output {i} types differ:\n{oa.type}\nvs\n{ob.type}")
        sa = _scope(ga, parent[0] if parent else None)
        sb = _scope(gb, parent[1] if parent else None)
        self.scopes.append((sa, sb))
        for i, (oa, ob) in enumerate(zip(ga.outputs, gb.outputs, strict=True)):
            self.pending.append((oa.name, ob.name, sa, sb, f"{where} output {i}"))

    def node_header(self, na: _Node, nb: _Node, where: str) -> None:
        if (na.op_type, na.domain, na.overload) != (nb.op_type, nb.domain, nb.overload):
            raise Mismatch(
                f"{where}: computed by {na.domain or 'ai.onnx'}.{na.op_type} vs "
                f"{nb.domain or 'ai.onnx'}.{nb.op_type}"
            )
        if len(na.inputs) != len(nb.inputs) or len(na.outputs) != len(nb.outputs):
            raise Mismatch(f"{where}: {na.op_type} nodes have different numbers of inputs/outputs")
        if set(na.attributes) != set(nb.attributes):
            raise Mismatch(
                f"{where}: {na.op_type} attributes {sorted(na.attributes)} vs {sorted(nb.attributes)}"
            )
        for name, attr in na.attributes.items():
            other = nb.attributes[name]
            if attr.type != other.type:
                raise Mismatch(f"{where}: attribute {name} of {na.op_type} has different types")
            if attr.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS):
                continue
            if _attribute_value(attr) != _attribute_value(other):
                raise Mismatch(
                    f"{where}: attribute {name} of {na.op_type} differs: "
                    f"{onnx.helper.get_attribute_value(attr)!r} vs "
                    f"{onnx.helper.get_attribute_value(other)!r}"
                )

    def value(self, a: str, b: str, sa: _Scope, sb: _Scope, where: str) -> None:
        if not a or not b or a in self.a2b or b in self.b2a:
            self.bind(a, b, where)
            return
        pa, pb = sa.lookup(a), sb.lookup(b)
        if pa is None or pb is None:
            if pa is None and pb is None:
                self.bind(a, b, where)  # both free (a name from outside the proto)
                return
            raise Mismatch(f"{where}: {a!r} and {b!r} are not defined the same way")
        (depth_a, (kind_a, obj_a, idx_a)), (depth_b, (kind_b, obj_b, idx_b)) = pa, pb
        if depth_a != depth_b or kind_a != kind_b:
            raise Mismatch(f"{where}: {a!r} is a {kind_a} but {b!r} is a {kind_b}")
        if kind_a == "input":
            raise Mismatch(f"{where}: {a!r} is input {idx_a} but {b!r} is input {idx_b}")
        if kind_a == "initializer":
            if _tensor_key(obj_a) != _tensor_key(obj_b):
                raise Mismatch(f"{where}: initializers {a!r} and {b!r} differ")
            self.bind(a, b, where)
            return
        if idx_a != idx_b:
            raise Mismatch(
                f"{where}: {a!r} is output {idx_a} of its node but {b!r} is output {idx_b}"
            )
        self.node(obj_a, obj_b, sa, sb, where)

    def node(self, na: _Node, nb: _Node, sa: _Scope, sb: _Scope, where: str) -> None:
        known = self.nodes.get(id(na))
        if known is not None:
            if known is not nb:
                raise Mismatch(f"{where}: {na.op_type} nodes do not correspond")
            return
        if id(nb) in self.matched_b:
            raise Mismatch(f"{where}: {nb.op_type} node matched twice")
        here = f"{where} <- {na.op_type}"
        self.node_header(na, nb, here)
        self.nodes[id(na)] = nb
        self.matched_b.add(id(nb))
        for k, (oa, ob) in enumerate(zip(na.outputs, nb.outputs, strict=True)):
            self.bind(oa, ob, f"{here} output {k}")
        for name, ga in na.graphs.items():
            gb = nb.graphs.get(name)
            if gb is None:
                raise Mismatch(f"{here}: graph attribute {name} missing")
            self.graph(ga, gb, (sa, sb), f"{here}.{name}")
        for k, (ia, ib) in enumerate(zip(na.inputs, nb.inputs, strict=True)):
            self.pending.append((ia, ib, sa, sb, f"{here} input {k}"))

    def run(self, ga: _Graph, gb: _Graph, where: str) -> None:
        self.graph(ga, gb, None, where)
        while self.pending:
            self.value(*self.pending.pop())
        for sa, sb in self.scopes:
            unmatched_a = [n.op_type for n in sa.graph.nodes if id(n) not in self.nodes]
            unmatched_b = [n.op_type for n in sb.graph.nodes if id(n) not in self.matched_b]
            if unmatched_a or unmatched_b:
                raise Mismatch(
                    f"{where}: nodes that no output depends on differ: {unmatched_a} vs {unmatched_b}"
                )


def _compare_graphs(ga: onnx.GraphProto, gb: onnx.GraphProto, where: str) -> None:
    _Matcher().run(_read(ga), _read(gb), where)


def _opsets(imports: Sequence[onnx.OperatorSetIdProto]) -> dict[str, int]:
    return {("" if i.domain == "ai.onnx" else i.domain): i.version for i in imports}


def _function_graph(f: onnx.FunctionProto) -> onnx.GraphProto:
    graph = onnx.GraphProto(name=f.name)
    graph.input.extend(onnx.ValueInfoProto(name=n) for n in f.input)
    graph.output.extend(onnx.ValueInfoProto(name=n) for n in f.output)
    graph.node.extend(f.node)
    return graph


def _compare_functions(fa: onnx.FunctionProto, fb: onnx.FunctionProto, where: str) -> None:
    if (fa.domain, fa.name, fa.overload) != (fb.domain, fb.name, fb.overload):
        raise Mismatch(f"{where}: function {fa.domain}::{fa.name} vs {fb.domain}::{fb.name}")
    if list(fa.attribute) != list(fb.attribute):
        raise Mismatch(
            f"{where}: attribute parameters {list(fa.attribute)} vs {list(fb.attribute)}"
        )
    defaults_a = {a.name: _attribute_value(a) for a in fa.attribute_proto}
    defaults_b = {a.name: _attribute_value(a) for a in fb.attribute_proto}
    if defaults_a != defaults_b:
        raise Mismatch(f"{where}: attribute defaults differ: {defaults_a} vs {defaults_b}")
    if _opsets(fa.opset_import) != _opsets(fb.opset_import):
        raise Mismatch(
            f"{where}: opset imports {_opsets(fa.opset_import)} vs {_opsets(fb.opset_import)}"
        )
    _compare_graphs(_function_graph(fa), _function_graph(fb), where)


def assert_isomorphic(a: ProtoLike, b: ProtoLike) -> None:
    """Raise :class:`Mismatch` (an ``AssertionError``) unless ``a`` and ``b`` are the same
    model, function or graph up to value names and the order of independent nodes."""
    if type(a) is not type(b):
        raise Mismatch(f"cannot compare a {type(a).__name__} with a {type(b).__name__}")
    if isinstance(a, onnx.GraphProto):
        assert isinstance(b, onnx.GraphProto)
        _compare_graphs(a, b, "graph")
    elif isinstance(a, onnx.FunctionProto):
        assert isinstance(b, onnx.FunctionProto)
        _compare_functions(a, b, f"function {a.name}")
    else:
        assert isinstance(a, onnx.ModelProto) and isinstance(b, onnx.ModelProto)
        if _opsets(a.opset_import) != _opsets(b.opset_import):
            raise Mismatch(
                f"model opset imports {_opsets(a.opset_import)} vs {_opsets(b.opset_import)}"
            )
        _compare_graphs(a.graph, b.graph, "model graph")
        funcs_a = {(f.domain, f.name, f.overload): f for f in a.functions}
        funcs_b = {(f.domain, f.name, f.overload): f for f in b.functions}
        if set(funcs_a) != set(funcs_b):
            raise Mismatch(f"model functions {sorted(funcs_a)} vs {sorted(funcs_b)}")
        for key, fa in funcs_a.items():
            _compare_functions(fa, funcs_b[key], f"function {fa.name}")


def is_isomorphic(a: ProtoLike, b: ProtoLike) -> bool:
    """Whether :func:`assert_isomorphic` would pass."""
    try:
        assert_isomorphic(a, b)
    except Mismatch:
        return False
    return True
