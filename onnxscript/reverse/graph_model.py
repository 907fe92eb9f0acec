"""A read-only view of ONNX graphs built for translation: values, their uses and scopes.

Each value (graph input, initializer, node output) becomes one :class:`Val` that knows where
it is defined, how often and how late it is read, and which Python name it would like to
have. Nested graphs (If branches, Loop bodies, Scan bodies) are :class:`GraphInfo` objects
under the node that holds them; a value read inside a nested graph counts, for the graph
that defines it, as read by the node that holds the nested graph.

Values are numbered (``seq``) in the order in which the script compiler names values (graph
inputs, then each node's outputs followed by its nested graphs), and candidate names are
handed out in that order, so the first value of a variable keeps its exact name when the
translated script is compiled again.
"""

from __future__ import annotations

import keyword
from collections.abc import Sequence

import onnx

from onnxscript.errors import TranslationError
from onnxscript.reverse.identifiers import NameAllocator

__all__ = ["GraphInfo", "NodeInfo", "Reader", "TranslationError", "Val", "Var"]

_GRAPH = onnx.AttributeProto.GRAPH
_GRAPHS = onnx.AttributeProto.GRAPHS
# Standard ops with graph attributes (nodes of other domains are always inspected).
_GRAPH_OPS = frozenset({"If", "Loop", "Scan", "SequenceMap"})
_KEYWORDS = frozenset(keyword.kwlist)


class Var:
    """A Python variable: the values it holds, in program order of assignment."""

    __slots__ = ("members", "name", "root")

    def __init__(self, first: Val) -> None:
        self.members: list[Val] = [first]
        self.root: Val = first
        self.name = ""


class Val:
    """One ONNX value."""

    __slots__ = (
        "cand",
        "depth",
        "graph",
        "index",
        "is_output",
        "last_use",
        "name",
        "nested_last",
        "node",
        "py",
        "seq",
        "slot",
        "type",
        "uses",
        "var",
    )

    def __init__(
        self,
        name: str,
        cand: str,
        seq: int,
        graph: GraphInfo,
        node: NodeInfo | None,
        slot: int,
        index: int,
    ) -> None:
        self.name = name
        self.cand = cand
        self.seq = seq
        self.graph = graph
        self.depth = graph.depth
        self.node = node
        self.slot = slot
        self.index = index
        self.uses = 0  # reads by nodes (graph outputs are counted in is_output)
        self.is_output = 0
        self.last_use = -1
        self.nested_last = -1  # last position of a read from inside a nested graph
        self.var: Var | None = None
        self.py = cand  # the Python name (naming changes it for values that share one)
        self.type: onnx.TypeProto | None = None

    def __repr__(self) -> str:
        return f"Val({self.name!r})"


class NodeInfo:
    """One node (or an initializer, as a pseudo ``Constant`` node with ``tensor`` set)."""

    __slots__ = (
        "attributes",
        "domain",
        "form",
        "graphs",
        "index",
        "inputs",
        "op_type",
        "outputs",
        "plan",
        "proto",
        "tensor",
    )

    def __init__(
        self,
        proto: onnx.NodeProto | None,
        op_type: str,
        domain: str,
        index: int,
        attributes: Sequence[onnx.AttributeProto] = (),
    ) -> None:
        self.proto = proto
        self.attributes = attributes  # the proto's (read once: each read of it is slow)
        self.op_type = op_type
        self.domain = domain
        self.index = index
        self.inputs: list[Val | None] = []
        self.outputs: tuple[Val | None, ...] = ()  # set once, when they are read
        self.graphs: tuple[tuple[str, GraphInfo], ...] = ()
        self.form = 0
        self.plan: object = None
        self.tensor: onnx.TensorProto | onnx.SparseTensorProto | None = None

    def constant_tensor(self) -> onnx.TensorProto | onnx.SparseTensorProto | None:
        """The tensor of an initializer, or of a ``Constant`` node set by its ``value``
        attribute; None for any other node."""
        if self.op_type != "Constant" or self.domain:
            return None
        if self.tensor is not None:
            return self.tensor
        if len(self.attributes) != 1:
            return None
        attr = self.attributes[0]
        return attr.t if attr.name == "value" and not attr.ref_attr_name else None

    def graph(self, attr: str) -> GraphInfo | None:
        for name, g in self.graphs:
            if name == attr:
                return g
        return None


class GraphInfo:
    """A graph (or function body): inputs, nodes in order, outputs."""

    __slots__ = (
        "control",
        "depth",
        "doc",
        "func_name",
        "inputs",
        "name",
        "nodes",
        "outputs",
        "parent",
        "proto",
    )

    def __init__(
        self, name: str, depth: int, parent: NodeInfo | None, proto: onnx.GraphProto | None
    ) -> None:
        self.name = name
        self.depth = depth
        self.parent = parent
        self.proto = proto
        self.inputs: list[Val] = []
        self.outputs: list[Val] = []
        self.nodes: list[NodeInfo] = []
        self.control: list[NodeInfo] = []  # the nodes that have nested graphs, in order
        self.func_name = ""
        self.doc = ""


class Reader:
    """Builds :class:`GraphInfo` trees, resolving names through nested scopes."""

    def __init__(self, names: NameAllocator) -> None:
        self.names = names
        self.scope: dict[str, Val] = {}
        self.positions: list[int] = []
        self.seq = 0
        self.subgraphs: list[GraphInfo] = []
        self.values: list[Val] = []
        self.domains: set[str] = set()
        self.calls: set[tuple[str, str]] = set()

    def _new(
        self, name: str, graph: GraphInfo, node: NodeInfo | None, slot: int, index: int
    ) -> Val:
        self.seq += 1
        val = Val(name, self.names.take(name), self.seq, graph, node, slot, index)
        self.values.append(val)
        return val

    def _define(self, val: Val, shadowed: list[tuple[str, Val | None]]) -> None:
        shadowed.append((val.name, self.scope.get(val.name)))
        self.scope[val.name] = val

    def _use(self, name: str, count: int = 1) -> Val:
        val = self.scope.get(name)
        if val is None:
            raise TranslationError(f"the value {name!r} is read but never defined")
        val.uses += count
        depth = val.depth
        pos = self.positions[depth]
        if pos > val.last_use:
            val.last_use = pos
        if depth + 1 < len(self.positions) and pos > val.nested_last:
            val.nested_last = pos
        return val

    def read_graph(
        self,
        name: str,
        inputs: Sequence[tuple[str, onnx.TypeProto | None]],
        nodes: Sequence[onnx.NodeProto],
        outputs: Sequence[str],
        initializers: Sequence[onnx.TensorProto] = (),
        sparse_initializers: Sequence[onnx.SparseTensorProto] = (),
        parent: NodeInfo | None = None,
        proto: onnx.GraphProto | None = None,
    ) -> GraphInfo:
        """Read one graph; its nested graphs are read where their nodes are.

        (A failure leaves the reader unusable; it is discarded with the translation.)
        """
        depth = len(self.positions)
        graph = GraphInfo(name, depth, parent, proto)
        shadowed: list[tuple[str, Val | None]] = []
        self.positions.append(-1)
        scope = self.scope
        graph_inputs = graph.inputs
        for in_name, in_type in inputs:
            val = self._new(in_name, graph, None, 0, -1)
            val.type = in_type
            graph_inputs.append(val)
            shadowed.append((in_name, scope.get(in_name)))
            scope[in_name] = val
        index = 0
        if initializers:
            input_names = {v.name for v in graph_inputs}
            for tensor in initializers:
                if tensor.name in input_names:
                    continue  # an input with a default value: the input wins
                index = self._pseudo_constant(graph, tensor.name, tensor, index, shadowed)
        for sparse in sparse_initializers:
            index = self._pseudo_constant(graph, sparse.values.name, sparse, index, shadowed)
        index = self._read_nodes(graph, nodes, index, shadowed)
        self.positions[depth] = index
        graph_outputs = graph.outputs
        for out_name in outputs:
            val = self._use(out_name, 0)
            val.is_output += 1
            graph_outputs.append(val)
        self.positions.pop()
        for vname, old in reversed(shadowed):
            if old is None:
                del scope[vname]
            else:
                scope[vname] = old
        return graph

    def _pseudo_constant(
        self,
        graph: GraphInfo,
        name: str,
        tensor: onnx.TensorProto | onnx.SparseTensorProto,
        index: int,
        shadowed: list[tuple[str, Val | None]],
    ) -> int:
        info = NodeInfo(None, "Constant", "", index)
        info.tensor = tensor
        self.domains.add("")
        self.positions[graph.depth] = index
        val = self._new(name, graph, info, 0, index)
        info.outputs = (val,)
        graph.nodes.append(info)
        self._define(val, shadowed)
        return index + 1

    def _read_nodes(
        self,
        graph: GraphInfo,
        nodes: Sequence[onnx.NodeProto],
        index: int,
        shadowed: list[tuple[str, Val | None]],
    ) -> int:
        """Read the nodes of ``graph``: the hot loop of reading, with inputs and outputs
        resolved inline (see :meth:`_read_outputs` for the general case of outputs)."""
        scope = self.scope
        positions = self.positions
        depth = graph.depth
        nested = depth > 0  # names defined in nested graphs go out of scope at their end
        graph_nodes = graph.nodes
        values = self.values
        used = self.names.used
        seq = self.seq
        for node in nodes:
            op_type = node.op_type
            domain = node.domain
            if domain:
                if domain == "ai.onnx":
                    domain = ""
                else:
                    self.domains.add(domain)
                    self.calls.add((domain, op_type))
            attributes = node.attribute or ()  # (the empty container is not kept)
            info = NodeInfo(node, op_type, domain, index, attributes)
            inputs = info.inputs
            try:
                for in_name in node.input[:]:
                    if not in_name:
                        inputs.append(None)
                        continue
                    val = scope[in_name]
                    val.uses += 1
                    if val.depth == depth:
                        val.last_use = index
                    else:
                        pos = positions[val.depth]
                        if pos > val.last_use:
                            val.last_use = pos
                        if pos > val.nested_last:
                            val.nested_last = pos
                    inputs.append(val)
            except KeyError as exc:
                raise TranslationError(
                    f"{op_type} reads the value {exc.args[0]!r}, which nothing defines"
                ) from None
            if inputs and inputs[-1] is None:
                while inputs and inputs[-1] is None:
                    inputs.pop()
            out_names = node.output[:]
            out_name = out_names[0] if len(out_names) == 1 else ""
            if (
                out_name
                and out_name not in used
                and out_name.isidentifier()
                and out_name.isascii()
                and out_name not in _KEYWORDS
                and out_name[:2] != "__"
            ):
                # One output with a free plain name: the common case, inlined.
                used.add(out_name)
                seq += 1
                val = Val(out_name, out_name, seq, graph, info, 0, index)
                values.append(val)
                info.outputs = (val,)
                if nested:
                    shadowed.append((out_name, scope.get(out_name)))
                scope[out_name] = val
            else:
                seq = self._read_outputs(info, out_names, graph, seq, shadowed if nested else None)
            if attributes and (domain or op_type in _GRAPH_OPS):
                positions[depth] = index
                self.seq = seq
                self._read_graph_attributes(info, attributes)
                seq = self.seq
                if info.graphs:
                    graph.control.append(info)
            graph_nodes.append(info)
            index += 1
        self.seq = seq
        return index

    def _read_outputs(
        self,
        info: NodeInfo,
        names: Sequence[str],
        graph: GraphInfo,
        seq: int,
        shadowed: list[tuple[str, Val | None]] | None,
    ) -> int:
        """Define the outputs of ``info`` (``shadowed`` records what nested names hide);
        returns the last value number used."""
        scope = self.scope
        outs: list[Val | None] = []
        index = info.index
        for slot, out_name in enumerate(names):
            if not out_name:
                outs.append(None)
                continue
            seq += 1
            val = Val(out_name, self.names.take(out_name), seq, graph, info, slot, index)
            self.values.append(val)
            outs.append(val)
            if shadowed is not None:
                shadowed.append((out_name, scope.get(out_name)))
            scope[out_name] = val
        while outs and outs[-1] is None:
            outs.pop()
        info.outputs = tuple(outs)
        return seq

    def _read_graph_attributes(
        self, info: NodeInfo, attributes: Sequence[onnx.AttributeProto]
    ) -> None:
        """Read the graphs among a node's ``attributes`` as nested graphs of ``info``."""
        graphs = []
        for attr in attributes:
            kind = attr.type
            if kind == _GRAPH:
                graphs.append((attr.name, self.read_subgraph(attr.g, info)))
            elif kind == _GRAPHS:
                raise TranslationError(
                    f"{info.op_type} has a list-of-graphs attribute {attr.name!r}, which "
                    "scripts cannot express"
                )
        info.graphs = tuple(graphs)

    def read_subgraph(self, g: onnx.GraphProto, parent: NodeInfo) -> GraphInfo:
        initializers = g.initializer
        sparse = g.sparse_initializer
        sub = self.read_graph(
            g.name,
            [(i.name, i.type) for i in g.input],
            g.node,
            [o.name for o in g.output],
            initializers if len(initializers) else (),
            sparse if len(sparse) else (),
            parent,
            g,
        )
        sub.doc = g.doc_string
        self.subgraphs.append(sub)
        return sub

    def release(self, graph: GraphInfo) -> None:
        """Break the reference cycles between the values, nodes and graphs read from
        ``graph`` (this reader's): freed by reference counting as soon as the translation
        drops them, instead of by a later garbage collection that has to scan them all."""
        for val in self.values:
            val.node = None
            val.var = None
        for sub in [graph, *self.subgraphs]:
            sub.parent = None
            sub.inputs.clear()
            sub.outputs.clear()
            sub.nodes.clear()
            sub.control.clear()

    def name_subgraphs(self) -> None:
        """Give every nested graph a Python function name (after all values are named, so
        that values keep their names first)."""
        for sub in self.subgraphs:
            sub.func_name = self.names.take(sub.name or "body", default="body")
