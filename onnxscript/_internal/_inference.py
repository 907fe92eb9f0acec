"""onnxscript 0.7's ``onnxscript._internal._inference`` (its ``infer_outputs`` typed a
node's outputs). Here that is :mod:`onnxscript.inference`: ``infer_node`` gives an
``onnx_ir`` node's output types and shapes."""

from onnxscript.inference.infer import infer_node

__all__ = ["infer_node"]
