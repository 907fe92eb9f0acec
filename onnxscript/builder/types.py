"""Types given to the builder as users write them: ``FLOAT[4]``, ``FLOAT["N", 3]``,
``ir.TypeAndShape``, an ``ir.Value`` to copy, or an ``ir`` type."""

from __future__ import annotations

from typing import Any

import onnx_ir as ir

from onnxscript.onnx_types import is_tensor_type


def type_and_shape(spec: Any, what: str) -> tuple[ir.TypeProtocol | None, ir.Shape | None]:
    """The (type, shape) ``spec`` denotes; ``None`` stands for unknown."""
    if spec is None:
        return None, None
    if is_tensor_type(spec):
        spec = spec.to_ir()
    if isinstance(spec, ir.TypeAndShape):
        return spec.type, spec.shape
    if isinstance(spec, ir.Value):
        return spec.type, spec.shape
    if isinstance(spec, ir.TypeProtocol):
        return spec, None
    if isinstance(spec, ir.DataType):
        return ir.TensorType(spec), None
    raise TypeError(
        f"{what}: expected a tensor type such as FLOAT[4] or FLOAT['N', 3], an "
        f"ir.TypeAndShape or an ir.Value, got {type(spec).__name__}"
    )


def typed_value(name: str, spec: Any, what: str) -> ir.Value:
    """A new value named ``name`` with the type and shape ``spec`` denotes."""
    type_, shape = type_and_shape(spec, what)
    return ir.Value(name=name, type=type_, shape=shape)


__all__ = ["type_and_shape", "typed_value"]
