"""onnx_ir is loaded without sympy until symbolic arithmetic needs it (onnxscript/_lazy_sympy.py).

Each check runs in a fresh interpreter: what is imported first is the point."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

_SCRIPTED = """
import sys
from onnxscript import FLOAT, script
from onnxscript import opset18 as op

@script()
def relu(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Relu(x)

model = relu.to_model_proto()
"""


def _run(tmp_path: Path, body: str) -> list[str]:
    module = tmp_path / "check.py"
    module.write_text(textwrap.dedent(body))
    out = subprocess.run([sys.executable, str(module)], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_a_model_is_made_without_importing_sympy(tmp_path):
    printed = _run(
        tmp_path, _SCRIPTED + "print('onnx_ir' in sys.modules, 'sympy' in sys.modules)\n"
    )
    assert printed == ["True", "False"]


def test_symbolic_arithmetic_imports_the_real_sympy(tmp_path):
    printed = _run(
        tmp_path,
        _SCRIPTED
        + """
import onnx_ir
dim = onnx_ir.SymbolicDim("N") * 2 + 1
print(dim, dim.evaluate({"N": 3}))
import sympy
print(onnx_ir._core.sympy is sympy, type(sympy).__name__, sympy.Symbol("x") + 1)
print(sys.modules["onnx_ir._symbolic_shapes"].sympy is sympy)
""",
    )
    assert printed == ["2*N", "+", "1", "7", "True", "module", "x", "+", "1", "True"]


def test_sympy_imported_first_is_used_as_is(tmp_path):
    printed = _run(
        tmp_path,
        "import sympy\n" + _SCRIPTED + "import onnx_ir\nprint(onnx_ir._core.sympy is sympy)\n",
    )
    assert printed == ["True"]


def test_torch_exports_with_dynamic_shapes_after_a_model_was_made(tmp_path):
    pytest.importorskip("torch")
    printed = _run(
        tmp_path,
        _SCRIPTED
        + """
import torch

class Twice(torch.nn.Module):
    def forward(self, x):
        return x.reshape(x.shape[0] * 2, -1)

batch = torch.export.Dim("batch")
program = torch.onnx.export(
    Twice(), (torch.ones(4, 6),), dynamic_shapes=({0: batch},), dynamo=True, verbose=False
)
print(program.model.graph.outputs[0].shape)
""",
    )
    assert printed[-1] == "[2*batch,3]"
