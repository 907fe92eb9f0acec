"""onnxruntime in one place: session creation with the package's options, and the newest
opset and IR version the installed onnxruntime loads.

The limits of a known onnxruntime release come from a table measured with
``tools/ort_limits.py``, and the installed release is read from its files, so choosing
default versions imports nothing. Only a release the table does not know is probed, by
loading a one-node model (once per process).
"""

from __future__ import annotations

import functools
import importlib.util
import os
import re
from collections.abc import Sequence
from typing import Any

import onnx
import onnx.helper

CPU = ("CPUExecutionProvider",)

LIMITS: dict[str, tuple[int, int]] = {
    "1.17": (20, 9),  # measured with onnxruntime 1.17.3
    "1.18": (21, 10),  # measured with onnxruntime 1.18.1
    "1.19": (21, 10),  # measured with onnxruntime 1.19.2
    "1.20": (21, 10),  # measured with onnxruntime 1.20.1
    "1.21": (22, 10),  # measured with onnxruntime 1.21.1
    "1.22": (22, 10),  # measured with onnxruntime 1.22.1
    "1.23": (23, 11),  # measured with onnxruntime 1.23.2
    "1.24": (25, 13),  # measured with onnxruntime 1.24.4
    "1.25": (26, 13),  # measured with onnxruntime 1.25.1
    "1.26": (26, 13),  # measured with onnxruntime 1.26.0
    "1.27": (26, 13),  # measured with onnxruntime 1.27.0
    "1.28": (26, 13),  # measured with onnxruntime 1.28.0
    "1.29": (26, 13),  # measured with onnxruntime 1.29.0
    "1.30": (26, 13),  # measured with onnxruntime 1.30.0
    "1.31": (26, 13),  # measured with onnxruntime 1.31.1
    "1.32": (28, 14),  # measured with onnxruntime 1.32.0
}
"""(newest ai.onnx opset, newest IR version) each onnxruntime release loads, by
``major.minor`` (measured with ``tools/ort_limits.py``)."""

_VERSION_LINE = re.compile(r"""^__version__\s*=\s*["']([^"']+)["']""", re.MULTILINE)


def session_options(log_level: int = 4) -> Any:
    """``onnxruntime.SessionOptions`` with messages below ``log_level`` silenced."""
    import onnxruntime

    options = onnxruntime.SessionOptions()
    options.log_severity_level = log_level
    return options


def session(
    model: onnx.ModelProto | bytes,
    options: Any = None,
    providers: Sequence[str] = CPU,
) -> Any:
    """An ``onnxruntime.InferenceSession`` for ``model`` (on the CPU, warnings silenced,
    unless ``options``/``providers`` say otherwise)."""
    import onnxruntime

    data = model if isinstance(model, bytes) else model.SerializeToString()
    return onnxruntime.InferenceSession(
        data, options if options is not None else session_options(), providers=list(providers)
    )


def installed_version() -> str | None:
    """The installed onnxruntime's version, read from its files (not imported); ``None``
    when onnxruntime is not installed or its version cannot be read."""
    try:
        spec = importlib.util.find_spec("onnxruntime")
    except (ImportError, ValueError):
        return None
    if spec is None or spec.origin is None or not os.path.isfile(spec.origin):
        return None
    try:
        with open(spec.origin, encoding="utf-8") as f:
            found = _VERSION_LINE.search(f.read())
    except OSError:
        return None
    return found.group(1) if found else None


def _loads(opset: int, ir_version: int) -> bool:
    """Whether the installed onnxruntime loads a one-node model at these versions."""
    x = onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1])
    y = onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1])
    graph = onnx.helper.make_graph([onnx.helper.make_node("Abs", ["x"], ["y"])], "probe", [x], [y])
    model = onnx.helper.make_model(
        graph, opset_imports=[onnx.helper.make_opsetid("", opset)], ir_version=ir_version
    )
    try:
        session(model)
    except Exception:
        return False
    return True


def _probe(max_opset: int, max_ir: int) -> tuple[int, int]:
    ir = max_ir
    while ir > 7 and not _loads(13, ir):
        ir -= 1
    opset = max_opset
    while opset > 13 and not _loads(opset, ir):
        opset -= 1
    return opset, ir


def _release(version: str) -> str:
    """``"1.32"`` for ``"1.32.0"`` (and for ``"1.32.0.dev20260101"``)."""
    return ".".join(version.split(".")[:2])


@functools.lru_cache(maxsize=1)
def limits() -> tuple[int, int]:
    """(newest ai.onnx opset, newest IR version) that both the installed onnx defines and
    the installed onnxruntime loads; onnx's own limits without onnxruntime."""
    import onnx.defs

    max_opset = onnx.defs.onnx_opset_version()
    max_ir = int(onnx.IR_VERSION)
    version = installed_version()
    if version is None:
        if importlib.util.find_spec("onnxruntime") is None:
            return max_opset, max_ir
        return _probe(max_opset, max_ir)
    known = LIMITS.get(_release(version))
    if known is None:
        return _probe(max_opset, max_ir)
    return min(known[0], max_opset), min(known[1], max_ir)
