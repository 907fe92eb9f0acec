"""onnxruntime in one place: sessions, the installed version, default version limits."""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys

import numpy as np
import onnx
import onnx.defs
import onnx.helper

from onnxscript import runtime
from tests.helpers import ROOT


def test_installed_version_is_read_without_importing_onnxruntime():
    assert runtime.installed_version() == importlib.metadata.version("onnxruntime")
    code = (
        "import sys\n"
        "from onnxscript import runtime\n"
        "print(runtime.limits(), 'onnxruntime' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip().endswith("False")


def test_table_agrees_with_probing_the_installed_release():
    release = runtime._release(runtime.installed_version() or "")
    assert release in runtime.LIMITS, f"add onnxruntime {release} (tools/ort_limits.py)"
    max_opset, max_ir = onnx.defs.onnx_opset_version(), int(onnx.IR_VERSION)
    assert runtime.limits() == runtime._probe(max_opset, max_ir)


def test_release_of_a_version_string():
    assert runtime._release("1.32.0") == "1.32"
    assert runtime._release("1.24.0.dev20260101") == "1.24"


def test_session_runs_a_model_on_the_cpu():
    x = onnx.helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2])
    y = onnx.helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2])
    graph = onnx.helper.make_graph([onnx.helper.make_node("Neg", ["x"], ["y"])], "g", [x], [y])
    model = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 13)])
    model.ir_version = 8
    session = runtime.session(model)
    (out,) = session.run(None, {"x": np.array([1.0, -2.0], np.float32)})
    np.testing.assert_array_equal(out, [-1.0, 2.0])
    assert session.get_providers() == ["CPUExecutionProvider"]
