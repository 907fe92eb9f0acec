"""What torch.onnx 2.6 calls: ``torch_2_5``'s entry points and ``torchlib_opset()``."""

from __future__ import annotations

from onnxscript._framework_apis.torch_2_5 import (
    check_model,
    convert_version,
    get_torchlib_ops,
    optimize,
    save_model_with_external_data,
)
from onnxscript.values import Opset


def torchlib_opset() -> Opset:
    """The ai.onnx opset the ATen library is written in."""
    from onnxscript.function_libs.torch_lib.registration import TORCHLIB_OPSET

    return TORCHLIB_OPSET


__all__ = [
    "check_model",
    "convert_version",
    "get_torchlib_ops",
    "optimize",
    "save_model_with_external_data",
    "torchlib_opset",
]
