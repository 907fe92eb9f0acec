"""onnxscript 0.7's ``function_libs.tools.torch_lib`` package path."""
