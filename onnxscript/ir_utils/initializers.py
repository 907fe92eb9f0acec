"""New initializers of a main graph, under names no other initializer has."""

from __future__ import annotations

import onnx_ir as ir


def add_initializer(main: ir.Graph, name: str, tensor: ir.TensorProtocol) -> ir.Value:
    """``tensor`` registered in ``main`` as an initializer named ``name`` (or ``name_1``,
    ``name_2``... when taken: subgraphs copied from one proto repeat their names)."""
    candidate, index = name, 0
    while candidate in main.initializers:
        index += 1
        candidate = f"{name}_{index}"
    value = ir.Value(name=candidate, const_value=tensor)
    value.type = ir.TensorType(tensor.dtype)
    value.shape = ir.Shape(tensor.shape.numpy())
    main.register_initializer(value)
    return value


__all__ = ["add_initializer"]
