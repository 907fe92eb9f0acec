"""The replacement builder: ``op.X(...)`` in a replacement function records real nodes."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
import pytest

from onnxscript.rewriter import RewriterContext


def test_ops_record_nodes_with_domain_and_opsets():
    op = RewriterContext()
    x = ir.Value(name="x")
    y = op.Gelu(x, _domain="com.microsoft")
    z = op.Relu(y)
    assert [(n.domain, n.op_type) for n in op.nodes] == [("com.microsoft", "Gelu"), ("", "Relu")]
    assert z.producer().inputs[0] is y
    assert op.used_opsets == {("com.microsoft", None), ("", None)}


def test_outputs_count_and_names():
    op = RewriterContext()
    a, b = op.Split(ir.Value(name="x"), _outputs=["first", "second"])
    assert (a.name, b.name) == ("first", "second")
    assert len(op.Split(ir.Value(name="x"), _outputs=3)) == 3


def test_numbers_and_arrays_become_constants():
    op = RewriterContext()
    op.Add(ir.Value(name="x"), 1.5)
    op.Mul(ir.Value(name="x"), np.array([1, 2], dtype=np.int64))
    constants = [n for n in op.nodes if n.op_type == "Constant"]
    values = [n.attributes["value"].as_tensor().numpy() for n in constants]
    assert values[0].dtype == np.float32 and float(values[0]) == 1.5
    assert values[1].tolist() == [1, 2]
    with pytest.raises(TypeError, match="must be a value"):
        op.Relu(object())


def test_bound_attribute_is_renamed_to_the_keyword():
    op = RewriterContext()
    perm = ir.AttrInt64s("perm", [1, 0])
    node = op.Transpose(ir.Value(name="x"), other=perm).producer()
    assert list(node.attributes["other"].as_ints()) == [1, 0]
    assert op.Relu(ir.Value(name="x"), alpha=None).producer().attributes == {}


def test_initializer_values():
    op = RewriterContext()
    value = op.initializer(ir.tensor(np.ones(3, dtype=np.float32)), name="w")
    assert value.name == "w" and value.const_value is not None and op.initializers == [value]
