"""Opset objects for every version of the standard domains that the installed onnx defines.

``opset1`` ... ``opsetN`` are the ``ai.onnx`` opsets, ``opset_ai_onnx_ml1`` ... the
``ai.onnx.ml`` ones and ``opset_ai_onnx_preview1`` ... the ``ai.onnx.preview`` ones; they
are created on first access from ``onnx.defs`` (nothing is generated into the source tree).
``Opset(domain, version)`` makes any other.

Each standard opset is the one instance of its own class (``type(opset18)`` is
``Opset18``, a subclass of ``Opset17`` ... of ``Opset``), as in onnxscript 0.7, whose
``onnxscript.onnx_opset._impl.opsetN`` modules name these classes; calling the class gives
that instance back.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from onnxscript import schemas

if TYPE_CHECKING:
    from onnxscript.values import Opset

_PREFIXES = {
    "opset": "",
    "opset_ai_onnx_ml": "ai.onnx.ml",
    "opset_ai_onnx_preview": "ai.onnx.preview",
}
"""The prefix of each standard domain's opset objects (``opset18``), and the domain."""

_CLASS_PREFIXES = {
    "": "Opset",
    "ai.onnx.ml": "Opset_ai_onnx_ml",
    "ai.onnx.preview": "Opset_ai_onnx_preview",
}
"""The prefix of each standard domain's opset classes (``Opset18``), as 0.7 names them."""

_PATTERN = re.compile(r"^(opset|opset_ai_onnx_ml|opset_ai_onnx_preview)(\d+)$")
_made: dict[tuple[str, int], Opset] = {}


def opset_names() -> list[str]:
    """The names of every opset object available with the installed onnx."""
    versions = schemas.domain_versions()
    names: list[str] = []
    for prefix, domain in _PREFIXES.items():
        first, last = versions.get(domain, (1, 0))
        names.extend(f"{prefix}{v}" for v in range(first, last + 1))
    return names


def get_opset(name: str) -> Opset | None:
    """The opset object called ``name`` (``"opset18"``), or ``None``."""
    match = _PATTERN.match(name)
    if match is None:
        return None
    domain = _PREFIXES[match.group(1)]
    version = int(match.group(2))
    first, last = schemas.domain_versions().get(domain, (1, 0))
    if not first <= version <= last:
        return None
    return standard_opset(domain, version)


def get_opset_class(name: str) -> type[Opset] | None:
    """The class called ``name`` (``"Opset18"``, ``"Opset_ai_onnx_ml5"``) of an opset the
    installed onnx defines, or ``None``."""
    for domain, prefix in _CLASS_PREFIXES.items():
        number = name.removeprefix(prefix)
        if number != name and number.isdigit() and not number.startswith("0"):
            first, last = schemas.domain_versions().get(domain, (1, 0))
            return opset_class(domain, int(number)) if first <= int(number) <= last else None
    return None


def standard_opset(domain: str, version: int) -> Opset:
    """The one opset object of a standard domain's ``version`` (the instance of
    :func:`opset_class`)."""
    opset = _made.get((domain, version))
    if opset is None:
        cls = opset_class(domain, version)
        opset = object.__new__(cls)
        opset._setup(domain, version)
        _made[(domain, version)] = opset
    return opset


@functools.cache
def opset_class(domain: str, version: int) -> type[Opset]:
    """The class of a standard domain's opset ``version`` (``Opset18`` for ``("", 18)``):
    a subclass of the previous version's class (of ``Opset`` for version 1) whose one
    instance is the opset object; ``Opset18()`` returns it. Made on first use, for any
    version (a version the installed onnx lacks has no ops)."""
    from onnxscript.values import Opset

    if domain not in _CLASS_PREFIXES:
        raise ValueError(f"{domain!r} is not a standard domain ({', '.join(_CLASS_PREFIXES)})")
    if version < 1:
        raise ValueError(f"opset version must be positive, got {version}")
    base = Opset if version == 1 else opset_class(domain, version - 1)
    name = f"{_CLASS_PREFIXES[domain]}{version}"
    label = domain or "ai.onnx"
    namespace = {
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": f"The {label} opset version {version} (one instance: ``{name}()``).",
        "__new__": _new_standard,
        "__init__": _init_standard,
        "__reduce__": _reduce_standard,
        "_standard": (domain, version),
    }
    return type(name, (base,), namespace)


def _new_standard(cls: type[Opset], domain: str | None = None, version: int | None = None) -> Opset:
    """``Opset18()``: the opset object (the arguments, as 0.7 takes them, are ignored)."""
    standard: tuple[str, int] = cls._standard  # type: ignore[attr-defined]
    return standard_opset(*standard)


def _init_standard(self: Opset, domain: str | None = None, version: int | None = None) -> None:
    """Nothing to do: the one instance was set up when made."""


def _reduce_standard(self: Opset) -> tuple[Any, tuple[str, int]]:
    """Pickled, copied or deep-copied, a standard opset is the same object."""
    standard: tuple[str, int] = type(self)._standard  # type: ignore[attr-defined]
    return standard_opset, standard


def __getattr__(name: str) -> Opset:
    opset = get_opset(name)
    if opset is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return opset


def __dir__() -> list[str]:
    return sorted([*globals(), *opset_names()])


__all__ = ["get_opset", "get_opset_class", "opset_class", "opset_names", "standard_opset"]
