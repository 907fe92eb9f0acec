"""``onnxscript.ir`` is the onnx_ir package, submodules included, loaded on first use."""

from __future__ import annotations

import subprocess
import sys

import onnx_ir


def test_onnxscript_ir_is_onnx_ir():
    import onnxscript
    from onnxscript import ir

    assert ir is onnx_ir
    assert onnxscript.ir is onnx_ir
    assert ir.Model is onnx_ir.Model and ir.serde is onnx_ir.serde


def test_submodules_are_the_same_module_objects():
    import onnx_ir.convenience
    import onnx_ir.passes.common
    import onnxscript.ir.convenience
    import onnxscript.ir.passes.common

    from onnxscript.ir import convenience

    assert convenience is onnx_ir.convenience
    assert onnxscript.ir.convenience is onnx_ir.convenience
    assert onnxscript.ir.passes.common is onnx_ir.passes.common
    assert onnx_ir.convenience.__spec__.name == "onnx_ir.convenience"


def test_import_onnxscript_does_not_load_onnx_ir():
    code = "import sys, onnxscript; print('onnx_ir' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_compiling_and_running_eagerly_do_not_load_onnx_ir(tmp_path):
    """onnx_ir (and the sympy it imports) is loaded by the first proto or model made, not
    by ``@script()`` or an eager call: a module of scripted functions imports fast."""
    module = tmp_path / "scripted.py"
    module.write_text(
        "import sys\n"
        "import numpy as np\n"
        "from onnxscript import FLOAT, script\n"
        "from onnxscript import opset18 as op\n\n"
        "@script()\n"
        "def relu(x: FLOAT['N']) -> FLOAT['N']:\n"
        "    return op.Relu(x)\n\n"
        "print('onnx_ir' in sys.modules)\n"
        "relu(np.ones(3, np.float32))\n"
        "print('onnx_ir' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, str(module)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
