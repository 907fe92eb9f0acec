"""What torch.onnx 2.8 calls: ``torch_2_5``'s entry points, with ``optimize`` also fusing
into opset-23 ops (RMSNormalization, RotaryEmbedding, Attention) a model at opset 23 or
later, as onnxscript 0.7 does for torch 2.8 and later."""

from __future__ import annotations

from typing import TYPE_CHECKING

from onnxscript._framework_apis import torch_2_5
from onnxscript._framework_apis.torch_2_5 import (
    check_model,
    convert_version,
    get_torchlib_ops,
    save_model_with_external_data,
)
from onnxscript.rewriter import onnx_fusions

if TYPE_CHECKING:
    import onnx_ir as ir


def optimize(model: ir.Model) -> ir.Model:
    """``onnxscript.optimizer.optimize``, then ``onnx_fusions.fuse`` (in place; returned)."""
    torch_2_5.optimize(model)
    onnx_fusions.fuse(model)
    return model


__all__ = [
    "check_model",
    "convert_version",
    "get_torchlib_ops",
    "optimize",
    "save_model_with_external_data",
]
