"""onnxscript: write ONNX functions and models in Python.

``@script()`` compiles a Python function to ONNX; calling it runs it eagerly; the opsets
``opset1`` ... ``opsetN`` (every version the installed onnx defines) give the operators.

Importing the package loads only what these names need: the compiler, eager evaluation and
the reverse translator load on first use.
"""

import importlib as _importlib
from typing import TYPE_CHECKING as _TYPE_CHECKING
from typing import Any as _Any

from onnxscript._lazy_sympy import install as _defer_sympy
from onnxscript.errors import OnnxScriptError, ScriptError
from onnxscript.main import graph, script
from onnxscript.onnx_types import (
    BFLOAT16,
    BOOL,
    COMPLEX64,
    COMPLEX128,
    DOUBLE,
    FLOAT,
    FLOAT4E2M1,
    FLOAT6E2M3,
    FLOAT6E3M2,
    FLOAT8E4M3FN,
    FLOAT8E4M3FNUZ,
    FLOAT8E5M2,
    FLOAT8E5M2FNUZ,
    FLOAT8E8M0,
    FLOAT16,
    INT2,
    INT4,
    INT8,
    INT16,
    INT32,
    INT64,
    STRING,
    UINT2,
    UINT4,
    UINT8,
    UINT16,
    UINT32,
    UINT64,
    TensorType,
)
from onnxscript.values import GraphFunction, OnnxFunction, Op, Opset, TracedOnnxFunction

if _TYPE_CHECKING:
    from onnxscript import ir as ir
    from onnxscript import nn as nn
    from onnxscript import optimizer as optimizer
    from onnxscript.builder import GraphBuilder, OpBuilder
    from onnxscript.evaluator.tensor import Tensor
    from onnxscript.library_export import export_onnx_lib
    from onnxscript.reverse import proto2python
    from onnxscript.source import register_source

DEBUG = False
"""onnxscript 0.7's debugging flag (``onnxscript.DEBUG``); nothing here reads it."""

__version__ = "0.8.0"
"""Above 0.7.2, the last version of the package this one replaces (pyproject.toml says
the same)."""

_LAZY = {
    "GraphBuilder": "onnxscript.builder",
    "OpBuilder": "onnxscript.builder",
    "Tensor": "onnxscript.evaluator.tensor",
    "export_onnx_lib": "onnxscript.library_export",
    "proto2python": "onnxscript.reverse",
    "register_source": "onnxscript.source",
}


_SUBMODULES = frozenset({"ir", "nn", "optimizer"})
"""Submodules reached as attributes (``onnxscript.ir`` is the onnx_ir package)."""


def __getattr__(name: str) -> _Any:
    if name in _SUBMODULES:
        return _importlib.import_module(f"onnxscript.{name}")
    module = _LAZY.get(name)
    if module is not None:
        value = getattr(_importlib.import_module(module), name)
        globals()[name] = value
        return value
    from onnxscript.opsets import get_opset

    opset = get_opset(name)
    if opset is None:
        raise AttributeError(f"module 'onnxscript' has no attribute {name!r}")
    return opset


def __dir__() -> list[str]:
    from onnxscript.opsets import opset_names

    return sorted([*__all__, *opset_names(), *_SUBMODULES, "__version__"])


__all__ = [
    "BFLOAT16",
    "BOOL",
    "COMPLEX64",
    "COMPLEX128",
    "DEBUG",
    "DOUBLE",
    "FLOAT",
    "FLOAT4E2M1",
    "FLOAT6E2M3",
    "FLOAT6E3M2",
    "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ",
    "FLOAT8E5M2",
    "FLOAT8E5M2FNUZ",
    "FLOAT8E8M0",
    "FLOAT16",
    "INT2",
    "INT4",
    "INT8",
    "INT16",
    "INT32",
    "INT64",
    "STRING",
    "UINT2",
    "UINT4",
    "UINT8",
    "UINT16",
    "UINT32",
    "UINT64",
    "GraphBuilder",
    "GraphFunction",
    "OnnxFunction",
    "OnnxScriptError",
    "Op",
    "OpBuilder",
    "Opset",
    "ScriptError",
    "Tensor",
    "TensorType",
    "TracedOnnxFunction",
    "export_onnx_lib",
    "graph",
    "proto2python",
    "register_source",
    "script",
]

_defer_sympy()  # onnx_ir loads sympy only when symbolic arithmetic needs it
