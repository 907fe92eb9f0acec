"""Module paths of onnxscript 0.7's internals that user code imports (compatibility only)."""
