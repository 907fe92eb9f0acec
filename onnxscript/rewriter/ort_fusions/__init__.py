"""Fusions of transformer subgraphs into onnxruntime's contrib ops (``com.microsoft``)."""
