"""``from onnxscript.onnx_opset import opset18 as op``: the module path of onnxscript 0.7
for the standard opsets (the same objects as ``onnxscript.opset18``).

Every ``opsetN`` the installed onnx defines resolves on first use, as do
``opset_ai_onnx_ml<N>`` (``ai.onnx.ml``), ``opset_ai_onnx_preview<N>`` (``ai.onnx.preview``),
their classes (``Opset18``, ``Opset_ai_onnx_ml5``: see ``onnxscript.opsets.opset_class``) and
``all_opsets``, every one of them by ``(domain, version)``. ``default_opset`` is the
``ai.onnx`` opset a script gets when it names none (the newest the installed onnxruntime
runs). ``_impl.opsetN`` are 0.7's modules of the classes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from onnxscript.opsets import get_opset, get_opset_class, opset_names

if TYPE_CHECKING:
    from collections.abc import Mapping

    from onnxscript.values import Opset

    all_opsets: Mapping[tuple[str, int], Opset]
    default_opset: Opset


def _all_opsets() -> dict[tuple[str, int], Opset]:
    found: dict[tuple[str, int], Opset] = {}
    for name in opset_names():
        opset = get_opset(name)
        assert opset is not None
        found[(opset.domain, opset.version)] = opset
    return found


def __getattr__(name: str) -> Any:
    if name == "default_opset":
        from onnxscript.defaults import default_opset_version

        name = f"opset{default_opset_version()}"
    elif name == "all_opsets":
        return _all_opsets()
    cls = get_opset_class(name)
    if cls is not None:
        return cls
    opset = get_opset(name)
    if opset is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return opset


def __dir__() -> list[str]:
    classes = [type(opset).__name__ for opset in _all_opsets().values()]
    return sorted([*__all__, *classes, "__doc__", "__name__"])


__all__ = ["all_opsets", "default_opset", *opset_names()]  # computed: the installed onnx's
