"""``onnxscript.ir`` is the ``onnx_ir`` package (PyPI ``onnx-ir``), the in-memory IR that
torch.onnx and code written for onnxscript 0.7 use: ``from onnxscript import ir``,
``ir.Model``, ``ir.serde``, ``onnxscript.ir.convenience``.

This module replaces itself with ``onnx_ir`` in ``sys.modules``, and submodules
(``onnxscript.ir.convenience``, ``onnxscript.ir.passes.common``, ...) resolve to the same
module objects as ``onnx_ir.convenience`` and so on, so that classes are shared. The one
exception is 0.7's ``onnxscript.ir._schemas`` (``op_signature_from_function``,
``get_attr_type``), which onnx_ir lacks: it is :mod:`onnxscript.function_schema`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types

import onnx_ir
from onnx_ir import *  # noqa: F403

_PREFIX = __name__ + "."

_OWN = {"_schemas": "onnxscript.function_schema"}
"""Submodules of ``onnxscript.ir`` that are modules of this package, not of onnx_ir."""


class _SubmoduleAlias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``onnxscript.ir.X`` as the module ``onnx_ir.X``."""

    def find_spec(
        self, fullname: str, path: object = None, target: object = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(_PREFIX):
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def __init__(self) -> None:
        self._specs: dict[str, importlib.machinery.ModuleSpec | None] = {}

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        name = spec.name[len(_PREFIX) :]
        module = importlib.import_module(_OWN.get(name) or "onnx_ir." + name)
        self._specs[module.__name__] = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        """The module already ran as ``onnx_ir.X``; the import system has just set its
        ``__spec__`` to the alias's, which is put back."""
        module.__spec__ = self._specs.pop(module.__name__, module.__spec__)
        if module.__spec__ is not None:
            module.__loader__ = module.__spec__.loader


if not any(isinstance(f, _SubmoduleAlias) for f in sys.meta_path):
    sys.meta_path.insert(0, _SubmoduleAlias())
sys.modules[__name__] = onnx_ir
