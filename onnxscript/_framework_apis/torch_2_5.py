"""What torch.onnx 2.5 and later call (every later ``torch_2_X`` module re-exports it)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import onnx
import onnx_ir as ir

from onnxscript import optimizer, version_converter
from onnxscript.function_libs.torch_lib.registration import OpRecord, collect_ops


def get_torchlib_ops() -> list[OpRecord]:
    """Every ATen overload the library implements: ``qualified_name``
    (``"aten::add.Tensor"``), ``function`` and ``is_complex``."""
    return collect_ops()


def optimize(model: ir.Model) -> ir.Model:
    """``onnxscript.optimizer.optimize`` on the exported model (in place; returned)."""
    return optimizer.optimize(model)


def convert_version(model: ir.Model, target_version: int) -> ir.Model:
    """The model at ai.onnx ``target_version``, converted in place (and returned).

    Every ai.onnx node of the main graph, its subgraphs and the model-local functions
    (torch.cond, while_loop and scan bodies are ones) is converted by the adapters of
    ``onnxscript.version_converter``; the model is never serialized. Only a node no
    adapter covers goes through onnx's converter, alone.
    """
    version_converter.convert_version(model, target_version, fallback=True)
    return model


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
