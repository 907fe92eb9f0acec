"""``from onnxscript.onnx_opset import opset18 as op``: the module path of onnxscript 0.7
for the standard opsets (the same objects as ``onnxscript.opset18``).

Every ``opsetN`` the installed onnx defines resolves on first use, as does
``opset_ai_onnx_ml<N>`` for the ``ai.onnx.ml`` domain. ``default_opset`` is the ``ai.onnx``
opset a script gets when it names none (the newest the installed onnxruntime runs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from onnxscript.opsets import get_opset, opset_names
from onnxscript.values import Opset

if TYPE_CHECKING:
    default_opset: Opset


def __getattr__(name: str) -> Opset:
    if name == "default_opset":
        from onnxscript.defaults import default_opset_version

        name = f"opset{default_opset_version()}"
    opset = get_opset(name)
    if opset is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return opset


def __dir__() -> list[str]:
    return sorted([*opset_names(), "default_opset", "__doc__", "__name__"])


__all__ = [*opset_names(), "default_opset"]  # computed: the installed onnx's opsets
