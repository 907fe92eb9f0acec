"""``onnxscript.nn``: PyTorch-style modules that build ONNX models with the builder.

``Module`` (parameters and submodules registered by attribute assignment,
``forward(self, op, ...)`` called as ``module(op, ...)``), ``Parameter`` (an
``onnx_ir.Value`` that becomes an initializer named by its module path),
``ModuleList`` and ``Sequential``. ``load_state_dict`` takes onnx_ir tensors, numpy
arrays or torch tensors. See docs/nn.md.
"""

from __future__ import annotations

from onnxscript.nn.containers import ModuleList, Sequential
from onnxscript.nn.module import LoadResult, Module
from onnxscript.nn.parameter import Parameter
from onnxscript.nn.state import StateDictError

__all__ = ["LoadResult", "Module", "ModuleList", "Parameter", "Sequential", "StateDictError"]
