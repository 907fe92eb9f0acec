"""Opset objects for every version of the standard domains that the installed onnx defines.

``opset1`` ... ``opsetN`` are the ``ai.onnx`` opsets and ``opset_ai_onnx_ml1`` ... the
``ai.onnx.ml`` ones; they are created on first access from ``onnx.defs`` (nothing is
generated into the source tree). ``Opset(domain, version)`` makes any other.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from onnxscript import schemas

if TYPE_CHECKING:
    from onnxscript.values import Opset

_PREFIXES = {"opset": "", "opset_ai_onnx_ml": "ai.onnx.ml"}
_PATTERN = re.compile(r"^(opset|opset_ai_onnx_ml)(\d+)$")
_made: dict[str, Opset] = {}


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
    opset = _made.get(name)
    if opset is None:
        from onnxscript.values import Opset

        opset = _made[name] = Opset(domain, version)
    return opset


def __getattr__(name: str) -> Opset:
    opset = get_opset(name)
    if opset is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return opset


def __dir__() -> list[str]:
    return sorted([*globals(), *opset_names()])


__all__ = ["get_opset", "opset_names"]
