"""Which function implements which ATen overload.

The library's functions are marked with :func:`aten`; :func:`collect_ops` imports the op
modules (every module of ``aten/``) and lists what is marked. Nothing is filled at import
time: :data:`default_registry` reads the marks on first use.

Users register functions of their own with :func:`torch_op` (onnxscript 0.7's API), into
:data:`default_registry` unless another :class:`Registry` is given; torch.onnx reads the
default registry through ``onnxscript._framework_apis``' ``get_torchlib_ops()``.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from onnxscript.values import OnnxFunction, Opset, TracedOnnxFunction

TORCHLIB_OPSET = Opset("", 18)
"""The ai.onnx opset the library is written in (torch.onnx's ``TORCHLIB_OPSET``)."""

TORCHLIB_DOMAIN = Opset("pkg.onnxscript.torch_lib", 1)
"""The domain of the library's functions (when torch adds one as a model function)."""

OPS_PACKAGE = "onnxscript.function_libs.torch_lib.aten"
"""The package whose every module is an op module (shared helpers live in ``helpers/``;
``ops/`` holds onnxscript 0.7's module paths, bound to these modules' functions)."""


def op_modules() -> list[str]:
    """The op modules, found by walking :data:`OPS_PACKAGE` (sorted by name)."""
    package = importlib.import_module(OPS_PACKAGE)
    found = pkgutil.iter_modules(package.__path__, f"{OPS_PACKAGE}.")
    return sorted(module.name for module in found)


_MARK = "_torchlib_overloads"


@dataclass(frozen=True)
class OpRecord:
    """One row of ``get_torchlib_ops()``: torch.onnx reads ``qualified_name``,
    ``function`` and ``is_complex``."""

    qualified_name: str
    function: OnnxFunction | TracedOnnxFunction
    is_complex: bool = False

    @property
    def domain(self) -> str:
        """The function's domain (``pkg.onnxscript.torch_lib`` for the library's)."""
        return self.function.opset.domain

    @property
    def name(self) -> str:
        """The function's name."""
        return self.function.name


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


class OverloadedFunction:
    """The functions registered for one qualified name (``"aten::add.Tensor"``):
    ``overloads`` for real inputs and ``complex`` for complex ones, in registration
    order (torch.onnx calls the first)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.overloads: list[Any] = []
        self.complex: list[Any] = []


class Registry:
    """Qualified ATen names (``"aten::add.Tensor"``) and the functions registered for them.

    A second function for a name (real or complex) is refused with a ``UserWarning``: the
    first registered stays the one torch.onnx calls.
    """

    def __init__(self) -> None:
        self._registry: dict[str, OverloadedFunction] = {}

    def register(self, func: Any, name: str, *, complex: bool = False) -> None:
        """Register ``func`` for the qualified ``name`` (as a complex variant if ``complex``)."""
        _add(self._registry, func, name, complex)

    def __getitem__(self, name: str) -> OverloadedFunction:
        return self._registry[name]

    def __contains__(self, name: object) -> bool:
        return name in self._registry

    def __iter__(self) -> Iterator[str]:
        return iter(self._registry)

    def __len__(self) -> int:
        return len(self._registry)

    def items(self) -> Iterator[tuple[str, OverloadedFunction]]:
        """``(qualified name, OverloadedFunction)`` pairs, in registration order."""
        yield from self._registry.items()

    def values(self) -> Iterator[OverloadedFunction]:
        """The :class:`OverloadedFunction` of each name, in registration order."""
        yield from self._registry.values()


def _add(entries: dict[str, OverloadedFunction], func: Any, name: str, complex: bool) -> None:
    entry = entries.setdefault(name, OverloadedFunction(name))
    functions = entry.complex if complex else entry.overloads
    if functions:
        kind = "complex" if complex else "real"
        warnings.warn(
            f"{name} has a {kind} function registered already ({functions[0]!r}): "
            f"{func!r} is not registered.",
            stacklevel=3,
        )
        return
    functions.append(func)


class _LibraryRegistry(Registry):
    """The default registry: the library's functions, read from their :func:`aten` marks
    when the registry is first read (or ``torch_lib.ops``, onnxscript 0.7's path, is
    imported), so that ``import onnxscript`` loads no op module; and the functions users
    register. As in onnxscript 0.7, where ``torch_lib.ops`` filled the registry when
    imported, a function a user registers before that wins over the library's for the
    same name (the library's is refused with a warning), and one registered after is
    refused."""

    def __init__(self) -> None:
        self._entries: dict[str, OverloadedFunction] = {}
        self._loaded = False

    @property
    def _registry(self) -> dict[str, OverloadedFunction]:
        self.load()
        return self._entries

    @_registry.setter
    def _registry(self, entries: dict[str, OverloadedFunction]) -> None:
        self._entries = entries

    def load(self) -> None:
        """Register the library's functions (once)."""
        if self._loaded:
            return
        self._loaded = True
        for record in collect_ops():
            _add(self._entries, record.function, record.qualified_name, record.is_complex)

    def register(self, func: Any, name: str, *, complex: bool = False) -> None:
        _add(self._entries, func, name, complex)


default_registry: Registry = _LibraryRegistry()
"""Every function of the library, and those users register with :func:`torch_op`."""


def load_library() -> None:
    """Fill :data:`default_registry` with the library's functions now (it does so when
    first read)."""
    assert isinstance(default_registry, _LibraryRegistry)
    default_registry.load()


def registered_ops(registry: Registry = default_registry) -> list[OpRecord]:
    """One record per function registered for a name (real ones first), for torch.onnx."""
    return [
        OpRecord(name, function, is_complex)
        for name, entry in registry.items()
        for is_complex, functions in ((False, entry.overloads), (True, entry.complex))
        for function in functions
    ]


_QUALIFIED_NAME = re.compile(r"\w+::\w+(\.[\w.]+)?", re.ASCII)


def _qualified_names(name: str | tuple[str, ...]) -> tuple[str, ...]:
    if isinstance(name, str):
        names: tuple[str, ...] = (name,)
    elif isinstance(name, tuple) and all(isinstance(n, str) for n in name):
        names = name
    else:
        raise TypeError(f"Name must be a string or a tuple of strings, got {name!r}")
    for qualified in names:
        if not _QUALIFIED_NAME.fullmatch(qualified) or qualified.endswith(".default"):
            raise ValueError(
                f"Invalid name {qualified!r}. Must be in the form 'namespace::name' for "
                "default overloads or 'namespace::name.overload' for other overloads."
            )
    return names


def torch_op(
    name: str | tuple[str, ...],
    *,
    registry: Registry | None = None,
    trace_only: bool = False,
    private: bool = False,
    complex: bool = False,
) -> Callable[[Callable[..., Any]], OnnxFunction | TracedOnnxFunction]:
    """Register a function as the translation of ATen overloads (onnxscript 0.7's API).

    Args:
        name: the qualified name (``"aten::relu"``, ``"aten::add.Tensor"``; the default
            overload without ``.default``), or a tuple of them.
        registry: where to register; :data:`default_registry` (what torch.onnx reads)
            when None.
        trace_only: keep the function traced (its Python body runs at each call, as the
            library's own) instead of compiling it with ``@script``.
        private: do not register the function (a helper other functions call).
        complex: register it as the variant for complex inputs.

    Returns a decorator giving an ``OnnxFunction`` of the ``pkg.onnxscript.torch_lib``
    domain (a ``TracedOnnxFunction`` with ``trace_only``).
    """
    names = _qualified_names(name)

    def wrapper(func: Callable[..., Any]) -> OnnxFunction | TracedOnnxFunction:
        from onnxscript.main import script

        processed: OnnxFunction | TracedOnnxFunction
        if trace_only:
            processed = script(TORCHLIB_DOMAIN, trace_only=True)(func)
        else:
            processed = script(TORCHLIB_DOMAIN)(func)
        if not private:
            target = default_registry if registry is None else registry
            for qualified in names:
                target.register(processed, qualified, complex=complex)
        return processed

    return wrapper


__all__ = [
    "OPS_PACKAGE",
    "TORCHLIB_DOMAIN",
    "TORCHLIB_OPSET",
    "OpRecord",
    "OverloadedFunction",
    "Registry",
    "aten",
    "collect_ops",
    "default_registry",
    "load_library",
    "op_modules",
    "registered_ops",
    "torch_op",
]
