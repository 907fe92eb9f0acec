"""Default versions of the models onnxscript makes, which depend on the installed onnx and
onnxruntime: the newest opset and IR version that both support (see
``onnxscript.runtime.limits``; nothing is imported or probed for a known onnxruntime)."""

from __future__ import annotations

from onnxscript.runtime import limits


def runtime_limits() -> tuple[int, int]:
    """(newest ai.onnx opset, newest IR version) usable with the installed onnxruntime."""
    return limits()


def default_opset_version() -> int:
    """The ai.onnx opset used when a script names none: the newest onnxruntime can run."""
    return limits()[0]


def default_ir_version() -> int:
    """The IR version of models made by ``to_model_proto``: the newest onnxruntime loads."""
    return limits()[1]
