"""onnxscript 0.7's ``onnxscript.version_converter._version_converter``, over this package's
converter (``driver``, ``registry``, ``adapters/``).

- ``convert_version`` is :func:`onnxscript.version_converter.convert_version`;
  ``VersionConverterError`` its error (also a ``RuntimeError``, as 0.7's is).
- ``SUPPORTED_MIN_ONNX_OPSET`` / ``SUPPORTED_MAX_ONNX_OPSET``: the opsets this converter
  converts between (7 to the newest the installed onnx defines; 0.7 had 18 to 25), which
  ``version_supported`` checks.
- ``registry`` (an ``AdapterRegistry``): ``lookup_adapters(domain, op, version, up)``
  gives a function ``(node, op)`` converting a node of an ai.onnx op one opset up (or down)
  from ``version``, in place, with this package's adapter for that step, and returning the
  values that compute the node's outputs afterwards (None when the op does not change at
  that step); ``register(...)`` makes a function written as 0.7's adapters are (building
  on ``op``, returning the replacing values) the adapter of that step for
  ``convert_version`` too.
- ``dft_19_20``, ``gridsample_19_20``, ``groupnormalization_20_21``: the steps 0.7's
  registry had, as such functions (the ``op`` argument is not needed: the new nodes go
  into the node's graph).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import onnx_ir as ir

from onnxscript.version_converter import registry as _registry
from onnxscript.version_converter._context import VersionConversionError
from onnxscript.version_converter._versions import FIRST_OPSET, newest, next_step
from onnxscript.version_converter.driver import convert_node, convert_version
from onnxscript.version_converter.node_functions import NodeFunction, ReturnValue, as_adapter

SUPPORTED_MIN_ONNX_OPSET = FIRST_OPSET
"""The oldest ai.onnx opset the converter converts from or to."""

SUPPORTED_MAX_ONNX_OPSET = newest()
"""The newest ai.onnx opset the converter converts from or to (the installed onnx's)."""

VersionConverterError = VersionConversionError

AdapterFunction = NodeFunction


@dataclasses.dataclass
class Replacement:
    """A replacement for a node: the values taking over its outputs, and the new nodes
    computing them."""

    new_outputs: Sequence[ir.Value]
    new_nodes: Sequence[ir.Node]


def _opset_of(model: ir.Model) -> int | None:
    return model.opset_imports.get("", model.opset_imports.get("ai.onnx"))


def version_supported(model: ir.Model, target_version: int) -> bool:
    """Whether the converter converts ``model``'s ai.onnx opset to ``target_version``
    (both within :data:`SUPPORTED_MIN_ONNX_OPSET` .. :data:`SUPPORTED_MAX_ONNX_OPSET`)."""
    current = _opset_of(model)
    supported = range(SUPPORTED_MIN_ONNX_OPSET, SUPPORTED_MAX_ONNX_OPSET + 1)
    return current in supported and target_version in supported


def _step(version: int, up_conversion: bool) -> Callable[[ir.Node, object], ReturnValue]:
    """The function converting a node one opset up (down) from ``version``."""
    target = version + 1 if up_conversion else version - 1

    def convert(node: ir.Node, op: object = None) -> ReturnValue:
        results = convert_node(node, version, target)
        if results is None:
            return None
        return results[0] if len(results) == 1 else results

    return convert


class AdapterRegistry:
    """Adapters by (domain, op type, node version, up or down), as 0.7 registers them:
    ``op_adapters`` holds the registered functions; ``registry``, the module's instance,
    also answers with this package's adapters."""

    def __init__(self) -> None:
        self.op_adapters: dict[tuple[str, str, int | None, bool], AdapterFunction] = {}

    def register(
        self,
        opname: str,
        domain: str = "",
        node_version: int | None = None,
        up_conversion: bool = True,
    ) -> Callable[[AdapterFunction], AdapterFunction]:
        """Register an adapter function of ``domain::opname`` for nodes at opset
        ``node_version`` going one opset up (or down). Registered on ``registry`` for an
        ai.onnx op whose schema changes at that step, ``convert_version`` uses it."""

        def decorator(function: AdapterFunction) -> AdapterFunction:
            self.op_adapters[(domain, opname, node_version, up_conversion)] = function
            if self is registry and domain in ("", "ai.onnx") and node_version is not None:
                target = node_version + 1 if up_conversion else node_version - 1
                planned = next_step(opname, node_version, target)
                if planned is not None:
                    _registry.register(planned[0], as_adapter(function))
            return function

        return decorator

    def lookup_adapters(
        self, domain: str, opname: str, original_version: int, up_conversion: bool = True
    ) -> AdapterFunction | None:
        """The adapter function of ``domain::opname`` at opset ``original_version`` going
        one opset up (or down), or None when there is none."""
        found = self.op_adapters.get((domain, opname, original_version, up_conversion))
        if found is not None or self is not registry or domain != "":
            return found
        target = original_version + 1 if up_conversion else original_version - 1
        planned = next_step(opname, original_version, target)
        if planned is None or _registry.lookup(planned[0]) is None:
            return None
        return _step(original_version, up_conversion)


registry = AdapterRegistry()
"""The registry ``convert_version`` consults."""


def dft_19_20(node: ir.Node, op: object = None) -> ReturnValue:
    """DFT from opset 19 to 20 (its ``axis`` attribute becomes an input), in place."""
    return _step(19, True)(node, op)


def gridsample_19_20(node: ir.Node, op: object = None) -> ReturnValue:
    """GridSample from opset 19 to 20 (``mode`` ``bilinear``/``bicubic`` become
    ``linear``/``cubic``), in place."""
    return _step(19, True)(node, op)


def groupnormalization_20_21(node: ir.Node, op: object = None) -> ReturnValue:
    """GroupNormalization from opset 20 to 21 (per-group scale and bias become per-channel:
    the input's channel count must be known), in place."""
    return _step(20, True)(node, op)


registry.op_adapters.update(
    {
        ("", "DFT", 19, True): dft_19_20,
        ("", "GridSample", 19, True): gridsample_19_20,
        ("", "GroupNormalization", 20, True): groupnormalization_20_21,
    }
)

__all__ = [
    "SUPPORTED_MAX_ONNX_OPSET",
    "SUPPORTED_MIN_ONNX_OPSET",
    "AdapterFunction",
    "AdapterRegistry",
    "Replacement",
    "ReturnValue",
    "VersionConverterError",
    "convert_version",
    "dft_19_20",
    "gridsample_19_20",
    "groupnormalization_20_21",
    "registry",
    "version_supported",
]
