"""New initializers of a main graph, under names no other initializer has."""

from __future__ import annotations

import onnx_ir as ir

from onnxscript.unique_names import first_free


def add_initializer(main: ir.Graph, name: str, tensor: ir.TensorProtocol) -> ir.Value:
    """``tensor`` registered in ``main`` as an initializer named ``name`` (or ``name_1``,
    ``name_2``... when taken: subgraphs copied from one proto repeat their names)."""
    value = ir.Value(name=first_free(name, main.initializers), const_value=tensor)
    value.type = ir.TensorType(tensor.dtype)
    value.shape = ir.Shape(tensor.shape.numpy())
    main.register_initializer(value)
    return value


__all__ = ["add_initializer"]
