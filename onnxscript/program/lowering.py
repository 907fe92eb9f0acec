"""Lowering of the IR to onnx protos: ``GraphProto``, ``FunctionProto`` and ``ModelProto``.

Lowering is a direct, deterministic walk: every value must already carry its final name
(see ``onnxscript.analysis.naming``). Attribute references to function attribute parameters
are kept in functions and replaced by concrete values when a function becomes a model graph.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import onnx
import onnx.helper

from onnxscript.errors import LoweringError
from onnxscript.program.graph import (
    Attr,
    AttrParam,
    Function,
    Graph,
    Node,
    SourceLocation,
    Value,
)
from onnxscript.program.optional_inputs import (
    expressible,
    model_input_type,
    read_optional_inputs,
)
from onnxscript.value_types import OptionalTypeSpec, SequenceTypeSpec, TensorTypeSpec, TypeSpec

_AT = onnx.AttributeProto
_TYPE_SPECS = (TensorTypeSpec, SequenceTypeSpec, OptionalTypeSpec)


def type_to_proto(t: TypeSpec) -> onnx.TypeProto:
    """The ``onnx.TypeProto`` of an IR type."""
    if isinstance(t, TensorTypeSpec):
        proto = onnx.TypeProto()
        tensor = proto.tensor_type
        tensor.elem_type = t.dtype or 0
        if t.shape is not None:
            shape = tensor.shape
            shape.SetInParent()
            for dim in t.shape:
                d = shape.dim.add()
                if isinstance(dim, int):
                    d.dim_value = dim
                elif isinstance(dim, str):
                    d.dim_param = dim
        return proto
    if isinstance(t, SequenceTypeSpec):
        return onnx.helper.make_sequence_type_proto(type_to_proto(t.elem))
    if isinstance(t, OptionalTypeSpec):
        return onnx.helper.make_optional_type_proto(type_to_proto(t.elem))
    raise TypeError(f"not an IR type: {t!r}")


def type_from_proto(proto: onnx.TypeProto) -> TypeSpec | None:
    """The IR type of an ``onnx.TypeProto`` (``None`` when it holds no type)."""
    which = proto.WhichOneof("value")
    if which == "tensor_type":
        tt = proto.tensor_type
        shape: tuple[int | str | None, ...] | None = None
        if tt.HasField("shape"):
            shape = tuple(
                d.dim_value
                if d.HasField("dim_value")
                else (d.dim_param if d.HasField("dim_param") else None)
                for d in tt.shape.dim
            )
        return TensorTypeSpec(tt.elem_type or None, shape)
    if which == "sequence_type":
        elem = type_from_proto(proto.sequence_type.elem_type)
        return SequenceTypeSpec(elem) if elem is not None else None
    if which == "optional_type":
        elem = type_from_proto(proto.optional_type.elem_type)
        return OptionalTypeSpec(elem) if elem is not None else None
    return None


def _value_info(value: Value, t: TypeSpec | None) -> onnx.ValueInfoProto:
    info = onnx.ValueInfoProto()
    info.name = _name(value)
    if t is not None:
        info.type.CopyFrom(type_to_proto(t))
    return info


def _name(value: Value | None) -> str:
    if value is None:
        return ""
    if value.name is None:
        raise LoweringError(f"value {value.hint!r} has not been named")
    return value.name


LOCATION_KEYS = (
    "onnxscript.source.file",
    "onnxscript.source.line",
    "onnxscript.source.column",
    "onnxscript.source.function",
)
"""``metadata_props`` keys of a node's source location (``source_locations=True``): the
file as Python named it, the 1-based line and column, and the script function."""


def _add_location(proto: onnx.NodeProto, location: SourceLocation) -> None:
    for key, value in zip(LOCATION_KEYS, location):
        entry = proto.metadata_props.add()
        entry.key = key
        entry.value = str(value)


class _Lowerer:
    """Lowers graphs, binding attribute references when ``bindings`` is given, and writing
    each node's source location into its ``metadata_props`` when ``locations`` is true."""

    def __init__(
        self,
        bindings: Mapping[str, Any] | None,
        params: Sequence[AttrParam],
        locations: bool = False,
    ) -> None:
        self.bindings = bindings
        self.param_kinds = {p.name: p.kind for p in params}
        self.locations = locations

    def attr(self, attr: Attr) -> onnx.AttributeProto:
        if attr.ref is not None:
            if self.bindings is None:
                proto = onnx.AttributeProto()
                proto.name = attr.name
                proto.ref_attr_name = attr.ref
                proto.type = attr.kind  # type: ignore[assignment]
                return proto
            if attr.ref not in self.bindings:
                raise LoweringError(f"attribute parameter {attr.ref!r} has no value")
            return _make_attribute(attr.name, self.bindings[attr.ref], attr.kind, attr.doc_string)
        value = attr.value
        if attr.kind == _AT.GRAPH:
            value = self.graph(value)
        elif attr.kind == _AT.GRAPHS:
            value = [self.graph(g) for g in value]
        elif attr.kind == _AT.TYPE_PROTO and isinstance(value, _TYPE_SPECS):
            value = type_to_proto(value)
        return _make_attribute(attr.name, value, attr.kind, attr.doc_string)

    def node(self, node: Node) -> onnx.NodeProto:
        proto = onnx.NodeProto()
        proto.op_type = node.op_type
        proto.domain = node.domain
        proto.input.extend(_name(v) for v in node.inputs)
        proto.output.extend(_name(v) for v in node.outputs)
        if node.name:
            proto.name = node.name
        if node.doc_string:
            proto.doc_string = node.doc_string
        if node.overload:
            proto.overload = node.overload
        proto.attribute.extend(self.attr(a) for a in node.attrs)
        if self.locations and node.location is not None:
            _add_location(proto, node.location)
        return proto

    def graph(
        self,
        graph: Graph,
        input_types: Sequence[TypeSpec | None] | None = None,
        output_types: Sequence[TypeSpec | None] | None = None,
    ) -> onnx.GraphProto:
        proto = onnx.GraphProto()
        proto.name = graph.name
        if graph.doc_string:
            proto.doc_string = graph.doc_string
        in_types = input_types or [v.declared_type or v.type for v in graph.inputs]
        out_types = output_types or [v.declared_type or v.type for v in graph.outputs]
        proto.input.extend(_value_info(v, t) for v, t in zip(graph.inputs, in_types))
        proto.output.extend(_value_info(v, t) for v, t in zip(graph.outputs, out_types))
        for value, tensor in graph.initializers:
            init = proto.initializer.add()
            init.CopyFrom(tensor)
            init.name = _name(value)
        proto.node.extend(self.node(n) for n in graph.nodes)
        proto.value_info.extend(
            _value_info(v, v.declared_type or v.type) for v in graph.value_infos
        )
        return proto


def _make_attribute(name: str, value: Any, kind: int, doc_string: str = "") -> onnx.AttributeProto:
    proto = onnx.helper.make_attribute(name, value, attr_type=kind)
    if doc_string:
        proto.doc_string = doc_string
    return proto


def graph_to_proto(graph: Graph) -> onnx.GraphProto:
    """Lower a graph that refers to no attribute parameters."""
    return _Lowerer(None, ()).graph(graph)


def function_to_proto(fn: Function, source_locations: bool = False) -> onnx.FunctionProto:
    """Lower a function, keeping attribute parameters as function attributes."""
    lowerer = _Lowerer(None, fn.attr_params, source_locations)
    proto = onnx.FunctionProto()
    proto.name = fn.name
    proto.domain = fn.domain
    if fn.overload:
        proto.overload = fn.overload
    if fn.doc_string:
        proto.doc_string = fn.doc_string
    proto.input.extend(_name(v) for v in fn.graph.inputs)
    proto.output.extend(_name(v) for v in fn.graph.outputs)
    for param in fn.attr_params:
        if param.has_default and param.default is not None:
            proto.attribute_proto.append(
                _make_attribute(param.name, param.default, param.kind, param.doc_string)
            )
        else:
            proto.attribute.append(param.name)
    proto.node.extend(lowerer.node(n) for n in fn.graph.nodes)
    proto.opset_import.extend(
        onnx.helper.make_opsetid(domain, version) for domain, version in fn.opset_imports.items()
    )
    proto.value_info.extend(_value_info(v, v.declared_type or v.type) for v in fn.graph.value_infos)
    return proto


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


def function_to_model_proto(
    fn: Function,
    *,
    ir_version: int,
    opset_imports: Mapping[str, int] | None = None,
    bindings: Mapping[str, Any] | None = None,
    input_types: Sequence[TypeSpec | None] | None = None,
    output_types: Sequence[TypeSpec | None] | None = None,
    extra_value_infos: Sequence[tuple[str, TypeSpec]] = (),
    model_fields: Mapping[str, Any] | None = None,
    source_locations: bool = False,
) -> onnx.ModelProto:
    """Lower ``fn`` as the main graph of a model that embeds every function it calls.

    Its optional inputs become graph inputs of type ``optional(T)`` where the opset and IR
    version allow (see ``onnxscript.program.optional_inputs``)."""
    lowerer = _Lowerer(bindings or {}, fn.attr_params, source_locations)
    imports = dict(opset_imports) if opset_imports is not None else model_opset_imports(fn)
    optional = fn.optional_inputs if expressible(imports.get("", 0), ir_version) else []
    if optional:
        given = input_types or [v.declared_type or v.type for v in fn.graph.inputs]
        input_types = [
            model_input_type(t) if any(v is o for o in optional) else t
            for v, t in zip(fn.graph.inputs, given)
        ]
    graph = lowerer.graph(fn.graph, input_types, output_types)
    read_optional_inputs(graph, [_name(v) for v in optional])
    if not graph.doc_string and fn.doc_string:
        graph.doc_string = fn.doc_string
    graph.name = fn.name
    for name, t in extra_value_infos:
        info = graph.value_info.add()
        info.name = name
        info.type.CopyFrom(type_to_proto(t))
    model = onnx.helper.make_model(
        graph,
        opset_imports=[onnx.helper.make_opsetid(d, v) for d, v in imports.items()],
        ir_version=ir_version,
        functions=[function_to_proto(f, source_locations) for f in fn.transitive_callees()],
    )
    if model_fields:
        for key, value in model_fields.items():
            setattr(model, key, value)
    return model
