"""Facts the builder needs about one op call: its signature, attributes as ``ir.Attr``,
how many outputs, element types the schema fixes, and whether it may be folded."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx
import onnx_ir as ir

from onnxscript.builder.diagnostics import BuilderError
from onnxscript.errors import BindingError
from onnxscript.ir_utils import value_facts
from onnxscript.language import attributes as attr_rules
from onnxscript.language import binding


@functools.lru_cache(maxsize=4096)
def signature(domain: str, op_type: str, version: int) -> binding.Signature:
    """The op's calling convention at ``version`` (free-form when it has no schema)."""
    return binding.signature_for(domain, op_type, version) or binding.free_form(op_type)


@functools.lru_cache(maxsize=4096)
def _since_version(domain: str, op_type: str, version: int) -> int | None:
    try:
        return int(onnx.defs.get_schema(op_type, version, domain).since_version)
    except onnx.defs.SchemaError:
        return None


def check_op_version(domain: str, op_type: str, imported: int, version: int) -> None:
    """Calling an op of ``domain`` at ``version`` in a graph importing ``imported`` is
    fine when onnx defines it with no change in between; anything else is an error (a
    model imports one version per domain)."""
    if version == imported or same_definition(domain, op_type, imported, version):
        return
    raise BuilderError(
        f"{op_type} of opset version {version} differs from {op_type} of version "
        f"{imported}, which the graph imports. "
        f"Use one opset version per domain (build with "
        f"the graph's opset, e.g. builder.op, or give the graph opset_imports "
        f"{{{domain!r}: {version}}})"
    )


def same_definition(domain: str, op_type: str, a: int, b: int) -> bool:
    """Whether ``op_type`` is the same op at opset versions ``a`` and ``b``."""
    found = _since_version(domain, op_type, a)
    return found is not None and found == _since_version(domain, op_type, b)


def attribute(sig: binding.Signature, name: str, value: Any) -> ir.Attr:
    """An attribute of the kind the signature declares (inferred for free-form ops);
    graphs may be ``ir.Graph`` (from ``builder.subgraph``) or ``onnx.GraphProto``."""
    if isinstance(value, ir.Attr):
        return value
    param = sig.attribute_by_name.get(name)
    kind = param.attr_kind if param is not None else _kind(value)
    if kind is None:
        raise TypeError(f"attribute {name}: cannot tell the type of {value!r}")
    if kind == attr_rules.AT.GRAPH:
        return ir.AttrGraph(name, _graph(value, name))
    if kind == attr_rules.AT.GRAPHS:
        return ir.AttrGraphs(name, [_graph(v, name) for v in value])
    if kind == attr_rules.AT.TENSOR and isinstance(value, ir.TensorProtocol):
        return ir.AttrTensor(name, value)
    value = attr_rules.coerce(value, kind)
    if kind == attr_rules.AT.TENSOR:
        value = ir.serde.deserialize_tensor(value)
    elif kind == attr_rules.AT.TYPE_PROTO:
        value = ir.serde.deserialize_type_proto_for_type(value)
    return ir.Attr(name, ir.AttributeType(kind), value)


def _kind(value: Any) -> int | None:
    if isinstance(value, ir.TensorProtocol):
        return int(attr_rules.AT.TENSOR)
    if isinstance(value, (ir.Graph, onnx.GraphProto)):
        return int(attr_rules.AT.GRAPH)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, ir.Graph) for v in value):
        return int(attr_rules.AT.GRAPHS)
    return attr_rules.infer_kind(value)


def _graph(value: Any, name: str) -> ir.Graph:
    if isinstance(value, ir.Graph):
        return value
    if isinstance(value, onnx.GraphProto):
        return ir.serde.deserialize_graph(value)
    raise TypeError(
        f"attribute {name}: expected a graph (builder.subgraph(...)), got {type(value).__name__}"
    )


def named_input_count(
    sig: binding.Signature, args: Sequence[Any], kwargs: Mapping[str, Any]
) -> int:
    """How many input slots a call names, positionally or by keyword, omitted (``None``)
    ones included: ``Attention(q, k, v, None, None, None)`` names six."""
    if sig.free_form:
        return len(args)
    inputs = sig.inputs
    if any(p.variadic for p in inputs):
        return 0
    index = {p.name: i + 1 for i, p in enumerate(inputs)}
    named = [index[p.name] for p, _ in zip(sig.positional_params, args) if p.is_input]
    named.extend(index[key] for key in kwargs if key in index)
    return max(named, default=0)


def checked_output_count(sig: binding.Signature, outputs: int | Sequence[Any]) -> int:
    """How many outputs ``_outputs`` asks for (a count, or names or values); more than
    the op can have is an error (onnx's checker would reject the node)."""
    count = outputs if isinstance(outputs, int) else len(outputs)
    most = None if sig.free_form or not sig.outputs else sig.max_num_outputs()
    if count < 0 or (most is not None and count > most):
        raise ValueError(
            f"_outputs asks for {count} output(s), but {sig.name} has at most {most}"
            if most is not None and count > most
            else f"_outputs must not be negative, got {count}"
        )
    return count


def required_output_count(
    sig: binding.Signature, domain: str, bound: binding.BoundArguments
) -> int:
    """How many outputs an ``op.X(...)`` call of an ``OpBuilder`` gives without
    ``_outputs``: the outputs the schema requires (at least one). One, as onnxscript 0.7
    gives, for most ops (LayerNormalization, Dropout, MaxPool, BatchNormalization, GRU,
    LSTM, ops without a schema); every required one where one output would make an
    invalid node (TopK, DynamicQuantizeLinear, Split with ``num_outputs``, If/Loop/Scan)."""
    if sig.free_form:
        return 1
    if any(o.variadic for o in sig.outputs):
        try:
            return max(1, output_count(sig, domain, None, bound))
        except BindingError:
            return 1
    leading = 0
    for out in sig.outputs:
        if out.optional:
            break
        leading += 1
    return max(1, leading)


def output_count(
    sig: binding.Signature, domain: str, outputs: Any, bound: binding.BoundArguments
) -> int:
    """How many outputs the node has: as many as ``outputs`` names or counts, else every
    output the spec declares for these arguments (as eager calls and torch.onnx give)."""
    if isinstance(outputs, int):
        return outputs
    if outputs is not None:
        return len(outputs)
    given = [p.name for p, v in zip(sig.inputs, bound.inputs, strict=False) if v is not None]
    declared = binding.declared_output_count(sig, domain, bound.attributes, given)
    if declared is not None:
        return declared
    from_body = _count_from_body(sig.name, domain, bound.attributes)
    if from_body is not None:
        return from_body
    return binding.output_count(sig, None, bound.attributes, lambda _g: None)


@functools.lru_cache(maxsize=4096)
def plain_output_count(domain: str, op_type: str, version: int, present: tuple[bool, ...]) -> int:
    """:func:`output_count` of a call without attributes or ``_outputs`` whose inputs are
    given where ``present`` says (the common case, cached)."""
    sig = signature(domain, op_type, version)
    bound = binding.BoundArguments([object() if p else None for p in present], {})
    return output_count(sig, domain, None, bound)


_BODY_OUTPUTS = {"If": ("then_branch", 0), "Loop": ("body", 1), "Scan": ("body", 0)}
"""Control-flow ops: the graph attribute whose outputs give the node's outputs, and how
many of them are not node outputs (Loop's condition)."""


def _count_from_body(op_type: str, domain: str, attributes: Mapping[str, Any]) -> int | None:
    found = _BODY_OUTPUTS.get(op_type) if not domain else None
    if found is None:
        return None
    body = attributes.get(found[0])
    if isinstance(body, ir.Graph):
        return len(body.outputs) - found[1]
    if isinstance(body, onnx.GraphProto):
        return len(body.output) - found[1]
    return None


_DTYPE_ATTRIBUTES = {"Cast": "to", "RandomNormal": "dtype", "RandomUniform": "dtype"}
"""Ops whose output element type an attribute gives."""


def type_from_schema(sig: binding.Signature, node: ir.Node) -> None:
    """Give untyped outputs the element type the schema fixes or ties to an input's (the
    last formal output stands for all outputs of a variadic one)."""
    plan = sig.output_plan
    if not plan:
        return
    attribute_name = _DTYPE_ATTRIBUTES.get(node.op_type) if not node.domain else None
    for index, out in enumerate(node.outputs):
        if out.type is not None:
            continue
        if attribute_name is not None and attribute_name in node.attributes:
            out.dtype = ir.DataType(node.attributes[attribute_name].value)
            continue
        fixed, slots = plan[min(index, len(plan) - 1)]
        if fixed is not None:
            out.dtype = ir.DataType(fixed)
            continue
        dtype = _first_dtype(node.inputs, slots)
        if dtype is not None:
            out.dtype = dtype


def _first_dtype(inputs: Sequence[ir.Value | None], slots: Sequence[int]) -> ir.DataType | None:
    for slot in slots:
        source = inputs[slot] if slot < len(inputs) else None
        if source is not None and source.dtype is not None:
            return source.dtype
    return None


_CONSTANT_FORMS = {
    "value_int": np.int64,
    "value_ints": np.int64,
    "value_float": np.float32,
    "value_floats": np.float32,
}


def keep_constant_value(node: ir.Node) -> None:
    """A Constant node's output holds its tensor (so that later calls can fold it)."""
    tensor: ir.TensorProtocol | None = None
    for name, attr in node.attributes.items():
        if name == "value" and attr.type == ir.AttributeType.TENSOR:
            tensor = attr.value
        elif name in _CONSTANT_FORMS:
            tensor = ir.tensor(np.array(attr.value, dtype=_CONSTANT_FORMS[name]))
    if tensor is not None:
        out = node.outputs[0]
        out.const_value = tensor
        out.dtype = tensor.dtype
        out.shape = ir.Shape(tensor.shape.numpy())


_SHAPE_ONLY = frozenset({"Shape", "Size"})


WEIGHT = "onnxscript.builder.weight"
"""``value.meta`` key marking a weight (``GraphBuilder.register_initializer``): its data is
meant to be replaced, so ops on it are recorded, never computed while building."""


def foldable(node: ir.Node, size_limit: int) -> bool:
    """Whether every input is a constant no bigger than ``size_limit`` elements (for Shape
    and Size, a static shape is enough): a constant as ``ir_utils.value_facts`` says (a
    graph input never is), and not a weight either (a builder's initializer whose data
    is meant to be replaced: only the builder knows it, by ``WEIGHT``). The size limit is
    the builder's own folding limit."""
    if node.domain or not node.inputs:
        return False
    if node.op_type in _SHAPE_ONLY:
        source = node.inputs[0]
        return source is not None and source.shape is not None and source.shape.is_static()
    for value in node.inputs:
        if value is None:
            continue
        tensor = value_facts.constant_tensor(value)  # never a graph input's
        if tensor is None or tensor.size > size_limit or value.meta.get(WEIGHT):
            return False
    return True


__all__ = [
    "WEIGHT",
    "attribute",
    "check_op_version",
    "checked_output_count",
    "foldable",
    "keep_constant_value",
    "named_input_count",
    "output_count",
    "plain_output_count",
    "required_output_count",
    "same_definition",
    "signature",
    "type_from_schema",
]
