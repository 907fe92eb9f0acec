"""bfloat16 helpers for onnxruntime (0.7's module path)."""
