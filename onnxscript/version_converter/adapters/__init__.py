"""Adapters of ai.onnx ops between consecutive versions, one module per family; the
registry (``onnxscript.version_converter.registry``) gathers their tables."""
