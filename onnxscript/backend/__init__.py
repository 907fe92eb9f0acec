"""Module paths of onnxscript 0.7's ``onnxscript.backend`` (``onnx_export``)."""
