"""The tracing front end: Python code calling ops on symbolic values records a graph.

``GraphBuilder`` / ``OpBuilder`` build ``onnx_ir`` graphs op by op (with constant
promotion, shape/type inference and folding while building); ``trace.trace_function``
runs a traced function's body on symbolic inputs made from its annotations. Names are
resolved on first use, so ``import onnxscript.builder`` stays light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from onnxscript.builder.diagnostics import BuilderError
    from onnxscript.builder.graph_builder import GraphBuilder
    from onnxscript.builder.op_builder import OpBuilder

_WHERE = {
    "BuilderError": "onnxscript.builder.diagnostics",
    "GraphBuilder": "onnxscript.builder.graph_builder",
    "OpBuilder": "onnxscript.builder.op_builder",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'onnxscript.builder' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


__all__ = ["BuilderError", "GraphBuilder", "OpBuilder"]
