"""Every adapter, keyed by (op_type, from_version, to_version), and the steps that have
none, with the reason."""

from __future__ import annotations

from onnxscript.version_converter._context import Adapter, nothing
from onnxscript.version_converter._versions import Key
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
from onnxscript.version_converter.compatible_upgrades import COMPATIBLE_UPGRADES

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
    """The adapter of a step: a registered one, or nothing to do for an upgrade listed in
    ``COMPATIBLE_UPGRADES``."""
    adapter = ADAPTERS.get(key)
    if adapter is None and key[2] > key[1] and (key[0], key[2]) in COMPATIBLE_UPGRADES:
        return Adapter(nothing, "unchanged (compatible upgrade)")
    return adapter


__all__ = ["ADAPTERS", "WITHOUT_ADAPTER", "lookup", "register"]
