"""Every adapter, keyed by (op_type, from_version, to_version), and the steps that have
none, with the reason."""

from __future__ import annotations

import functools

from onnxscript.version_converter._context import Adapter, nothing
from onnxscript.version_converter._versions import Key, versions
from onnxscript.version_converter.adapters import (
    axes_inputs,
    compatible,
    decompositions,
    dropout,
    misc,
    negative_axes,
    normalization,
    pad,
    pooling,
    quantization,
    recurrent,
    resize,
    scatter,
    softmax,
)

_FAMILIES = (
    compatible,
    negative_axes,
    axes_inputs,
    resize,
    softmax,
    normalization,
    recurrent,
    dropout,
    scatter,
    pad,
    pooling,
    quantization,
    misc,
    decompositions,
)


def _collect() -> dict[Key, Adapter]:
    table: dict[Key, Adapter] = {}
    for family in _FAMILIES:
        clash = set(table) & set(family.ADAPTERS)
        assert not clash, f"adapters defined twice: {sorted(clash)}"
        table |= family.ADAPTERS
    return table


ADAPTERS: dict[Key, Adapter] = _collect()
"""(op_type, from_version, to_version) -> the adapter of that step."""

WITHOUT_ADAPTER: dict[Key, str] = {
    ("Scan", 8, 9): "Scan-8 scans a batch axis and takes sequence_lens; Scan-9 has neither",
    ("Scan", 9, 8): "Scan-8 scans a batch axis and takes sequence_lens; Scan-9 has neither",
    ("Upsample", 10, 9): "never taken: a node of deprecated Upsample-10 is read as Upsample-9 "
    "(Resize-10 goes down to Upsample-9)",
    ("Scatter", 11, 9): "never taken: a node of deprecated Scatter-11 is read as Scatter-9 "
    "(ScatterElements-11 goes down to Scatter-9)",
}
"""Steps no adapter takes, and why (``fallback=True`` hands them to onnx's converter)."""


def register(key: Key, adapter: Adapter) -> None:
    """Make ``adapter`` the one of step ``key`` (replacing the package's, if any)."""
    ADAPTERS[key] = adapter


def lookup(key: Key) -> Adapter | None:
    """The adapter of a step (a registered one, or the package's), or None."""
    return ADAPTERS.get(key)


def _compatible_upgrades() -> frozenset[tuple[str, int]]:
    return frozenset(
        (op, new)
        for (op, old, new), adapter in ADAPTERS.items()
        if new > old and adapter.apply is nothing
    )


COMPATIBLE_UPGRADES: frozenset[tuple[str, int]] = _compatible_upgrades()
"""(op type, version): the upgrades to ``version`` of ``op type`` that leave every node
of the version before it unchanged (the adapter of the step up does nothing: new element
types, new attributes or attribute values whose defaults keep the old behaviour). Read
from :data:`ADAPTERS`, the one table of steps."""


@functools.lru_cache(maxsize=4096)
def upgrades_unchanged(op_type: str, version: int, target: int) -> bool:
    """Whether an ai.onnx ``op_type`` node written at opset ``version`` means the same at
    opset ``target`` (``target >= version``) as it is: every step up in between is a
    compatible upgrade (:data:`COMPATIBLE_UPGRADES`)."""
    known = versions(op_type)
    if target < version or not known or version < known[0]:
        return False
    return all((op_type, v) in COMPATIBLE_UPGRADES for v in known if version < v <= target)


__all__ = [
    "ADAPTERS",
    "COMPATIBLE_UPGRADES",
    "WITHOUT_ADAPTER",
    "lookup",
    "register",
    "upgrades_unchanged",
]
