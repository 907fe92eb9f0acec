"""Trace a Python function into an ``onnx_ir.Function``: its body runs once on symbolic
inputs (typed from its annotations) under a :class:`GraphBuilder`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import onnx_ir as ir

from onnxscript.builder.diagnostics import BuilderError
from onnxscript.builder.graph_builder import GraphBuilder
from onnxscript.language.annotations import type_hints, unwrap_optional
from onnxscript.language.binding import Signature
from onnxscript.onnx_types import is_tensor_type
from onnxscript.value_types import TensorTypeSpec

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
    reads them as Python values, so they are fixed in the traced function. Every call is
    recorded as written (constants are ``Constant`` nodes; nothing is folded).
    """
    hints = type_hints(fn)
    inputs = [symbolic_input(p.name, hints.get(p.name)) for p in signature.inputs]
    graph = ir.Graph(inputs, [], nodes=[], opset_imports={}, name=name)
    builder = GraphBuilder(graph, fold_constants=False, constants_as_nodes=True)
    kwargs: dict[str, Any] = {p.name: v for p, v in zip(signature.inputs, inputs)}
    kwargs.update(_attribute_values(name, signature, attributes))
    with builder:
        result = fn(**kwargs)
    items = list(result) if isinstance(result, (tuple, list)) else [result]
    for index, item in enumerate(items):
        if not isinstance(item, ir.Value):
            raise BuilderError(
                f"{name} returned {type(item).__name__} as output {index}; a traced function "
                "must return the values its op calls make"
            )
        builder.add_output(item)
    graph.opset_imports.setdefault("", DEFAULT_OPSET)
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


__all__ = ["DEFAULT_OPSET", "symbolic_input", "trace_function"]
