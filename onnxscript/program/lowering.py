"""Lowering of the program IR to onnx_ir: an ``ir.Function`` per compiled function.

Lowering is a direct, deterministic walk: every value must already carry its final name
(see ``onnxscript.analysis.naming``). Attribute references to function attribute parameters
are kept as ``ir.RefAttr``. One lowering per function serves its ``FunctionProto``, its
model (whose main graph is the same body, written with the model's input and output types
and the references bound to values: ``onnxscript.program.serialize``) and the builder's
calls of it. Protos are made from the result only where the API hands one out.

Types are set where a proto records them (and so where deserializing the proto would
set them): graph inputs and outputs, and the values the program lists in a graph's
``value_infos``; a function's own inputs and outputs are untyped. The ``value_infos`` are
also kept in order under :data:`VALUE_INFOS` in the graph's ``meta`` (onnx_ir derives
value infos from the values' types, which loses their order and those of graph outputs).
"""

from __future__ import annotations

import numbers
import weakref
from collections.abc import Mapping, Sequence
from typing import Any, cast

import onnx
import onnx.helper
import onnx_ir as ir

from onnxscript.errors import LoweringError
from onnxscript.program.graph import (
    Attr,
    Function,
    Graph,
    Node,
    Value,
)
from onnxscript.value_types import OptionalTypeSpec, SequenceTypeSpec, TensorTypeSpec, TypeSpec

_AT = onnx.AttributeProto
_TYPE_SPECS = (TensorTypeSpec, SequenceTypeSpec, OptionalTypeSpec)

VALUE_INFOS = "onnxscript.value_infos"
"""``ir.Graph.meta`` key: the graph's value infos in program order (detached ``ir.Value``
objects holding a name, type and shape)."""

LOCATION_KEYS = (
    "onnxscript.source.file",
    "onnxscript.source.line",
    "onnxscript.source.column",
    "onnxscript.source.function",
)
"""``metadata_props`` keys of a node's source location (``source_locations=True``): the
file as Python named it, the 1-based line and column, and the script function."""


class _ElementTypeCode(int):
    """An element type code onnx_ir has no ``DataType`` for (a malformed program read
    from a proto), written back as it was."""

    @property
    def value(self) -> int:
        return int(self)


def _data_type(code: int) -> ir.DataType:
    try:
        return ir.DataType(code)
    except ValueError:
        return cast(ir.DataType, _ElementTypeCode(code))


def type_and_shape(t: TypeSpec | None) -> ir.TypeAndShape:
    """The onnx_ir type of an IR type, and the shape of its tensor (for a sequence or an
    optional, the shape of the tensor inside, where onnx_ir keeps it)."""
    if t is None:
        return ir.TypeAndShape(None, None)
    if isinstance(t, TensorTypeSpec):
        shape = None if t.shape is None else ir.Shape(list(t.shape))
        return ir.TypeAndShape(ir.TensorType(_data_type(t.dtype or 0)), shape)
    if isinstance(t, (SequenceTypeSpec, OptionalTypeSpec)):
        inner = type_and_shape(t.elem)
        assert inner.type is not None
        wrap = ir.SequenceType if isinstance(t, SequenceTypeSpec) else ir.OptionalType
        return ir.TypeAndShape(wrap(inner.type), inner.shape)
    raise TypeError(f"not an IR type: {t!r}")


def _set_type(value: ir.Value, t: TypeSpec | None) -> None:
    found = type_and_shape(t)
    value.type = found.type
    value.shape = found.shape


def detached_value(name: str, t: TypeSpec | None) -> ir.Value:
    """A value that belongs to no graph: a name with a type (for value infos)."""
    found = type_and_shape(t)
    return ir.Value(name=name, type=found.type, shape=found.shape)


def _name(value: Value | None) -> str:
    if value is None:
        return ""
    if value.name is None:
        raise LoweringError(f"value {value.hint!r} has not been named")
    return value.name


def _checked_kind(name: str, value: Any, kind: int) -> None:
    """The check ``onnx.helper.make_attribute`` makes: a single value's own kind must be
    the declared one (lists are taken as declared)."""
    if isinstance(value, numbers.Integral):
        found = _AT.INT
    elif isinstance(value, numbers.Real):
        found = _AT.FLOAT
    elif isinstance(value, (str, bytes)):
        found = _AT.STRING
    elif isinstance(value, onnx.TensorProto):
        found = _AT.TENSOR
    elif isinstance(value, onnx.SparseTensorProto):
        found = _AT.SPARSE_TENSOR
    elif isinstance(value, (ir.Graph, onnx.GraphProto)):
        found = _AT.GRAPH
    elif isinstance(value, (onnx.TypeProto, ir.TypeAndShape, *_TYPE_SPECS)):
        found = _AT.TYPE_PROTO
    elif hasattr(value, "__iter__"):
        return
    else:
        raise TypeError(f"'{value}' is not an accepted attribute value.")
    if found != kind:
        raise TypeError(
            f"attribute {name!r}: a {_AT.AttributeType.Name(found)} value for a "
            f"{_AT.AttributeType.Name(kind)} attribute"
        )


def _text(value: Any) -> Any:
    if isinstance(value, bytes):
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError:
            return value
    return value


def _ir_type_proto(value: Any) -> ir.TypeAndShape:
    if isinstance(value, _TYPE_SPECS):
        return type_and_shape(value)
    return ir.TypeAndShape(
        ir.serde.deserialize_type_proto_for_type(value),
        ir.serde.deserialize_type_proto_for_shape(value),
    )


def make_attribute(name: str, value: Any, kind: int, doc_string: str = "") -> ir.Attr:
    """An ``ir.Attr`` holding ``value`` (Python data or protos) as attribute kind ``kind``,
    with ``onnx.helper.make_attribute``'s check of the value's kind."""
    _checked_kind(name, value, kind)
    if kind == _AT.INT:
        value = int(value)
    elif kind == _AT.FLOAT:
        value = float(value)
    elif kind == _AT.STRING:
        value = _text(value)
    elif kind == _AT.INTS:
        value = [int(v) for v in value]
    elif kind == _AT.FLOATS:
        value = [float(v) for v in value]
    elif kind == _AT.STRINGS:
        value = [_text(v) for v in value]
    elif kind == _AT.TENSOR:
        value = ir.serde.TensorProtoTensor(value)
    elif kind == _AT.TENSORS:
        value = [ir.serde.TensorProtoTensor(t) for t in value]
    elif kind == _AT.TYPE_PROTO:
        value = _ir_type_proto(value)
    elif kind == _AT.TYPE_PROTOS:
        value = [_ir_type_proto(t) for t in value]
    elif kind == _AT.SPARSE_TENSORS:
        value = list(value)
    return ir.Attr(name, ir.AttributeType(kind), value, doc_string=doc_string or None)


def bound_attribute(attr: ir.Attr, bindings: Mapping[str, Any]) -> ir.Attr:
    """The attribute a reference to an attribute parameter (``attr.is_ref()``) stands for
    in a model, where ``bindings`` gives every parameter its value."""
    ref = attr.ref_attr_name or ""
    if ref not in bindings:
        raise LoweringError(f"attribute parameter {ref!r} has no value")
    return make_attribute(attr.name, bindings[ref], attr.type.value, attr.doc_string or "")


class _Lowerer:
    """Lowers graphs, keeping references to attribute parameters as ``ir.RefAttr``, and
    writing each node's source location into its ``metadata_props`` when ``locations`` is
    true.

    ``values`` maps each program value to its ``ir.Value`` (nested graphs read values of
    enclosing graphs directly, in both IRs)."""

    def __init__(self, locations: bool = False) -> None:
        self.locations = locations
        self.values: dict[Value, ir.Value] = {}

    def value(self, value: Value) -> ir.Value:
        found = self.values.get(value)
        if found is None:
            found = self.values[value] = ir.Value(name=_name(value))
        return found

    def attr(self, attr: Attr) -> ir.Attr:
        if attr.ref is not None:
            return ir.RefAttr(
                attr.name, attr.ref, ir.AttributeType(attr.kind), doc_string=attr.doc_string or None
            )
        if attr.kind == _AT.GRAPHS:
            graphs = [self.graph(g) for g in attr.value]
            return ir.Attr(
                attr.name, ir.AttributeType.GRAPHS, graphs, doc_string=attr.doc_string or None
            )
        value = self.graph(attr.value) if attr.kind == _AT.GRAPH else attr.value
        return make_attribute(attr.name, value, attr.kind, attr.doc_string)

    def node(self, node: Node) -> ir.Node:
        inputs = [None if v is None else self.value(v) for v in node.inputs]
        attrs = [self.attr(a) for a in node.attrs]
        outputs = []
        for v in node.outputs:
            out = self.value(v)
            if out.producer() is not None:  # a second definition: the name is what counts
                out = self.values[v] = ir.Value(name=_name(v))
            outputs.append(out)
        metadata = None
        if self.locations and node.location is not None:
            metadata = {k: str(v) for k, v in zip(LOCATION_KEYS, node.location)}
        return ir.Node(
            node.domain,
            node.op_type,
            inputs,
            attrs,
            outputs=outputs,
            overload=node.overload,
            name=node.name or None,
            doc_string=node.doc_string or None,
            metadata_props=metadata,
        )

    def graph(self, graph: Graph, *, typed_io: bool = True) -> ir.Graph:
        """``graph`` in onnx_ir; its inputs and outputs typed with their own types when
        ``typed_io`` (a function's are not)."""
        inputs = [self.value(v) for v in graph.inputs]
        initializers = [self._initializer(v, t) for v, t in graph.initializers]
        nodes = [self.node(n) for n in graph.nodes]
        result = ir.Graph(
            [],
            [],
            nodes=nodes,
            initializers=initializers,
            name=graph.name,
            doc_string=graph.doc_string or None,
        )
        for ir_node, node in zip(result, graph.nodes):
            if not node.name:  # onnx_ir names the nodes it is given; the program's are kept
                ir_node.name = None
        infos = [detached_value(_name(v), v.declared_type or v.type) for v in graph.value_infos]
        result.meta[VALUE_INFOS] = infos
        for v, info in zip(graph.value_infos, infos):
            self.value(v).type, self.value(v).shape = info.type, info.shape
        if not typed_io:
            _add(result.inputs, inputs)
            _add(result.outputs, [self.value(v) for v in graph.outputs])
            return result
        in_types = [v.declared_type or v.type for v in graph.inputs]
        out_types = [v.declared_type or v.type for v in graph.outputs]
        for value, t in zip(_add(result.inputs, inputs), in_types):
            _set_type(value, t)
        outputs = [self.value(v) for v in graph.outputs]
        for value, t in zip(_add(result.outputs, outputs, retype=out_types), out_types):
            _set_type(value, t)
        return result

    def _initializer(self, value: Value, tensor: Any) -> ir.Value:
        result = self.value(value)
        result.const_value = ir.serde.TensorProtoTensor(tensor)
        return result


def _add(
    io: Any, values: Sequence[ir.Value], retype: Sequence[TypeSpec | None] | None = None
) -> list[ir.Value]:
    """Append ``values`` to a graph's inputs or outputs: a value another graph already
    owns (an enclosing graph's input passed through, one value returned by two branches)
    or that would need a second type is stood in for by a value of the same name."""
    added = []
    for i, value in enumerate(values):
        if (
            retype is not None
            and value.is_graph_input()
            and value.type is not None
            and type_and_shape(retype[i]) != ir.TypeAndShape(value.type, value.shape)
        ):
            value = ir.Value(name=value.name)
        try:
            io.append(value)
        except ValueError:
            value = ir.Value(name=value.name, type=value.type, shape=value.shape)
            io.append(value)
        added.append(value)
    return added


_CACHE: weakref.WeakKeyDictionary[Function, ir.Function] = weakref.WeakKeyDictionary()


def lower_function(fn: Function, source_locations: bool = False) -> ir.Function:
    """Lower a function, keeping attribute parameters as function attributes."""
    lowerer = _Lowerer(source_locations)
    graph = lowerer.graph(fn.graph, typed_io=False)
    graph.doc_string = fn.doc_string or None
    graph.opset_imports.update(fn.opset_imports)
    attributes = [
        make_attribute(p.name, p.default, p.kind, p.doc_string)
        if p.has_default and p.default is not None
        else ir.Attr(p.name, ir.AttributeType(p.kind), None)
        for p in fn.attr_params
    ]
    return ir.Function(fn.domain, fn.name, fn.overload, graph=graph, attributes=attributes)


def lowered_function(fn: Function) -> ir.Function:
    """``lower_function(fn)`` (no source locations), lowered once per function: treat it
    as read-only (clone it to change it)."""
    found = _CACHE.get(fn)
    if found is None:
        found = _CACHE[fn] = lower_function(fn)
    return found


def bind_attributes(fn: Function, values: Mapping[str, Any]) -> dict[str, Any]:
    """The value of every attribute parameter: given values first, then defaults.

    Raises ``ValueError`` naming the parameters that have neither.
    """
    known = {p.name for p in fn.attr_params}
    unknown = [k for k in values if k not in known]
    if unknown:
        raise ValueError(f"{fn.name}: unknown attribute parameter(s) {', '.join(unknown)}")
    bound: dict[str, Any] = {}
    missing = []
    for param in fn.attr_params:
        if param.name in values:
            bound[param.name] = values[param.name]
        elif param.has_default:
            bound[param.name] = param.default
        else:
            missing.append(param.name)
    if missing:
        raise ValueError(
            f"{fn.name} has required attribute parameter(s) {', '.join(missing)}; a model "
            f"needs their values: pass them as keywords, e.g. to_model_proto({missing[0]}=...)"
        )
    return bound


def model_opset_imports(fn: Function) -> dict[str, int]:
    """Opset imports of a model whose main graph is ``fn``: its own, then those of callees.

    A domain imported by the main function keeps its version; a domain imported only by
    called functions gets the highest version among them.
    """
    imports = dict(fn.opset_imports)
    extra: dict[str, int] = {}
    for callee in fn.transitive_callees():
        for domain, version in callee.opset_imports.items():
            if domain not in imports:
                extra[domain] = max(version, extra.get(domain, 0))
    imports.update(extra)
    return imports
