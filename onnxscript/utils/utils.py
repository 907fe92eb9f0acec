"""onnxscript 0.7's ``onnxscript.utils.utils``: facts about one ``NodeProto``, from
:mod:`onnxscript.proto_nodes`."""

from onnxscript.proto_nodes import (
    get_constant_node_value,
    get_initializer_type,
    get_node_attr_value,
    is_control_flow_op,
    is_onnx_domain,
    is_onnx_op,
    normalize_domain,
)

__all__ = [
    "get_constant_node_value",
    "get_initializer_type",
    "get_node_attr_value",
    "is_control_flow_op",
    "is_onnx_domain",
    "is_onnx_op",
    "normalize_domain",
]
