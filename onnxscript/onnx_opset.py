"""``from onnxscript.onnx_opset import opset18 as op``: the module path of onnxscript 0.7
for the standard opsets (the same objects as ``onnxscript.opset18``).

Every ``opsetN`` the installed onnx defines resolves on first use, as does
``opset_ai_onnx_ml<N>`` for the ``ai.onnx.ml`` domain.
"""

from __future__ import annotations

from onnxscript.opsets import get_opset, opset_names
from onnxscript.values import Opset


def __getattr__(name: str) -> Opset:
    opset = get_opset(name)
    if opset is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return opset


def __dir__() -> list[str]:
    return sorted([*opset_names(), "__doc__", "__name__"])


__all__ = opset_names()  # computed: every opset the installed onnx defines
