"""What torch.onnx 2.5 and later call (every later ``torch_2_X`` module re-exports it)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import onnx
import onnx.version_converter
import onnx_ir as ir

from onnxscript import optimizer
from onnxscript.function_libs.torch_lib.registration import OpRecord, collect_ops


def get_torchlib_ops() -> list[OpRecord]:
    """Every ATen overload the library implements: ``qualified_name``
    (``"aten::add.Tensor"``), ``function`` and ``is_complex``."""
    return collect_ops()


def optimize(model: ir.Model) -> ir.Model:
    """``onnxscript.optimizer.optimize`` on the exported model (in place; returned)."""
    return optimizer.optimize(model)


def convert_version(model: ir.Model, target_version: int) -> ir.Model:
    """The model converted to ai.onnx ``target_version`` with onnx's version converter
    (the model itself when it already imports that version)."""
    if model.opset_imports.get("") == target_version:
        return model
    proto = ir.serde.serialize_model(model)
    converted = onnx.version_converter.convert_version(proto, target_version)
    return ir.serde.deserialize_model(converted)


def check_model(model: ir.Model) -> None:
    """onnx's full checker on the model (through a temporary file when it is too big to
    be one protobuf message)."""
    proto = ir.serde.serialize_model(model)
    if proto.ByteSize() < onnx.checker.MAXIMUM_PROTOBUF:
        onnx.checker.check_model(proto, full_check=True)
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "model.onnx"
        ir.save(model, path, external_data="model.onnx.data")
        onnx.checker.check_model(str(path), full_check=True)


def save_model_with_external_data(
    model: ir.Model, model_path: str | os.PathLike[str], verbose: bool = False
) -> None:
    """Save the model with its tensors in ``<model file name>.data`` beside it."""
    path = Path(model_path)
    ir.save(model, path, external_data=f"{path.name}.data")
    if verbose:
        print(f"saved {path} with external data {path.name}.data")


__all__ = [
    "check_model",
    "convert_version",
    "get_torchlib_ops",
    "optimize",
    "save_model_with_external_data",
]
