"""onnxscript 0.7's ``onnxscript._internal.utils`` (Python values as ``onnx_ir`` values and
value infos). Here script values become ``TypeProto``s in
:mod:`onnxscript.program.proto_types`, and ``onnx_ir`` models are handled by
:mod:`onnxscript.ir_utils`; nothing else stands here."""
