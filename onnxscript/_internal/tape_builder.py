"""onnxscript 0.7's ``onnxscript._internal.tape_builder`` (recording op calls as nodes).
Here building graphs op by op is :mod:`onnxscript.builder` (``GraphBuilder``,
``OpBuilder``)."""

from onnxscript.builder.graph_builder import GraphBuilder
from onnxscript.builder.op_builder import OpBuilder

__all__ = ["GraphBuilder", "OpBuilder"]
