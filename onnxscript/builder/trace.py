"""Trace a Python function into an ``onnx_ir.Function``: its body runs once on symbolic
inputs (typed from its annotations) under a :class:`GraphRecorder`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import onnx_ir as ir

from onnxscript.builder.recorder import GraphRecorder, RecordingError
from onnxscript.evaluator.context import default_as
from onnxscript.language.annotations import type_hints, unwrap_optional
from onnxscript.language.binding import Signature
from onnxscript.onnx_types import is_tensor_type
from onnxscript.program.types import TensorTypeSpec

DEFAULT_OPSET = 18
"""The ai.onnx version imported by a traced function that calls no ai.onnx op itself."""


def symbolic_input(name: str, annotation: Any) -> ir.Value:
    """A graph input typed from a parameter annotation (untyped when it names no single
    tensor type)."""
    value = ir.Value(name=name)
    annotation, _ = unwrap_optional(annotation)
    if is_tensor_type(annotation):
        spec = annotation.type_spec()
        if isinstance(spec, TensorTypeSpec) and spec.dtype is not None:
            value.dtype = ir.DataType(spec.dtype)
            if spec.shape is not None:
                value.shape = ir.Shape(list(spec.shape))
    return value


def trace_function(
    fn: Callable[..., Any],
    name: str,
    domain: str,
    signature: Signature,
    attributes: Mapping[str, Any],
) -> ir.Function:
    """Run ``fn`` on symbolic inputs and return what it recorded as a function.

    Attribute parameters take the values in ``attributes``, else their defaults: the body
    reads them as Python values, so they are fixed in the traced function.
    """
    hints = type_hints(fn)
    inputs = [symbolic_input(p.name, hints.get(p.name)) for p in signature.inputs]
    kwargs: dict[str, Any] = {p.name: v for p, v in zip(signature.inputs, inputs)}
    kwargs.update(_attribute_values(name, signature, attributes))
    recorder = GraphRecorder()
    with default_as(recorder):
        result = fn(**kwargs)
    outputs = _outputs(recorder, result, inputs, name)
    opsets = dict(recorder.opset_imports)
    opsets.setdefault("", DEFAULT_OPSET)
    graph = ir.Graph(inputs, outputs, nodes=recorder.nodes, opset_imports=opsets, name=name)
    return ir.Function(domain, name, graph=graph, attributes=[])


def _attribute_values(name: str, signature: Signature, given: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(given) - {p.name for p in signature.attributes}
    if unknown:
        raise TypeError(f"{name} has no attribute parameter {sorted(unknown)[0]!r}")
    values: dict[str, Any] = {}
    for p in signature.attributes:
        if p.name in given:
            values[p.name] = given[p.name]
        elif not p.has_default:
            raise TypeError(
                f"tracing {name} needs a value for its attribute parameter {p.name!r}: "
                f"pass it as to_function_proto({p.name}=...)"
            )
    return values


def _outputs(
    recorder: GraphRecorder, result: Any, inputs: list[ir.Value], name: str
) -> list[ir.Value]:
    """The returned values as graph outputs: each a distinct value made by a node (an
    ``Identity`` is recorded for a returned input or a value returned twice)."""
    items = list(result) if isinstance(result, (tuple, list)) else [result]
    outputs: list[ir.Value] = []
    for i, item in enumerate(items):
        if not isinstance(item, ir.Value):
            raise RecordingError(
                f"{name} returned {type(item).__name__} as output {i}; a traced function "
                "must return the values its op calls make"
            )
        if item in inputs or any(item is o for o in outputs):
            (item,) = _identity(recorder, item)
        outputs.append(item)
    return outputs


def _identity(recorder: GraphRecorder, value: ir.Value) -> tuple[ir.Value]:
    node = ir.Node("", "Identity", [value], num_outputs=1)
    if value.dtype is not None:
        node.outputs[0].dtype = value.dtype
    node.outputs[0].shape = value.shape
    recorder.nodes.append(node)
    return (node.outputs[0],)


__all__ = ["DEFAULT_OPSET", "symbolic_input", "trace_function"]
