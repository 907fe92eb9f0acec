"""Facts about one onnx ``NodeProto``: its inputs, its domain, its attributes' values, the
value of a ``Constant`` node. Shared by the backend-test and utility modules that onnxscript
0.7 had (``backend.onnx_export``, ``utils.utils``), which re-export these functions."""

from __future__ import annotations

from typing import Any

import onnx
import onnx.helper

from onnxscript.proto_graphs import subgraphs
from onnxscript.schemas import canonical_domain


def has_input(node: onnx.NodeProto, index: int) -> bool:
    """Whether ``node`` has an input at position ``index`` (an empty name is an absent
    optional input)."""
    return index < len(node.input) and node.input[index] != ""


def normalize_domain(d: str) -> str:
    """``"ai.onnx"`` and ``""`` name the same domain: ``""``."""
    return canonical_domain(d)


def is_onnx_domain(d: str) -> bool:
    """Whether ``d`` is the standard ``ai.onnx`` domain (spelt ``""`` or ``"ai.onnx"``)."""
    return normalize_domain(d) == ""


def is_onnx_op(node: onnx.NodeProto, op_type: str) -> bool:
    """Whether ``node`` is the standard op ``op_type``."""
    return node.op_type == op_type and is_onnx_domain(node.domain)


def is_control_flow_op(node: onnx.NodeProto) -> bool:
    """Whether ``node`` holds a graph in an attribute (``If``, ``Loop``, ``Scan``, ...)."""
    return any(True for _ in subgraphs(node))


def get_node_attr_value(node: onnx.NodeProto, attr_name: str, default: Any) -> Any:
    """The value of ``node``'s attribute ``attr_name`` as ``onnx.helper.get_attribute_value``
    gives it (strings as bytes, a tensor as a ``TensorProto``), or ``default``."""
    for attr in node.attribute:
        if attr.name == attr_name:
            return onnx.helper.get_attribute_value(attr)
    return default


_CONSTANT_VALUES = {
    "value_float": (onnx.TensorProto.FLOAT, False),
    "value_floats": (onnx.TensorProto.FLOAT, True),
    "value_int": (onnx.TensorProto.INT64, False),
    "value_ints": (onnx.TensorProto.INT64, True),
    "value_string": (onnx.TensorProto.STRING, False),
    "value_strings": (onnx.TensorProto.STRING, True),
}
"""The ``Constant`` attributes other than ``value``: the element type, and whether the
value is a list (a 1-D tensor) rather than a scalar."""


def get_constant_node_value(node: onnx.NodeProto, name: str) -> onnx.TensorProto | None:
    """The tensor a standard ``Constant`` node produces: its ``value`` as is, or a tensor
    named ``name`` made of ``value_float(s)``, ``value_int(s)``, ``value_string(s)``. None for
    any other node, and for a sparse value."""
    if not is_onnx_op(node, "Constant"):
        return None
    for attr in node.attribute:
        if attr.name == "value":
            tensor: onnx.TensorProto = attr.t
            return tensor
        if attr.name in _CONSTANT_VALUES:
            dtype, is_list = _CONSTANT_VALUES[attr.name]
            value = onnx.helper.get_attribute_value(attr)
            values = list(value) if is_list else [value]
            dims = [len(values)] if is_list else []
            return onnx.helper.make_tensor(name, dtype, dims, values)
    return None


def get_initializer_type(initializer: onnx.TensorProto) -> onnx.TypeProto:
    """The tensor type (element type and shape) of an initializer."""
    return onnx.helper.make_tensor_type_proto(initializer.data_type, list(initializer.dims))


__all__ = [
    "get_constant_node_value",
    "get_initializer_type",
    "get_node_attr_value",
    "has_input",
    "is_control_flow_op",
    "is_onnx_domain",
    "is_onnx_op",
    "normalize_domain",
]
