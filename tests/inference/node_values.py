"""Values and single-node inference for the inference tests: the one place
``test_infer.py`` and ``test_rules.py`` build values and infer a node alone."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir

from onnxscript.inference.infer import infer_node

FLOAT = ir.DataType.FLOAT


def value(
    shape: list[int | str | None] | None, dtype: ir.DataType = FLOAT, name: str = ""
) -> ir.Value:
    """A value of ``dtype`` and ``shape`` (None: unknown rank; a str: a symbolic dim)."""
    return ir.Value(
        name=name or None,
        type=ir.TensorType(dtype),
        shape=None if shape is None else ir.Shape(shape),
    )


def const(values: list[int], name: str = "c") -> ir.Value:
    """A 1-D int64 constant."""
    result = ir.Value(name=name, const_value=ir.tensor(np.array(values, np.int64)))
    result.dtype, result.shape = ir.DataType.INT64, ir.Shape([len(values)])
    return result


def infer(
    op: str, inputs: list[ir.Value | None], version: int = 18, outputs: int = 1, **attrs: object
) -> list[ir.Value]:
    """The outputs of an ai.onnx ``op`` node at opset ``version``, inferred."""
    node = ir.Node(
        "",
        op,
        inputs,
        [ir.convenience.convert_attribute(k, v) for k, v in attrs.items()],
        num_outputs=outputs,
    )
    infer_node(node, version)
    return list(node.outputs)


def shape_of(result: ir.Value) -> list[int | str | None] | None:
    """The value's shape as a list, symbolic dims by name; None when unknown."""
    if result.shape is None:
        return None
    return [d if isinstance(d, int) else d.value for d in result.shape]
