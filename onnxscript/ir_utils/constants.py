"""Constant nodes' values on their outputs, so that passes and rewrite rules see a
``Constant`` node's result as a constant (``value.const_value``)."""

from __future__ import annotations

from collections.abc import Iterable

import onnx_ir as ir


def basic_constant_propagation(nodes: Iterable[ir.Node]) -> None:
    """Give the outputs of Constant nodes their value (``const_value``), so that folding,
    inference and rule conditions see them as constants."""
    for node in nodes:
        if node.op_type != "Constant" or node.domain not in ("", "ai.onnx"):
            continue
        tensor = _constant_tensor(node)
        if tensor is not None and node.outputs[0].const_value is None:
            out = node.outputs[0]
            out.const_value = tensor
            out.type = ir.TensorType(tensor.dtype)
            out.shape = ir.Shape(tensor.shape.numpy())


def _constant_tensor(node: ir.Node) -> ir.TensorProtocol | None:
    for name, attr in node.attributes.items():
        if attr.is_ref():
            return None
        if name == "value":
            return attr.as_tensor()
        if name in ("value_int", "value_ints"):
            return ir.tensor(attr.value, dtype=ir.DataType.INT64)
        if name in ("value_float", "value_floats"):
            return ir.tensor(attr.value, dtype=ir.DataType.FLOAT)
    return None


__all__ = ["basic_constant_propagation"]
