"""What torch.onnx 2.5 to 2.7 call (``torch_2_8`` and later add the opset-23 fusions)."""

from __future__ import annotations

import os
from pathlib import Path

import onnx_ir as ir

from onnxscript import optimizer, version_converter
from onnxscript._framework_apis._external_data import check_with_onnx, save_with_external_data
from onnxscript.function_libs.torch_lib.registration import OpRecord, registered_ops


def get_torchlib_ops() -> list[OpRecord]:
    """Every ATen overload of the default registry (the library's functions and those
    users registered with ``torch_op``): ``qualified_name`` (``"aten::add.Tensor"``),
    ``function`` and ``is_complex``."""
    return registered_ops()


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
    """onnx's full checker on the model. A model with large weights is checked by path
    with placeholder external data: its tensors are neither copied nor written."""
    check_with_onnx(model)


def save_model_with_external_data(
    model: ir.Model, model_path: str | os.PathLike[str], verbose: bool = False
) -> None:
    """Save the model with its tensors in ``<model file name>.data`` beside it, streamed
    from where they are (torch's memory, lazy tensors computed once), without a second
    copy in memory; the model is unchanged."""
    path = Path(model_path)
    save_with_external_data(model, path)
    if verbose:
        print(f"saved {path} with external data {path.name}.data")


__all__ = [
    "check_model",
    "convert_version",
    "get_torchlib_ops",
    "optimize",
    "save_model_with_external_data",
]
