"""Passes take ``onnx_ir.Model``s; users also hold ``onnx.ModelProto``s. One conversion
each way, so every public entry accepts both and returns the kind it was given."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import TypeVar

import onnx
import onnx_ir as ir

from onnxscript.proto_graphs import nested_nodes, subgraphs

ModelT = TypeVar("ModelT", ir.Model, onnx.ModelProto)


def on_ir(model: ModelT, transform: Callable[[ir.Model], object]) -> ModelT:
    """Run ``transform`` on ``model``: an ``ir.Model`` is changed in place and returned;
    a ``ModelProto`` is left as it is and a new, transformed one returned."""
    if isinstance(model, ir.Model):
        transform(model)
        return model
    if not isinstance(model, onnx.ModelProto):
        raise TypeError(
            f"expected an onnx_ir.Model or an onnx.ModelProto, got {type(model).__name__}"
        )
    # onnx_ir's tensors read the protos they came from without copying them (fast for
    # big weights) and renaming a value renames its tensor proto; those names are the
    # one thing passes change there, so they are put back afterwards.
    names = [(tensor, tensor.name) for tensor in _tensor_protos(model)]
    try:
        converted = ir.serde.deserialize_model(model)
        transform(converted)
        return ir.serde.serialize_model(converted)
    finally:
        for tensor, name in names:
            tensor.name = name


def _tensor_protos(model: onnx.ModelProto) -> Iterator[onnx.TensorProto]:
    """Every tensor proto of the model: initializers and tensor attributes, in graphs,
    subgraphs and functions."""
    yield from model.graph.initializer
    bodies = itertools.chain(model.graph.node, *(function.node for function in model.functions))
    for node in nested_nodes(bodies):
        for sub in subgraphs(node):
            yield from sub.initializer
        for attr in node.attribute:
            if attr.HasField("t"):
                yield attr.t
            yield from attr.tensors


_R = TypeVar("_R")

BIG_TENSOR_SIZE = 1000
"""Initializers with more elements than this are left out of the proto
:func:`call_onnx_api` makes (as onnxscript 0.7 leaves them out)."""


def call_onnx_api(func: Callable[[onnx.ModelProto], _R], model: ir.Model) -> _R:
    """``func`` (an onnx C API function, partially applied) called on ``model`` as a
    ``ModelProto`` without its big initializers: every initializer is also a graph input
    there, and those of more than :data:`BIG_TENSOR_SIZE` elements have no value (onnx's C
    API cannot take a proto of 2 GB or more, and needs the types only). ``model`` is left
    as it was."""
    graph = model.graph
    inputs = list(graph.inputs)
    initializers = list(graph.initializers.values())
    big = [
        v
        for v in initializers
        if v.const_value is not None and v.const_value.size > BIG_TENSOR_SIZE
    ]
    try:
        graph.inputs.extend(v for v in initializers if v not in inputs)
        for value in big:
            assert value.name is not None
            graph.initializers.pop(value.name)
        proto = ir.serde.serialize_model(model)
    finally:
        for value in initializers:  # in their order
            assert value.name is not None
            graph.initializers.pop(value.name, None)
            graph.register_initializer(value)
        graph.inputs.clear()
        graph.inputs.extend(inputs)
    return func(proto)


__all__ = ["BIG_TENSOR_SIZE", "ModelT", "call_onnx_api", "on_ir"]
