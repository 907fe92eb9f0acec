"""Opset conversion of models (see ``compatible_upgrades`` for what needs no change)."""

from onnxscript.version_converter.compatible_upgrades import (
    COMPATIBLE_UPGRADES,
    upgrades_unchanged,
)

__all__ = ["COMPATIBLE_UPGRADES", "upgrades_unchanged"]
