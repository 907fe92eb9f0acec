"""Helpers over onnx_ir graphs shared by the passes that edit them (optimizer, rewriter,
version converter): walking a model's graphs, fresh names, carrying metadata from replaced
nodes, adding initializers."""
