"""Defaults that depend on the installed onnx and onnxruntime.

The default opset and IR version are the newest that *both* the installed onnx defines and
the installed onnxruntime can load, found by asking onnxruntime to load a one-node model
(once per process). Without onnxruntime, onnx's newest versions are used.
"""

from __future__ import annotations

import functools

import onnx
import onnx.defs
import onnx.helper


def _loads(opset: int, ir_version: int) -> bool:
    try:
        import onnxruntime
    except ImportError:  # pragma: no cover - onnxruntime is a dependency
        return True
    x = onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])
    y = onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])
    graph = onnx.helper.make_graph([onnx.helper.make_node("Abs", ["x"], ["y"])], "probe", [x], [y])
    model = onnx.helper.make_model(
        graph, opset_imports=[onnx.helper.make_opsetid("", opset)], ir_version=ir_version
    )
    options = onnxruntime.SessionOptions()
    options.log_severity_level = 4
    try:
        onnxruntime.InferenceSession(
            model.SerializeToString(), options, providers=["CPUExecutionProvider"]
        )
    except Exception:
        return False
    return True


@functools.lru_cache(maxsize=1)
def runtime_limits() -> tuple[int, int]:
    """(newest ai.onnx opset, newest IR version) usable with the installed onnxruntime."""
    max_opset = onnx.defs.onnx_opset_version()
    max_ir = int(onnx.IR_VERSION)
    min_ir = 7
    ir: int = max_ir
    while ir > min_ir and not _loads(13, ir):
        ir -= 1
    opset = max_opset
    while opset > 13 and not _loads(opset, ir):
        opset -= 1
    return opset, ir


def default_opset_version() -> int:
    """The ai.onnx opset used when a script names none: the newest onnxruntime can run."""
    return runtime_limits()[0]


def default_ir_version() -> int:
    """The IR version of models made by ``to_model_proto``: the newest onnxruntime loads."""
    return runtime_limits()[1]
