"""Libraries of functions written in onnxscript for frameworks (``torch_lib``: ATen)."""
