"""What torch.onnx 2.6 calls: ``torch_2_5``'s entry points and ``torchlib_opset()``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from onnxscript._framework_apis.torch_2_5 import (
    check_model,
    convert_version,
    get_torchlib_ops,
    optimize,
    save_model_with_external_data,
)

if TYPE_CHECKING:
    from onnxscript.values import Opset


def torchlib_opset() -> Opset:
    """The ai.onnx opset the ATen library is written in: the standard opset object
    (``onnxscript.opset18``), as 0.7 returns it."""
    from onnxscript.function_libs.torch_lib.registration import TORCHLIB_OPSET
    from onnxscript.opsets import standard_opset

    return standard_opset(TORCHLIB_OPSET.domain, TORCHLIB_OPSET.version)


def torchlib_opset_version() -> int:
    """The version of :func:`torchlib_opset` (what torch.onnx exports at by default)."""
    return torchlib_opset().version


__all__ = [
    "check_model",
    "convert_version",
    "get_torchlib_ops",
    "optimize",
    "save_model_with_external_data",
    "torchlib_opset",
    "torchlib_opset_version",
]
