"""Comparing onnx protos up to the names of values and the order of independent nodes.

Two graphs are isomorphic when a one-to-one renaming of values makes them compute the same
thing: inputs and outputs correspond by position, and matching values are produced by nodes
with the same op, domain, overload and attributes from matching inputs. The walk starts at
the outputs and follows producers, so node order does not matter; nested graphs (``If``
branches, ``Loop`` bodies) are matched through the nodes that hold them and may refer to
matching values of the enclosing graphs. Node names, doc strings and value infos are
immaterial, and every node must pair up, also one that no output depends on.

By default the comparison is strict: graph inputs and outputs have equal types (nested
graphs included), floats match bit for bit, models have the same opset imports and
functions, and functions the same name, attribute parameters (with defaults) and opset
imports. In both modes an initializer is not a ``Constant`` node: initializers match
initializers by content (their names, like all value names, do not matter), a graph input's
default value (an initializer of the same name) must be the same, and the initializers
that nothing reads must be the same ones in the same order.

With ``canonical=True`` (what ``python -m onnxscript model.onnx --check`` uses to compare a
model with its translation compiled back) both sides are first put in a canonical form that
removes only differences that do not change results and that scripts cannot spell:

* initializers of nested graphs become ``Constant`` nodes (scripts give initializers only
  to the main graph, through ``to_model_proto(initializers=...)``);
* a ``Loop`` condition that is a constant ``true`` is no condition, and a condition reshaped
  to a scalar (``Reshape(c, [])``, which the compiler adds for ``while`` when it cannot tell
  that the condition is a scalar) is the condition;
* a graph output that is not computed by a node of its graph (an input, an outer value, an
  output listed twice) gets an ``Identity`` (the compiler always adds one);
* unread node outputs lose their names, and nodes whose results are never used are removed
  (initializers are kept);
* the domain ``ai.onnx`` is ``""``, and trailing empty (omitted) inputs are dropped.

The canonical comparison is also looser where the script language decides: types only of
the main graph's inputs and outputs (where the first proto declares one) and element types
of nested graphs' inputs and outputs (where both declare one); floats by value (NaN equals
NaN); of a model's opset imports only the domains its main graph uses, when both import
them; of its functions only that each function of the first is in the second (and equal);
of a function's attribute parameters only their number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import onnx
import onnx.helper
import onnx.numpy_helper

from onnxscript.compiled_patterns import is_scalar_shape, is_true_scalar
from onnxscript.errors import OnnxScriptError
from onnxscript.proto_graphs import named_subgraphs, nested_graphs
from onnxscript.schemas import canonical_domain, imported_versions

ProtoLike = onnx.ModelProto | onnx.FunctionProto | onnx.GraphProto

AT = onnx.AttributeProto

_LIMIT = 20  # differences reported at most (later ones mostly follow from earlier ones)
_PATH_STEPS = 12  # steps of a location shown (the ones nearest to the difference)


class Mismatch(OnnxScriptError, AssertionError):
    """The protos are not isomorphic; the message says where they differ."""


def differences(a: ProtoLike, b: ProtoLike, *, canonical: bool = False) -> list[str]:
    """Where ``a`` and ``b`` differ beyond value names and independent node order (empty
    when they are isomorphic); see the module docstring for ``canonical``."""
    if isinstance(a, onnx.FunctionProto) and isinstance(b, onnx.FunctionProto):
        return _function_differences(a, b, canonical)
    if (
        isinstance(a, onnx.FunctionProto)
        or isinstance(b, onnx.FunctionProto)
        or (type(a) is not type(b) and not canonical)  # canonically, a model's graph is fine
    ):
        return [f"cannot compare a {type(a).__name__} with a {type(b).__name__}"]
    found: list[str] = []
    where = "graph"
    if isinstance(a, onnx.ModelProto) and isinstance(b, onnx.ModelProto):
        used = _used_domains(a.graph) if canonical else None
        found += _opset_differences("model", a.opset_import, b.opset_import, used)
        where = "model graph"
    graph_a = a.graph if isinstance(a, onnx.ModelProto) else a
    graph_b = b.graph if isinstance(b, onnx.ModelProto) else b
    found += _Matcher(canonical).compare(
        _tree(graph_a, canonical), _tree(graph_b, canonical), _At(None, where)
    )
    if isinstance(a, onnx.ModelProto) and isinstance(b, onnx.ModelProto):
        found += _model_function_differences(a, b, canonical)
    return found


def is_isomorphic(a: ProtoLike, b: ProtoLike, *, canonical: bool = False) -> bool:
    """Whether ``a`` and ``b`` are isomorphic (:func:`differences` finds nothing)."""
    return not differences(a, b, canonical=canonical)


def assert_isomorphic(a: ProtoLike, b: ProtoLike, *, canonical: bool = False) -> None:
    """Raise :class:`Mismatch` (an ``AssertionError``) unless ``a`` and ``b`` are the same
    model, function or graph up to value names and the order of independent nodes."""
    found = differences(a, b, canonical=canonical)
    if len(found) == 1:
        raise Mismatch(found[0])
    if found:
        raise Mismatch(f"{len(found)} differences:\n" + "\n".join(f"  {d}" for d in found))


def assert_isomorphic_function(
    a: onnx.FunctionProto, b: onnx.FunctionProto, *, canonical: bool = False
) -> None:
    """:func:`assert_isomorphic` for two ``FunctionProto`` objects, also up to the functions'
    own names and domains (the 0.7 name; its tests compare a function with a differently
    named hand-written version)."""
    _expect(onnx.FunctionProto, a, b)
    renamed = onnx.FunctionProto()
    renamed.CopyFrom(b)
    renamed.name, renamed.domain, renamed.overload = a.name, a.domain, a.overload
    assert_isomorphic(a, renamed, canonical=canonical)


def assert_isomorphic_graph(
    a: onnx.GraphProto, b: onnx.GraphProto, *, canonical: bool = False
) -> None:
    """:func:`assert_isomorphic` for two ``GraphProto`` objects (the 0.7 name)."""
    _expect(onnx.GraphProto, a, b)
    assert_isomorphic(a, b, canonical=canonical)


def _expect(kind: type, a: object, b: object) -> None:
    for value in (a, b):
        if not isinstance(value, kind):
            raise TypeError(f"expected two {kind.__name__} objects, got {type(value).__name__}")


# -- locations --------------------------------------------------------------------------------


@dataclass(slots=True)
class _At:
    """A place in the walk: the steps from a graph output back to a value. Kept as a chain
    and turned into text only for a difference (most places never need one)."""

    parent: _At | None
    step: str

    def then(self, step: str) -> _At:
        return _At(self, step)

    def __str__(self) -> str:
        steps: list[str] = []
        at: _At | None = self
        while at is not None:
            steps.append(at.step)
            at = at.parent
        steps.reverse()
        if len(steps) > _PATH_STEPS:
            steps = [steps[0], " ...", *steps[-_PATH_STEPS:]]
        return "".join(steps)


# -- reading protos into a small tree ---------------------------------------------------------


@dataclass(eq=False)
class _Node:
    """A node read out of its proto once (protobuf wrappers have no stable identity)."""

    op_type: str
    domain: str
    overload: str
    inputs: list[str]
    outputs: list[str]
    attrs: dict[str, onnx.AttributeProto]
    graphs: dict[str, _Graph] = field(default_factory=dict)
    initializer: bool = False  # an initializer, read as a Constant node


@dataclass(eq=False)
class _Graph:
    inputs: list[str]
    input_types: list[onnx.TypeProto | None]  # None: the proto has no types (functions)
    outputs: list[str]
    output_types: list[onnx.TypeProto | None]
    parent: _Graph | None
    nodes: list[_Node] = field(default_factory=list)
    producers: dict[str, tuple[_Node, int]] = field(default_factory=dict)
    positions: dict[str, int] = field(default_factory=dict)  # input name -> its index
    defaults: dict[int, onnx.TensorProto] = field(default_factory=dict)  # input index -> value

    def owner(self, name: str) -> _Graph | None:
        """The graph (this one or an enclosing one) that defines ``name``."""
        graph: _Graph | None = self
        while graph is not None:
            if name in graph.positions or name in graph.producers:
                return graph
            graph = graph.parent
        return None

    def producer(self, name: str) -> tuple[_Node, int] | None:
        owner = self.owner(name)
        return None if owner is None else owner.producers.get(name)


def _tree(proto: onnx.GraphProto | onnx.FunctionProto, canonical: bool) -> _Graph:
    if isinstance(proto, onnx.FunctionProto):
        graph = _read(
            proto.node,
            list(proto.input),
            [None] * len(proto.input),
            list(proto.output),
            [None] * len(proto.output),
            (),
            (),
            None,
            canonical,
        )
    else:
        graph = _read_graph(proto, None, canonical)
    if canonical:
        _canonical_loops(graph)
        _prune(graph)
    return graph


def _read_graph(graph: onnx.GraphProto, parent: _Graph | None, canonical: bool) -> _Graph:
    return _read(
        graph.node,
        [i.name for i in graph.input],
        [i.type for i in graph.input],
        [o.name for o in graph.output],
        [o.type for o in graph.output],
        graph.initializer,
        graph.sparse_initializer,
        parent,
        canonical,
    )


def _read(
    nodes: Iterable[onnx.NodeProto],
    inputs: list[str],
    input_types: list[onnx.TypeProto | None],
    outputs: list[str],
    output_types: list[onnx.TypeProto | None],
    initializers: Iterable[onnx.TensorProto],
    sparse_initializers: Iterable[onnx.SparseTensorProto],
    parent: _Graph | None,
    canonical: bool,
) -> _Graph:
    graph = _Graph(inputs, input_types, outputs, output_types, parent)
    for i, name in enumerate(inputs):
        graph.positions.setdefault(name, i)
    # Scripts can only give the main graph initializers: canonically, those of nested graphs
    # are Constant nodes.
    kept = not canonical or parent is None
    for tensor in initializers:
        position = graph.positions.get(tensor.name)
        if position is not None:  # an initializer named like an input is its default value
            graph.defaults[position] = tensor
        else:
            graph.nodes.append(_constant(tensor.name, "value", tensor, kept))
    for sparse in sparse_initializers:
        if sparse.values.name not in graph.positions:
            graph.nodes.append(_constant(sparse.values.name, "sparse_value", sparse, kept))
    graph.nodes += (_read_node(node, graph, canonical) for node in nodes)
    for item in graph.nodes:
        for k, name in enumerate(item.outputs):
            if name:
                graph.producers[name] = (item, k)
    if canonical:
        _identities_for_outputs(graph)
    return graph


def _constant(
    name: str,
    attribute: str,
    value: onnx.TensorProto | onnx.SparseTensorProto,
    initializer: bool,
) -> _Node:
    """An initializer as a node (``initializer`` tells it from a ``Constant`` node)."""
    attr = onnx.helper.make_attribute(attribute, value)
    return _Node("Constant", "", "", [], [name], {attribute: attr}, initializer=initializer)


def _read_node(node: onnx.NodeProto, graph: _Graph, canonical: bool) -> _Node:
    inputs = list(node.input)
    domain = node.domain
    if canonical:
        while inputs and not inputs[-1]:
            inputs.pop()
        domain = canonical_domain(domain)
    attrs = {a.name: a for a in node.attribute}
    item = _Node(node.op_type, domain, node.overload, inputs, list(node.output), attrs)
    for key, sub in named_subgraphs(node):
        item.graphs[key] = _read_graph(sub, graph, canonical)
    return item


# -- the canonical form -------------------------------------------------------------------------


def _identities_for_outputs(graph: _Graph) -> None:
    """Outputs not computed by a node of ``graph`` (or listed twice) get an ``Identity``."""
    seen: set[str] = set()
    for k, name in enumerate(graph.outputs):
        if name not in graph.producers or name in seen:
            new = f"{name}\x00identity{k}"
            identity = _Node("Identity", "", "", [name], [new], {})
            graph.nodes.append(identity)
            graph.producers[new] = (identity, 0)
            graph.outputs[k] = new
        seen.add(name)


def _canonical_loops(graph: _Graph) -> None:
    """A constant-true ``Loop`` condition is no condition; a condition reshaped to a scalar
    is the condition. (Run once the whole tree is read, so that outer values resolve.)"""
    for node in graph.nodes:
        for sub in node.graphs.values():
            _canonical_loops(sub)
        if node.op_type != "Loop" or node.domain or len(node.inputs) < 2 or not node.inputs[1]:
            continue
        found = graph.producer(node.inputs[1])
        if found is not None and _is_scalar_reshape(graph, found[0]):
            node.inputs[1] = found[0].inputs[0]
            found = graph.producer(node.inputs[1])
        if found is not None and _is_constant_true(found[0]):
            node.inputs[1] = ""


def _is_scalar_reshape(graph: _Graph, node: _Node) -> bool:
    if node.op_type != "Reshape" or node.domain or len(node.inputs) != 2 or node.attrs:
        return False
    found = graph.producer(node.inputs[1])
    if found is None or found[0].op_type != "Constant" or "value" not in found[0].attrs:
        return False
    return is_scalar_shape(found[0].attrs["value"].t)


def _is_constant_true(node: _Node) -> bool:
    if node.op_type != "Constant" or node.domain or "value" not in node.attrs:
        return False
    return is_true_scalar(node.attrs["value"].t)


def _prune(root: _Graph) -> None:
    """Remove nodes whose results nobody uses (until none is left) and unread output names."""
    while True:
        used: set[str] = set()
        _collect_used(root, used)
        if not _prune_graph(root, used):
            return


def _collect_used(graph: _Graph, used: set[str]) -> None:
    used.update(graph.outputs)
    for node in graph.nodes:
        used.update(node.inputs)
        for sub in node.graphs.values():
            _collect_used(sub, used)


def _prune_graph(graph: _Graph, used: set[str]) -> bool:
    changed = False
    kept = []
    for node in graph.nodes:
        # A node without outputs (only effects, if any) is kept: nothing can read it; an
        # initializer is part of the model's interface.
        if (
            node.outputs
            and not node.initializer
            and not any(name in used for name in node.outputs if name)
        ):
            changed = True
            continue
        node.outputs = [name if name in used else "" for name in node.outputs]
        while node.outputs and not node.outputs[-1]:
            node.outputs.pop()
        kept.append(node)
        for sub in node.graphs.values():
            changed |= _prune_graph(sub, used)
    graph.nodes = kept
    return changed


def _used_domains(graph: onnx.GraphProto) -> set[str]:
    """The domains of the nodes of ``graph`` and its nested graphs (``""`` also when it has
    initializers, which read as ``Constant`` nodes)."""
    used: set[str] = set()
    for sub in nested_graphs(graph):
        if sub.initializer or sub.sparse_initializer:
            used.add("")
        used.update(canonical_domain(node.domain) for node in sub.node)
    return used


# -- attribute values -------------------------------------------------------------------------


def _same_floats(xs: Sequence[float], ys: Sequence[float], exact: bool) -> bool:
    """Equal float32 values: bit for bit when ``exact``, else by value with NaN equal to
    NaN."""
    if len(xs) != len(ys):
        return False
    if exact:
        return bool(
            np.asarray(xs, dtype=np.float32).tobytes() == np.asarray(ys, dtype=np.float32).tobytes()
        )
    return all(x == y or (math.isnan(x) and math.isnan(y)) for x, y in zip(xs, ys))


def _same_tensor(a: onnx.TensorProto, b: onnx.TensorProto, exact: bool) -> bool:
    """Equal element type, shape and contents (the names do not matter). Tensors stored
    outside the proto are equal when they refer to the same data."""
    if a.data_type != b.data_type or list(a.dims) != list(b.dims):
        return False
    if onnx.TensorProto.EXTERNAL in (a.data_location, b.data_location):
        return a.data_location == b.data_location and _external(a) == _external(b)
    if a.data_type == onnx.TensorProto.STRING:  # bytes as stored (they may not be UTF-8)
        return list(a.string_data) == list(b.string_data)
    x, y = onnx.numpy_helper.to_array(a), onnx.numpy_helper.to_array(b)
    if x.tobytes() == y.tobytes():
        return True
    return not exact and x.dtype.kind in "fc" and bool(np.array_equal(x, y, equal_nan=True))


def _external(tensor: onnx.TensorProto) -> dict[str, str]:
    return {entry.key: entry.value for entry in tensor.external_data}


def _same_sparse(a: onnx.SparseTensorProto, b: onnx.SparseTensorProto, exact: bool) -> bool:
    return (
        list(a.dims) == list(b.dims)
        and _same_tensor(a.values, b.values, exact)
        and _same_tensor(a.indices, b.indices, exact)
    )


def _same_attribute(a: onnx.AttributeProto, b: onnx.AttributeProto, exact: bool) -> bool:
    """Equal values of two attributes that are not graphs (those are matched as graphs)."""
    if a.type != b.type or a.ref_attr_name != b.ref_attr_name:
        return False
    if a.ref_attr_name:
        return True
    kind = a.type
    if kind == AT.FLOAT:
        return _same_floats([a.f], [b.f], exact)
    if kind == AT.FLOATS:
        return _same_floats(a.floats, b.floats, exact)
    if kind == AT.TENSOR:
        return _same_tensor(a.t, b.t, exact)
    if kind == AT.TENSORS:
        return len(a.tensors) == len(b.tensors) and all(
            _same_tensor(x, y, exact) for x, y in zip(a.tensors, b.tensors)
        )
    if kind == AT.SPARSE_TENSOR:
        return _same_sparse(a.sparse_tensor, b.sparse_tensor, exact)
    if kind == AT.SPARSE_TENSORS:
        return len(a.sparse_tensors) == len(b.sparse_tensors) and all(
            _same_sparse(x, y, exact) for x, y in zip(a.sparse_tensors, b.sparse_tensors)
        )
    value_a = onnx.helper.get_attribute_value(a)
    return bool(value_a == onnx.helper.get_attribute_value(b))


def _attribute_text(attr: onnx.AttributeProto) -> str:
    """An attribute value, short enough for a message."""
    if attr.ref_attr_name:
        return f"a reference to the attribute parameter {attr.ref_attr_name!r}"
    if attr.type == AT.TENSOR:
        return _tensor_text(attr.t)
    if attr.type in (AT.FLOAT, AT.FLOATS):  # float32 values, as short as they read
        if attr.type == AT.FLOAT:
            return str(np.float32(attr.f))
        return f"[{', '.join(str(np.float32(x)) for x in attr.floats)}]"
    text = repr(onnx.helper.get_attribute_value(attr))
    return text if len(text) <= 80 else text[:77] + "..."


def _tensor_text(tensor: onnx.TensorProto) -> str:
    kind = _elem_text(tensor.data_type)
    if tensor.data_location == onnx.TensorProto.EXTERNAL:
        return f"{kind}{list(tensor.dims)} stored outside the model"
    try:
        array = onnx.numpy_helper.to_array(tensor)
    except Exception:
        return f"{kind}{list(tensor.dims)}"
    if array.size <= 8:
        return f"{kind}{list(tensor.dims)} {array.tolist()}"
    return f"{kind}{list(tensor.dims)} of {array.size} elements"


def _elem_text(elem_type: int) -> str:
    try:
        return onnx.helper.tensor_dtype_to_string(elem_type).removeprefix("TensorProto.")
    except Exception:
        return f"element type {elem_type}"


def _elem_type(t: onnx.TypeProto) -> int:
    return t.tensor_type.elem_type if t.WhichOneof("value") == "tensor_type" else 0


def _type_text(t: onnx.TypeProto) -> str:
    kind = t.WhichOneof("value")
    if kind is None:
        return "no type"
    if kind == "tensor_type":
        tensor = t.tensor_type
        text = _elem_text(tensor.elem_type) if tensor.elem_type else "tensor"
        if tensor.HasField("shape"):
            text += f"[{', '.join(_dim_text(d) for d in tensor.shape.dim)}]"
        return text
    if kind == "sequence_type":
        return f"sequence of {_type_text(t.sequence_type.elem_type)}"
    if kind == "optional_type":
        return f"optional {_type_text(t.optional_type.elem_type)}"
    return " ".join(str(t).split())


def _dim_text(dim: onnx.TensorShapeProto.Dimension) -> str:
    if dim.HasField("dim_value"):
        return str(dim.dim_value)
    return dim.dim_param or "?"


# -- matching -------------------------------------------------------------------------------------

_Key = tuple[int, str]  # (id of the graph that defines the value, or of None; its name)


def _role(owner: _Graph | None, name: str) -> str:
    """What a value is, for messages."""
    if owner is None:
        return "defined nowhere"
    if name in owner.positions:
        return f"input {owner.positions[name]}"
    node, k = owner.producers[name]
    return "an initializer" if node.initializer else f"output {k} of {node.op_type}"


def _op_text(node: _Node) -> str:
    if node.initializer:
        return "an initializer"
    overload = f":{node.overload}" if node.overload else ""
    return f"{node.domain or 'ai.onnx'}.{node.op_type}{overload}"


def _arity_difference(a: _Graph | _Node, b: _Graph | _Node) -> str:
    """The numbers of inputs and outputs, when they differ (else "")."""
    if len(a.inputs) == len(b.inputs) and len(a.outputs) == len(b.outputs):
        return ""
    return (
        f"{len(a.inputs)} inputs and {len(a.outputs)} outputs vs "
        f"{len(b.inputs)} and {len(b.outputs)}"
    )


class _Matcher:
    """Pairs the values and nodes of two trees, walking back from the outputs, and collects
    the differences it meets."""

    def __init__(self, canonical: bool) -> None:
        self.canonical = canonical
        self.found: list[str] = []
        self.a2b: dict[_Key, _Key] = {}
        self.b2a: dict[_Key, _Key] = {}
        self.nodes: dict[int, _Node] = {}  # id of a node of the first tree -> its partner
        self.matched_b: set[int] = set()
        self.graphs: dict[int, _Graph] = {}  # id of a graph of the first tree -> its partner
        self.pairs: list[tuple[_Graph, _Graph, _At]] = []
        self.work: list[tuple[_Graph, str, _Graph, str, _At]] = []

    def fail(self, at: _At, message: str) -> None:
        self.found.append(f"{at}: {message}")

    def compare(self, a: _Graph, b: _Graph, at: _At) -> list[str]:
        self.pair_graphs(a, b, at, nested=False)
        while self.work and len(self.found) < _LIMIT:
            self.value(*self.work.pop())
        if not self.found:
            self.check_all_nodes_matched()
        return self.found

    def pair_graphs(self, a: _Graph, b: _Graph, at: _At, nested: bool) -> None:
        self.graphs[id(a)] = b
        self.pairs.append((a, b, at))
        arity = _arity_difference(a, b)
        if arity:
            self.fail(at, arity)
            return
        for k, (x, y) in enumerate(zip(a.inputs, b.inputs)):
            self.compare_types(a.input_types[k], b.input_types[k], nested, at, f"input {k}")
            self.compare_default(a.defaults.get(k), b.defaults.get(k), at.then(f" input {k}"))
            self.bind(a, x, b, y, at.then(f" input {k}"))
        for k, (x, y) in enumerate(zip(a.outputs, b.outputs)):
            self.compare_types(a.output_types[k], b.output_types[k], nested, at, f"output {k}")
            self.work.append((a, x, b, y, at.then(f" output {k}")))

    def compare_types(
        self,
        ta: onnx.TypeProto | None,
        tb: onnx.TypeProto | None,
        nested: bool,
        at: _At,
        what: str,
    ) -> None:
        if ta is None or tb is None:
            return
        if self.canonical and nested:
            ea, eb = _elem_type(ta), _elem_type(tb)
            if ea and eb and ea != eb:
                self.fail(at, f"{what} element types differ: {_elem_text(ea)} vs {_elem_text(eb)}")
        elif ta != tb and (not self.canonical or ta.WhichOneof("value") is not None):
            self.fail(at, f"{what} types differ: {_type_text(ta)} vs {_type_text(tb)}")

    def compare_default(
        self, da: onnx.TensorProto | None, db: onnx.TensorProto | None, at: _At
    ) -> None:
        """An input's default value (an initializer of the same name)."""
        if da is None and db is None:
            return
        if da is None or db is None:
            texts = ["no default" if d is None else f"default {_tensor_text(d)}" for d in (da, db)]
            self.fail(at, f"{texts[0]} vs {texts[1]}")
        elif not _same_tensor(da, db, exact=not self.canonical):
            self.fail(at, f"default values differ: {_tensor_text(da)} vs {_tensor_text(db)}")

    def bind(self, oa: _Graph | None, x: str, ob: _Graph | None, y: str, at: _At) -> bool:
        """Pair value ``x`` (defined in ``oa``) with ``y`` (defined in ``ob``); whether the
        pair is new. A value already paired with another one is a difference."""
        ka, kb = (id(oa), x), (id(ob), y)
        pa, pb = self.a2b.get(ka), self.b2a.get(kb)
        if pa is None and pb is None:
            self.a2b[ka] = kb
            self.b2a[kb] = ka
            return True
        if pa is not None and pa != kb:
            self.fail(
                at,
                f"{x!r} ({_role(oa, x)}) corresponds to {pa[1]!r} elsewhere, "
                f"but to {y!r} ({_role(ob, y)}) here",
            )
        elif pb is not None and pb != ka:
            self.fail(
                at,
                f"{y!r} ({_role(ob, y)}) corresponds to {pb[1]!r} elsewhere, "
                f"but to {x!r} ({_role(oa, x)}) here",
            )
        return False

    def value(self, ga: _Graph, x: str, gb: _Graph, y: str, at: _At) -> None:
        """Match value ``x`` read in ``ga`` with ``y`` read in ``gb``."""
        if not x or not y:
            if x or y:
                self.fail(at, f"one side omits a value the other gives ({x!r} vs {y!r})")
            return
        oa, ob = ga.owner(x), gb.owner(y)
        if not self.bind(oa, x, ob, y, at):
            return
        if oa is None or ob is None:
            if oa is not ob:
                self.fail(at, f"{x!r} ({_role(oa, x)}) vs {y!r} ({_role(ob, y)})")
            return  # both come from outside the proto: the pairing is all there is to check
        if self.graphs.get(id(oa)) is not ob:
            self.fail(at, f"{x!r} and {y!r} are defined in graphs that do not correspond")
            return
        if x in oa.positions or y in ob.positions:
            if oa.positions.get(x) != ob.positions.get(y):
                self.fail(at, f"{x!r} is {_role(oa, x)} but {y!r} is {_role(ob, y)}")
            return
        (na, ka), (nb, kb) = oa.producers[x], ob.producers[y]
        if ka != kb:
            self.fail(at, f"{x!r} is {_role(oa, x)} but {y!r} is {_role(ob, y)}")
            return
        self.node(oa, na, ob, nb, at)

    def node(self, ga: _Graph, na: _Node, gb: _Graph, nb: _Node, at: _At) -> None:
        """Match node ``na`` of ``ga`` with ``nb`` of ``gb``, then their graphs and inputs."""
        known = self.nodes.get(id(na))
        if known is not None:
            if known is not nb:
                self.fail(at, f"{na.op_type} nodes do not correspond")
            return
        if id(nb) in self.matched_b:
            self.fail(at, f"a {nb.op_type} node corresponds to two nodes")
            return
        self.nodes[id(na)] = nb
        self.matched_b.add(id(nb))
        if na.initializer != nb.initializer or (na.op_type, na.domain, na.overload) != (
            nb.op_type,
            nb.domain,
            nb.overload,
        ):
            self.fail(at, f"computed by {_op_text(na)} vs {_op_text(nb)}")
            return
        here = at.then(" <- initializer" if na.initializer else f" <- {na.op_type}")
        if not self.same_attributes(na, nb, here):
            return
        for k, (x, y) in enumerate(zip(na.outputs, nb.outputs)):
            if x and y:
                self.bind(ga, x, gb, y, here.then(f" output {k}"))
            elif x or y:
                self.fail(here, f"output {k}: one side omits a value the other gives")
        for name, sub in na.graphs.items():
            self.pair_graphs(sub, nb.graphs[name], here.then(f".{name}"), nested=True)
        for k, (x, y) in enumerate(zip(na.inputs, nb.inputs)):
            self.work.append((ga, x, gb, y, here.then(f" input {k}")))

    def same_attributes(self, na: _Node, nb: _Node, at: _At) -> bool:
        """Whether two nodes of the same op have as many inputs, outputs and the same
        attributes (a differing attribute value is reported, but the walk goes on: the rest
        may still match)."""
        arity = _arity_difference(na, nb)
        if arity:
            self.fail(at, arity)
            return False
        if set(na.attrs) != set(nb.attrs) or set(na.graphs) != set(nb.graphs):
            self.fail(
                at,
                f"attributes {sorted({*na.attrs, *na.graphs})} vs "
                f"{sorted({*nb.attrs, *nb.graphs})}",
            )
            return False
        for name in sorted(na.attrs):
            attr, other = na.attrs[name], nb.attrs[name]
            if attr.type == other.type and attr.type in (AT.GRAPH, AT.GRAPHS):
                continue  # matched as graphs
            if not _same_attribute(attr, other, exact=not self.canonical):
                what = (
                    "initializer value"
                    if na.initializer and nb.initializer
                    else f"attribute {name}"
                )
                self.fail(
                    at, f"{what} differs: {_attribute_text(attr)} vs {_attribute_text(other)}"
                )
        return True

    def check_all_nodes_matched(self) -> None:
        """Nodes the walk did not reach (no output depends on them) must not exist, and the
        initializers nothing reads must be the same, in the same order."""
        for a, b, at in self.pairs:
            left = [n for n in a.nodes if id(n) not in self.nodes]
            right = [n for n in b.nodes if id(n) not in self.matched_b]
            ops_a = [n.op_type for n in left if not n.initializer]
            ops_b = [n.op_type for n in right if not n.initializer]
            if ops_a or ops_b:
                self.fail(at, f"nodes that no output depends on differ: {ops_a} vs {ops_b}")
            unread_a = [n for n in left if n.initializer]
            unread_b = [n for n in right if n.initializer]
            if len(unread_a) != len(unread_b) or not all(
                _same_value(x, y, not self.canonical) for x, y in zip(unread_a, unread_b)
            ):
                self.fail(
                    at,
                    f"initializers that nothing reads differ: {_values_text(unread_a)} vs "
                    f"{_values_text(unread_b)}",
                )


def _same_value(a: _Node, b: _Node, exact: bool) -> bool:
    """Whether two initializers hold the same tensor (or sparse tensor)."""
    (name_a, attr_a), (name_b, attr_b) = next(iter(a.attrs.items())), next(iter(b.attrs.items()))
    return name_a == name_b and _same_attribute(attr_a, attr_b, exact)


def _values_text(nodes: Sequence[_Node]) -> str:
    texts = []
    for node in nodes:
        attr = next(iter(node.attrs.values()))
        texts.append(_tensor_text(attr.t) if attr.type == AT.TENSOR else "a sparse tensor")
    return f"[{', '.join(texts)}]"


# -- models and functions -------------------------------------------------------------------------


def _opset_differences(
    where: str,
    imports_a: Iterable[onnx.OperatorSetIdProto],
    imports_b: Iterable[onnx.OperatorSetIdProto],
    used: set[str] | None,
) -> list[str]:
    """Different opset versions. With ``used`` (canonical mode), only for those domains and
    only where both sides import them; otherwise the imports must be the same."""
    a, b = imported_versions(imports_a), imported_versions(imports_b)
    if used is not None:
        common = used & a.keys() & b.keys()
        a = {d: v for d, v in a.items() if d in common}
        b = {d: v for d, v in b.items() if d in common}
    return [
        f"{where}: opset {d or 'ai.onnx'} {a.get(d, 'not imported')} vs {b.get(d, 'not imported')}"
        for d in sorted(a.keys() | b.keys())
        if a.get(d) != b.get(d)
    ]


def _function_key(fn: onnx.FunctionProto, canonical: bool) -> tuple[str, ...]:
    if canonical:
        return (canonical_domain(fn.domain), fn.name)
    return (fn.domain, fn.name, fn.overload)


def _model_function_differences(
    a: onnx.ModelProto, b: onnx.ModelProto, canonical: bool
) -> list[str]:
    """Functions match by domain and name (and overload); canonically the second model may
    have more functions than the first."""
    funcs_b = {_function_key(f, canonical): f for f in b.functions}
    keys_a = set()
    found = []
    for fa in a.functions:
        key = _function_key(fa, canonical)
        keys_a.add(key)
        fb = funcs_b.get(key)
        if fb is None:
            found.append(f"function {fa.domain}::{fa.name} is missing in the second model")
        else:
            found += _function_differences(fa, fb, canonical)
    if not canonical:
        found += [
            f"function {fb.domain}::{fb.name} is only in the second model"
            for key, fb in funcs_b.items()
            if key not in keys_a
        ]
    return found


def _function_differences(
    fa: onnx.FunctionProto, fb: onnx.FunctionProto, canonical: bool
) -> list[str]:
    where = f"function {fa.name}"
    found = []
    if canonical:
        count_a = len(fa.attribute) + len(fa.attribute_proto)
        count_b = len(fb.attribute) + len(fb.attribute_proto)
        if count_a != count_b:
            found.append(f"{where}: {count_a} attribute parameters vs {count_b}")
    else:
        if (fa.domain, fa.name, fa.overload) != (fb.domain, fb.name, fb.overload):
            found.append(f"{where}: function {fa.domain}::{fa.name} vs {fb.domain}::{fb.name}")
        if list(fa.attribute) != list(fb.attribute):
            found.append(
                f"{where}: attribute parameters {list(fa.attribute)} vs {list(fb.attribute)}"
            )
        found += _default_differences(where, fa.attribute_proto, fb.attribute_proto)
        found += _opset_differences(where, fa.opset_import, fb.opset_import, None)
    found += _Matcher(canonical).compare(
        _tree(fa, canonical), _tree(fb, canonical), _At(None, where)
    )
    return found


def _default_differences(
    where: str, defaults_a: Iterable[onnx.AttributeProto], defaults_b: Iterable[onnx.AttributeProto]
) -> list[str]:
    a = {attr.name: attr for attr in defaults_a}
    b = {attr.name: attr for attr in defaults_b}
    if a.keys() != b.keys():
        return [f"{where}: attributes with defaults {sorted(a)} vs {sorted(b)}"]
    return [
        f"{where}: default of attribute {name} differs: "
        f"{_attribute_text(a[name])} vs {_attribute_text(b[name])}"
        for name in sorted(a)
        if not _same_attribute(a[name], b[name], exact=True)
    ]
