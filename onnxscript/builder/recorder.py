"""A tracing evaluator: op calls on symbolic values (``onnx_ir.Value``) become nodes.

Installed as the current evaluator (``evaluator.default_as(recorder)``), it receives every
op and script-function call a traced Python body makes and records it, instead of running
it. Arguments are sorted into inputs and attributes by ``language.binding`` (the
compiler's rule); Python numbers and arrays passed as inputs become ``Constant`` nodes of
the element type the schema binds (``CastLike`` to the partner input when that type is
not known). Outputs get the element type the schema implies; shapes are not inferred here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import onnx_ir as ir

from onnxscript.errors import OnnxScriptError
from onnxscript.evaluator.protocol import Evaluator, FunctionRef, OpRef
from onnxscript.language import attributes as attr_rules
from onnxscript.language import binding, literals


class RecordingError(OnnxScriptError, TypeError):
    """An op call the recorder cannot turn into a node (with what it was given)."""


class GraphRecorder(Evaluator):
    """Records op calls as ``onnx_ir`` nodes, in call order.

    ``nodes`` holds the nodes, ``opset_imports`` the opset version of each domain used,
    ``functions`` the script functions called (not traced through), by (domain, name).
    """

    def __init__(self) -> None:
        self.nodes: list[ir.Node] = []
        self.opset_imports: dict[str, int] = {}
        self.functions: dict[tuple[str, str], FunctionRef] = {}

    def eval_op(self, op: OpRef, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        kwargs = dict(kwargs)
        requested = kwargs.pop("_outputs", None)
        sig = op.call_signature
        bound = binding.bind(sig, args, kwargs)
        inputs = self._inputs(sig, bound.inputs, f"{op.name}")
        attrs = [_attribute(sig, name, value) for name, value in bound.attributes.items()]
        count = _output_count(sig, op.domain, requested, bound)
        self._use_opset(op.domain, op.version)
        node = ir.Node(op.domain, op.name, inputs, attrs, num_outputs=count)
        _type_outputs(sig, node)
        self.nodes.append(node)
        return node.outputs[0] if count == 1 and requested is None else tuple(node.outputs)

    def eval_function(
        self, function: FunctionRef, args: Sequence[Any], kwargs: Mapping[str, Any]
    ) -> Any:
        kwargs = dict(kwargs)
        kwargs.pop("_outputs", None)
        if function.traceable:
            return function.function(*args, **kwargs)
        sig = function.call_signature
        bound = binding.bind(sig, args, kwargs)
        inputs = self._inputs(sig, bound.inputs, function.name)
        attrs = [_attribute(sig, name, value) for name, value in bound.attributes.items()]
        count = len(function.function_ir.graph.outputs)
        self._use_opset(function.domain, function.version)
        node = ir.Node(function.domain, function.name, inputs, attrs, num_outputs=count)
        _type_function_outputs(function, node)
        self.nodes.append(node)
        self.functions[(function.domain, function.name)] = function
        return node.outputs[0] if count == 1 else tuple(node.outputs)

    def _use_opset(self, domain: str, version: int) -> None:
        known = self.opset_imports.setdefault(domain, version)
        if known != version:
            raise RecordingError(
                f"ops of domain {domain or 'ai.onnx'!r} are called at versions {known} and "
                f"{version} in one graph; use one opset version per domain"
            )

    def _inputs(self, sig: binding.Signature, values: Sequence[Any], what: str) -> list[Any]:
        """The inputs as ir.Values: constants made for Python numbers and arrays."""
        found: list[ir.Value | None] = []
        for slot, value in enumerate(values):
            if value is None or isinstance(value, ir.Value):
                found.append(value)
            else:
                found.append(self._constant(sig, slot, value, values, what))
        return found

    def _constant(
        self, sig: binding.Signature, slot: int, value: Any, values: Sequence[Any], what: str
    ) -> ir.Value:
        fixed, partners = binding.literal_input_type(sig, slot)
        like = next(
            (values[i] for i in partners if i < len(values) and isinstance(values[i], ir.Value)),
            None,
        )
        dtype = fixed
        if dtype is None and like is not None and like.dtype is not None:
            dtype = int(like.dtype)
        array = _as_array(value, dtype, f"input {slot} of {what}")
        const = self._record("Constant", [], [ir.AttrTensor("value", ir.tensor(array))])
        if dtype is None and like is not None:
            return self._record("CastLike", [const, like], [])
        return const

    def _record(self, op_type: str, inputs: list[ir.Value], attrs: list[ir.Attr]) -> ir.Value:
        node = ir.Node("", op_type, inputs, attrs, num_outputs=1)
        if op_type == "Constant":
            tensor = attrs[0].value
            node.outputs[0].dtype = tensor.dtype
            node.outputs[0].shape = ir.Shape(tensor.shape)
            node.outputs[0].const_value = tensor
        elif op_type == "CastLike" and inputs[1].dtype is not None:
            node.outputs[0].dtype = inputs[1].dtype
        self.nodes.append(node)
        return node.outputs[0]


def _as_array(value: Any, dtype: int | None, where: str) -> np.ndarray:
    if isinstance(value, np.ndarray):
        return value if dtype is None else literals.cast_array(value, dtype)
    if not literals.is_literal(value):
        raise RecordingError(
            f"{where}: expected a symbolic value, a number or an array, got "
            f"{literals.describe(value)}"
        )
    return literals.literal_array(value, dtype, where)


def _attribute(sig: binding.Signature, name: str, value: Any) -> ir.Attr:
    """An attribute of the kind the signature declares (inferred for free-form ops)."""
    param = sig.attribute_by_name.get(name)
    kind = param.attr_kind if param is not None else attr_rules.infer_kind(value)
    if kind is None:
        raise RecordingError(f"attribute {name}: cannot tell the type of {value!r}")
    if kind in (attr_rules.AT.GRAPH, attr_rules.AT.GRAPHS):
        raise RecordingError(
            f"attribute {name}: graph attributes are not recorded by tracing yet; write the "
            "function with @script() instead"
        )
    value = attr_rules.coerce(value, kind)
    if kind == attr_rules.AT.TENSOR:
        value = ir.serde.deserialize_tensor(value)
    elif kind == attr_rules.AT.TYPE_PROTO:
        value = ir.serde.deserialize_type_proto_for_type(value)
    return ir.Attr(name, ir.AttributeType(kind), value)


def _output_count(
    sig: binding.Signature, domain: str, requested: int | None, bound: binding.BoundArguments
) -> int:
    """Traced code is Python calling ops: without ``_outputs``, every declared output the
    spec allows (as eager calls outside scripts and torch.onnx's recorder give)."""
    if requested is None:
        given = [p.name for p, v in zip(sig.inputs, bound.inputs, strict=False) if v is not None]
        declared = binding.declared_output_count(sig, domain, bound.attributes, given)
        if declared is not None:
            return declared
    return binding.output_count(sig, requested, bound.attributes, lambda _g: None)


def _type_function_outputs(function: FunctionRef, node: ir.Node) -> None:
    """Give a function call's outputs the element types its compiled outputs declare."""
    for out, value in zip(node.outputs, function.function_ir.graph.outputs):
        dtype = value.dtype
        if dtype is None and value.declared_type is not None:
            dtype = getattr(value.declared_type, "dtype", None)
        if dtype is not None:
            out.dtype = ir.DataType(dtype)


_DTYPE_ATTRIBUTES = {"Cast": "to", "RandomNormal": "dtype", "RandomUniform": "dtype"}
"""Ops whose output element type an attribute gives."""


def _type_outputs(sig: binding.Signature, node: ir.Node) -> None:
    """Give outputs the element type the schema fixes or ties to an input's (the last
    formal output stands for all outputs of a variadic one)."""
    plan = sig.output_plan
    if not plan:
        return
    attribute = _DTYPE_ATTRIBUTES.get(node.op_type) if not node.domain else None
    for index, out in enumerate(node.outputs):
        if attribute is not None and attribute in node.attributes:
            out.dtype = ir.DataType(node.attributes[attribute].value)
            continue
        fixed, slots = plan[min(index, len(plan) - 1)]
        if fixed is not None:
            out.dtype = ir.DataType(fixed)
            continue
        for slot in slots:
            source = node.inputs[slot] if slot < len(node.inputs) else None
            if source is not None and source.dtype is not None:
                out.dtype = source.dtype
                break


__all__ = ["GraphRecorder", "RecordingError"]
