"""What torch.onnx 2.12 calls: the same entry points as ``torch_2_8``."""

from __future__ import annotations

from onnxscript._framework_apis.torch_2_8 import (
    check_model,
    convert_version,
    get_torchlib_ops,
    optimize,
    save_model_with_external_data,
)

__all__ = [
    "check_model",
    "convert_version",
    "get_torchlib_ops",
    "optimize",
    "save_model_with_external_data",
]
