"""ATen operators written in onnxscript, for torch.onnx's exporter.

Each function implements one or more ATen overloads (``aten::add.Tensor``); its
parameters are named and ordered as in the ATen schema, because torch.onnx calls it
with the FX node's arguments. ``registration.collect_ops()`` lists them all.
"""
