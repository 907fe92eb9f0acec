"""onnx_ir without sympy until sympy is used.

onnx_ir imports sympy when it is imported (~220 ms of its ~240 ms), but uses it only for
arithmetic on symbolic dimensions. The compiler loads onnx_ir for its first proto, so
without this module a process that compiles one function and saves it would pay for sympy
and never use it.

:func:`install` puts a one-shot finder on ``sys.meta_path`` that acts only when onnx_ir's
``_core`` module is first imported and sympy is not imported yet: while ``_core`` runs, the
name ``sympy`` is a stand-in module, and ``onnx_ir._symbolic_shapes`` (which reads sympy at
import) is loaded lazily. The stand-in imports the real sympy on its first attribute read
and then replaces itself in ``_core``. Nothing else sees it: ``sys.modules["sympy"]`` is
restored as soon as ``_core`` has run, so any later ``import sympy`` is the real one.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence
from typing import Any

_CORE = "onnx_ir._core"
_SHAPES = "onnx_ir._symbolic_shapes"


class _Sympy(types.ModuleType):
    """Stands in for sympy in the modules that import it while the finder is active."""

    def __init__(self) -> None:
        super().__init__("sympy")
        self.__dict__["_holder"] = None  # onnx_ir's _core, once it has run

    def __getattr__(self, name: str) -> Any:
        if sys.modules.get("sympy") is self:
            del sys.modules["sympy"]
        real = importlib.import_module("sympy")
        holder = self.__dict__["_holder"]
        if getattr(holder, "sympy", None) is self:
            holder.sympy = real
        return getattr(real, name)


def _real_sympy_loaded() -> bool:
    found = sys.modules.get("sympy")
    return found is not None and not isinstance(found, _Sympy)


class _CoreLoader(importlib.abc.Loader):
    """Runs onnx_ir's ``_core`` with the stand-in as ``sympy``, then retires the finder."""

    def __init__(self, loader: Any, finder: _Finder) -> None:
        self._loader = loader
        self._finder = finder

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        module: types.ModuleType | None = self._loader.create_module(spec)
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        stand_in = _Sympy()
        sys.modules["sympy"] = stand_in
        try:
            self._loader.exec_module(module)
        finally:
            if sys.modules.get("sympy") is stand_in:
                del sys.modules["sympy"]
            if self._finder in sys.meta_path:
                sys.meta_path.remove(self._finder)
            module.__loader__ = self._loader
            if module.__spec__ is not None:
                module.__spec__.loader = self._loader
        stand_in.__dict__["_holder"] = module


class _Finder(importlib.abc.MetaPathFinder):
    """Finds onnx_ir's ``_core`` and ``_symbolic_shapes`` through the other finders and
    changes how they are loaded, if the real sympy is not imported yet."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in (_CORE, _SHAPES):
            return None
        spec = _spec_from_others(self, fullname, path, target)
        if spec is None or spec.loader is None or _real_sympy_loaded():
            return spec
        if fullname == _CORE:
            spec.loader = _CoreLoader(spec.loader, self)
        else:
            spec.loader = importlib.util.LazyLoader(spec.loader)
        return spec


def _spec_from_others(
    finder: _Finder, name: str, path: Sequence[str] | None, target: types.ModuleType | None
) -> importlib.machinery.ModuleSpec | None:
    for other in sys.meta_path:
        if other is finder or not hasattr(other, "find_spec"):
            continue
        spec: importlib.machinery.ModuleSpec | None = other.find_spec(name, path, target)
        if spec is not None:
            return spec
    return None


def install() -> None:
    """Defer sympy in onnx_ir, unless onnx_ir or sympy is imported already."""
    if _CORE in sys.modules or "sympy" in sys.modules:
        return
    if any(isinstance(f, _Finder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _Finder())
