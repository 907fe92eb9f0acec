"""Passes over ``onnx_ir`` models, and ``optimize()`` composing them."""
