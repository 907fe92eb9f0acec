"""Entry points that frameworks import by a versioned module name.

``torch_2_X`` is what torch.onnx of that version imports (``torch/onnx/_internal/
_lazy_import.py``): the ATen function table, the optimizer, the version converter, the
checker and saving with external data. The paths stay importable so that released torch
versions keep working, but a module exists only where torch's API changed: ``torch_2_5``,
``torch_2_6`` (adds ``torchlib_opset``) and ``torch_2_8`` (``optimize`` also fuses into
opset-23 ops). Every other version is an alias: importing it gives the module it equals.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

ALIASES: dict[str, str] = {
    "torch_2_7": "torch_2_5",
    **{f"torch_2_{minor}": "torch_2_8" for minor in range(9, 16)},
}
"""The versions whose entry points did not change, and the module each one equals."""


class _AliasLoader(importlib.abc.Loader):
    """Loads an alias as the module it equals (imported once, shared by every alias)."""

    def __init__(self, target: str) -> None:
        self._target = target
        self._spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self._target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        """Nothing runs (the module ran when imported under its own name); the import
        system set the alias's spec on it, and its own is put back."""
        module.__spec__ = self._spec


class _AliasFinder(importlib.abc.MetaPathFinder):
    """Finds ``onnxscript._framework_apis.<alias>`` for the names in :data:`ALIASES`."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in ALIASES:
            return None
        return importlib.util.spec_from_loader(
            fullname, _AliasLoader(f"{__name__}.{ALIASES[name]}")
        )


if not any(isinstance(finder, _AliasFinder) for finder in sys.meta_path):
    sys.meta_path.append(_AliasFinder())

__all__ = ["ALIASES"]
