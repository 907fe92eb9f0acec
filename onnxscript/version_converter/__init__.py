"""Opset conversion of ``onnx_ir`` models, in place, op by op (see ``docs/version_converter.md``).

``convert_version(model, target_version, fallback=False)`` and ``ConvertVersionPass``
convert every ai.onnx node of a model (main graph, subgraphs, model-local functions) up
or down with one adapter per schema change (``registry.ADAPTERS``);
``COMPATIBLE_UPGRADES`` (read from that table) are the upgrades that change nothing.
"""

from onnxscript.version_converter._context import VersionConversionError
from onnxscript.version_converter.driver import ConvertVersionPass, convert_version
from onnxscript.version_converter.registry import COMPATIBLE_UPGRADES, upgrades_unchanged

__all__ = [
    "COMPATIBLE_UPGRADES",
    "ConvertVersionPass",
    "VersionConversionError",
    "convert_version",
    "upgrades_unchanged",
]
