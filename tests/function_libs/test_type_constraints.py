"""Deducing a compiled function's type constraints (0.7's
``function_libs.tools.torch_lib.deduce_type_constraints``), as 0.7.2 does black-box."""

from __future__ import annotations

import pytest

from onnxscript import opset18 as op
from onnxscript import script
from onnxscript.function_libs.tools.torch_lib.deduce_type_constraints import (
    OnnxFunctionTypeConstraints,
    TypeConstraint,
    TypeConstraintDeducer,
    Value,
    deduce_type_constraints,
)
from onnxscript.onnx_types import FLOAT, TensorType

NUMERIC = {
    *["BFLOAT16", "DOUBLE", "FLOAT", "FLOAT16", "INT8", "INT16", "INT32", "INT64"],
    *["UINT8", "UINT16", "UINT32", "UINT64"],
}
"""What opset 18's Add, Mul, Greater allow."""
SIGNED = NUMERIC - {"UINT8", "UINT16", "UINT32", "UINT64"}
"""What opset 18's Relu and Neg allow."""
EVERY = NUMERIC | {"BOOL", "COMPLEX64", "COMPLEX128", "STRING"}
"""What opset 18's Shape, Where (its values) allow."""


@script()
def add(x: TensorType, y: TensorType) -> TensorType:
    return op.Add(x, y)


@script()
def reshape_like(x: TensorType, y: TensorType) -> TensorType:
    z = op.Add(x, x)
    s = op.Shape(y)
    return op.Reshape(z, s)


@script()
def cast_shape(x: TensorType, unused: TensorType, alpha: float = 1.0) -> TensorType:
    a = op.Shape(x)
    b = op.Cast(a, to=1)
    return op.Mul(x, b)


@script()
def two_outputs(x: FLOAT) -> tuple[TensorType, TensorType]:
    y = op.Relu(x)
    z = op.Shape(y)
    return y, z


@script()
def select(x: TensorType, n: TensorType) -> TensorType:
    return op.Where(op.Greater(n, n), x, x)


@script()
def branch(x: TensorType, c: TensorType) -> TensorType:
    if op.Greater(c, c):
        y = op.Relu(x)
    else:
        y = op.Neg(x)
    return y


@script()
def calls(x: TensorType) -> TensorType:
    return add(x, x)


def _types(constraint: TypeConstraint | None) -> set[str] | None:
    return None if constraint is None else constraint.type_strs


def test_inputs_and_output_of_one_op_share_its_constraint():
    found = deduce_type_constraints(add)
    assert isinstance(found, OnnxFunctionTypeConstraints)
    x, y = found.input_type_constraints["x"], found.input_type_constraints["y"]
    assert x is y is found.output_type_constraints["return_val"]
    assert x is not None and x.name == "T0" and x.type_strs == NUMERIC
    assert found.intermediate_type_constraints == {}
    assert str(found) == (
        "Type Constraints:\n  Inputs: \n    x: T0\n    y: T0\n  Outputs: \n    return_val: T0\n"
        f"  Type Constraints: \n    T0: {x.type_strs}"
    )


def test_a_value_read_only_for_its_shape_allows_every_type():
    found = deduce_type_constraints(reshape_like, signature_only=False)
    inputs = found.input_type_constraints
    assert _types(inputs["x"]) == NUMERIC and _types(inputs["y"]) == EVERY
    assert [c.name if c else None for c in found.intermediate_type_constraints.values()] == [
        "T0",
        "T1",
        "T0",
        "T2",
        "T0",
    ]
    assert list(found.intermediate_type_constraints) == ["x", "y", "z", "s", "return_val"]
    assert _types(found.intermediate_type_constraints["s"]) == {"INT64"}
    text = str(found)
    assert "  Intermediate Values: \n    x: T0\n    y: T1\n    z: T0\n    s: T2\n" in text
    assert text.endswith("    T2: {'INT64'}")


def test_an_output_typed_by_an_attribute_allows_nothing_deduced():
    # Cast's output type comes from its `to`: the empty set, which Mul then shares with x.
    found = deduce_type_constraints(cast_shape, signature_only=False)
    assert _types(found.input_type_constraints["x"]) == set()
    assert found.input_type_constraints["unused"] is None  # no op reads it
    assert _types(found.intermediate_type_constraints["a"]) == {"INT64"}
    assert "    unused: None\n" in str(found)


def test_tensor_annotations_are_not_read_and_outputs_are_listed():
    found = deduce_type_constraints(two_outputs)
    outputs = found.output_type_constraints
    assert _types(found.input_type_constraints["x"]) == SIGNED  # Relu's, not FLOAT
    assert outputs["y"] is found.input_type_constraints["x"]
    assert _types(outputs["z"]) == {"INT64"} and outputs["z"] is not None
    assert outputs["z"].name == "T1"


def test_inputs_of_different_params_keep_their_constraints():
    found = deduce_type_constraints(select, signature_only=False)
    assert _types(found.input_type_constraints["x"]) == EVERY
    assert _types(found.input_type_constraints["n"]) == NUMERIC
    assert [c.type_strs for c in found.intermediate_type_constraints.values() if c][2] == {"BOOL"}


def test_an_if_output_is_its_branches_outputs():
    found = deduce_type_constraints(branch)
    (output,) = found.output_type_constraints.values()
    assert output is found.input_type_constraints["x"]
    assert _types(output) == SIGNED


def test_a_call_of_another_function_is_not_supported():
    with pytest.raises(NotImplementedError, match="Nested function is not supported yet"):
        deduce_type_constraints(calls)


def test_the_deducer_keeps_its_values_and_the_functions_opset():
    deducer = TypeConstraintDeducer(add)
    assert deducer.values == {}
    found = deducer.deduce()
    assert deducer.opset_version == 18
    assert list(deducer.values) == ["x", "y", "return_val"]
    assert deducer.function_proto.name == "add"
    assert str(deducer.type_constraints(signature_only=False)).startswith(str(found))


def test_merging_constraints_and_values():
    a = TypeConstraint("A", {"tensor(float)", "tensor(int64)"})
    b = TypeConstraint("B", {"tensor(float)"})
    va, vb = Value("a"), Value("b")
    a.bind_value(va)
    b.bind_value(vb)
    a.merge_type_constraint(b)
    assert (a.name, a.type_strs) == ("A.B", {"tensor(float)"})
    assert va.type_constraint is vb.type_constraint is a and a.values == {va, vb}
    assert repr(a) == "TypeConstraint(name=A.B, type_strs={'tensor(float)'}, values=['a', 'b'])"
    # A value merged with another: the other's constraint takes it (named other.mine).
    t, u = TypeConstraint("T", {"x", "y"}), TypeConstraint("U", {"x"})
    vt, vu = Value("t"), Value("u")
    t.bind_value(vt)
    u.bind_value(vu)
    vt.merge_type_constraint(vu)
    assert vt.type_constraint is vu.type_constraint is u and u.name == "U.T"
    lone = Value("lone")
    vt.merge_type_constraint(lone)
    assert lone.type_constraint is u
    with pytest.raises(ValueError, match="without type constraints"):
        Value("p").merge_type_constraint(Value("q"))
    assert repr(Value("p")) == "Value(name=p, type_constraint=None)"


def test_a_traced_function_is_traced_once_on_its_annotations():
    from onnxscript.function_libs.torch_lib.aten import elementwise

    found = deduce_type_constraints(elementwise.add)
    assert list(found.input_type_constraints) == ["self", "other"]
    assert found.input_type_constraints["self"] is found.input_type_constraints["other"]
    assert _types(found.input_type_constraints["self"]) == NUMERIC
