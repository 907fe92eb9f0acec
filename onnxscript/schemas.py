"""Lookups into the installed onnx's operator schemas (``onnx.defs``)."""

from __future__ import annotations

import difflib
import functools
from collections.abc import Iterable

import onnx
import onnx.defs

STANDARD_DOMAINS = (
    "",
    "ai.onnx.ml",
    "ai.onnx.preview",
    "ai.onnx.preview.training",
    "ai.onnx.training",
)


def canonical_domain(domain: str) -> str:
    """``"ai.onnx"`` and ``""`` name the same domain; use ``""``."""
    return "" if domain == "ai.onnx" else domain


def imported_versions(opset_import: Iterable[onnx.OperatorSetIdProto]) -> dict[str, int]:
    """A proto's opset imports as {canonical domain: version}."""
    return {canonical_domain(o.domain): int(o.version) for o in opset_import}


@functools.cache
def domain_versions() -> dict[str, tuple[int, int]]:
    """The (first, last) opset version of every domain the installed onnx defines."""
    mapping: dict[str, tuple[int, int]] = onnx.defs.C.schema_version_map()
    return dict(mapping)


def has_schemas(domain: str) -> bool:
    """Whether onnx defines schemas for ``domain`` (custom domains have none)."""
    return canonical_domain(domain) in domain_versions()


@functools.lru_cache(maxsize=4096)
def get_schema(domain: str, name: str, version: int) -> onnx.defs.OpSchema | None:
    """The schema of ``domain.name`` in effect at opset ``version``, or ``None``."""
    domain = canonical_domain(domain)
    try:
        return onnx.defs.get_schema(name, version, domain)
    except onnx.defs.SchemaError:
        return None


@functools.lru_cache(maxsize=64)
def op_names(domain: str, version: int) -> tuple[str, ...]:
    """Every op name defined in ``domain`` at opset ``version``, sorted."""
    domain = canonical_domain(domain)
    names = {
        s.name
        for s in onnx.defs.get_all_schemas_with_history()
        if s.domain == domain and s.since_version <= version
    }
    return tuple(sorted(names))


def suggest(domain: str, name: str, version: int, limit: int = 3) -> list[str]:
    """Op names close to a misspelled ``name`` (case-insensitive first)."""
    names = op_names(domain, version)
    lowered = {n.lower(): n for n in names}
    exact_case = lowered.get(name.lower())
    found = [exact_case] if exact_case else []
    for match in difflib.get_close_matches(name.lower(), list(lowered), n=limit, cutoff=0.6):
        if lowered[match] not in found:
            found.append(lowered[match])
    return found[:limit]
