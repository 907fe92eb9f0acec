"""Which function implements which ATen overload.

A function is marked with :func:`aten`; :func:`collect_ops` imports the op modules (every
module of ``ops/``) and lists what is marked (no registry object is filled at import time).
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from onnxscript.values import OnnxFunction, Opset, TracedOnnxFunction

TORCHLIB_OPSET = Opset("", 18)
"""The ai.onnx opset the library is written in (torch.onnx's ``TORCHLIB_OPSET``)."""

TORCHLIB_DOMAIN = Opset("pkg.onnxscript.torch_lib", 1)
"""The domain of the library's functions (when torch adds one as a model function)."""

OPS_PACKAGE = "onnxscript.function_libs.torch_lib.ops"
"""The package whose every module is an op module (shared helpers live in ``helpers/``)."""


def op_modules() -> list[str]:
    """The op modules, found by walking :data:`OPS_PACKAGE` (sorted by name)."""
    package = importlib.import_module(OPS_PACKAGE)
    found = pkgutil.iter_modules(package.__path__, f"{OPS_PACKAGE}.")
    return sorted(module.name for module in found)


_MARK = "_torchlib_overloads"


@dataclass(frozen=True)
class OpRecord:
    """One row of ``get_torchlib_ops()``: torch.onnx reads exactly these fields."""

    qualified_name: str
    function: OnnxFunction | TracedOnnxFunction
    is_complex: bool = False


def aten(*names: str, complex: bool = False) -> Callable[[Callable[..., Any]], TracedOnnxFunction]:
    """Mark a traced ATen function: ``@aten("aten::add.Tensor", "aten::add.Scalar")``.

    The body runs as Python each time torch.onnx calls it (so it may look at ``x.dtype``,
    ranks and which optional inputs are given) and records opset-18 ops.
    """

    def mark(fn: Callable[..., Any]) -> TracedOnnxFunction:
        traced = TracedOnnxFunction(TORCHLIB_DOMAIN, fn)
        setattr(traced, _MARK, (fn.__module__, names, complex))
        return traced

    return mark


def collect_ops() -> list[OpRecord]:
    """Every marked function of the op modules, one record per overload name (a function
    one op module imports from another is listed once, by the module defining it)."""
    records: list[OpRecord] = []
    for module_name in op_modules():
        module = importlib.import_module(module_name)
        for value in vars(module).values():
            mark = getattr(value, _MARK, None)
            if mark is None:
                continue
            defined_in, names, is_complex = mark
            if defined_in != module_name:
                continue
            records.extend(OpRecord(name, value, is_complex) for name in names)
    return records


__all__ = [
    "OPS_PACKAGE",
    "TORCHLIB_DOMAIN",
    "TORCHLIB_OPSET",
    "OpRecord",
    "aten",
    "collect_ops",
    "op_modules",
]
