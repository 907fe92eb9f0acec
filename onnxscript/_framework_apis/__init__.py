"""Entry points that frameworks import by a versioned module name.

``torch_2_X`` is what torch.onnx of that version imports (``torch/onnx/_internal/
_lazy_import.py``): the ATen function table, the optimizer, the version converter, the
checker and saving with external data. The modules stay stable so that released torch
versions keep working.
"""
