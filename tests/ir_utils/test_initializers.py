"""The forms a new constant takes: an initializer from IR version 4, a Constant node of a
type its opset's Constant holds, or none (the caller changes nothing)."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
import pytest

from onnxscript.ir_utils.initializers import (
    add_initializer,
    constant_form,
    constant_node,
    constant_node_takes,
    made_constant,
)

I64, F32, F16, BF16 = (
    ir.DataType.INT64,
    ir.DataType.FLOAT,
    ir.DataType.FLOAT16,
    ir.DataType.BFLOAT16,
)


@pytest.mark.parametrize(
    ("dtype", "opset", "takes"),
    [
        (F32, 1, True),
        (F16, 8, True),
        (I64, 8, False),  # Constant-1 holds float16, float and double only
        (ir.DataType.BOOL, 8, False),
        (I64, 9, True),
        (BF16, 12, False),
        (BF16, 13, True),
        (ir.DataType.STRING, 9, True),
        (ir.DataType.FLOAT8E4M3FN, 18, False),
        (ir.DataType.FLOAT8E4M3FN, 19, True),
    ],
)
def test_constant_node_types_follow_the_opset(dtype: ir.DataType, opset: int, takes: bool):
    assert constant_node_takes(dtype, opset) is takes


@pytest.mark.parametrize(
    ("ir_version", "opset", "dtype", "initializer", "form"),
    [
        (10, 18, I64, True, "initializer"),
        (10, 18, I64, False, "node"),  # a graph output, a function body
        (4, 8, I64, True, "initializer"),
        (4, 8, I64, False, None),  # no Constant of int64 before opset 9
        (3, 8, F32, True, "node"),  # IR 3: an initializer would be a new graph input
        (3, 8, I64, True, None),
        (3, 9, I64, True, "node"),
    ],
)
def test_constant_form(
    ir_version: int, opset: int, dtype: ir.DataType, initializer: bool, form: str | None
):
    assert constant_form(ir_version, opset, dtype, initializer=initializer) == form


def test_add_initializer_needs_ir_version_4():
    graph = ir.Graph([], [], nodes=[], name="g")
    tensor = ir.tensor(np.array([1, 2], np.int64))
    first = add_initializer(graph, "c", tensor, ir_version=10)
    second = add_initializer(graph, "c", tensor, ir_version=10)
    assert (first.name, second.name) == ("c", "c_1")
    assert not graph.inputs
    with pytest.raises(ValueError, match="IR version 3"):
        add_initializer(graph, "c", tensor, ir_version=3)


def test_constant_node_holds_its_tensor():
    tensor = ir.tensor(np.array([1.5], np.float32))
    node = constant_node(tensor, "k")
    out = node.outputs[0]
    assert (out.name, out.const_value, out.dtype) == ("k", tensor, F32)
    assert made_constant(node) is tensor
    assert made_constant(ir.Node("", "Relu", [out])) is None
