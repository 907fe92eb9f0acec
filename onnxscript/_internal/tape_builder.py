"""onnxscript 0.7's ``onnxscript._internal.tape_builder`` (recording op calls as nodes).
Here that recorder is :class:`onnxscript.ir_utils.node_recorder.NodeRecorder` (the ``op``
of rewrite rules' replacements, of partial evaluators and of 0.7-style version-converter
adapters); building graphs op by op is :mod:`onnxscript.builder` (``GraphBuilder``,
``OpBuilder``)."""

from onnxscript.builder.graph_builder import GraphBuilder
from onnxscript.builder.op_builder import OpBuilder
from onnxscript.ir_utils.node_recorder import NodeRecorder

TapeBuilder = NodeRecorder

__all__ = ["GraphBuilder", "OpBuilder", "TapeBuilder"]
