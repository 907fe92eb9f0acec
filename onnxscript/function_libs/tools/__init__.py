"""onnxscript 0.7's ``function_libs.tools`` package path (its tool modules are faces)."""
