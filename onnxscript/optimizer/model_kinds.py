"""Passes take ``onnx_ir.Model``s; users also hold ``onnx.ModelProto``s. One conversion
each way, so every public entry accepts both and returns the kind it was given."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import onnx
import onnx_ir as ir

ModelT = TypeVar("ModelT", ir.Model, onnx.ModelProto)


def on_ir(model: ModelT, transform: Callable[[ir.Model], object]) -> ModelT:
    """Run ``transform`` on ``model``: an ``ir.Model`` is changed in place and returned;
    a ``ModelProto`` is left as it is and a new, transformed one returned."""
    if isinstance(model, ir.Model):
        transform(model)
        return model
    if not isinstance(model, onnx.ModelProto):
        raise TypeError(
            f"expected an onnx_ir.Model or an onnx.ModelProto, got {type(model).__name__}"
        )
    copy = onnx.ModelProto()
    copy.CopyFrom(model)  # onnx_ir's tensors read (and rename) the proto they came from
    converted = ir.serde.deserialize_model(copy)
    transform(converted)
    return ir.serde.serialize_model(converted)


__all__ = ["ModelT", "on_ir"]
