"""``op_schema`` and ``op_signature`` of ops and script functions, as code written for
onnxscript 0.7 (torch.onnx) reads them."""

from __future__ import annotations

from collections.abc import Sequence

import onnx
import onnx.defs
from onnx_ir.schemas import OpSignature

from onnxscript import FLOAT, INT64, script
from onnxscript import opset18 as op
from onnxscript.values import Opset


@script(Opset("my.ns", 2))
def gated(x: FLOAT["N", 4], w, k: int, alpha: float = 0.5, mode: str = "a") -> FLOAT["N", 4]:
    return op.Mul(x, op.Cast(w, to=FLOAT.dtype)) if k else op.Identity(x)


def _constraints(schema: onnx.defs.OpSchema) -> dict[str, list[str]]:
    return {c.type_param_str: list(c.allowed_type_strs) for c in schema.type_constraints}


def test_script_function_schema_describes_inputs_attributes_outputs():
    schema = gated.op_schema
    assert isinstance(schema, onnx.defs.OpSchema)
    assert (schema.name, schema.domain, schema.since_version) == ("gated", "my.ns", 2)
    assert [i.name for i in schema.inputs] == ["x", "w"]
    types = _constraints(schema)
    assert types[schema.inputs[0].type_str] == ["tensor(float)"]
    # An unannotated input accepts every tensor type.
    assert {"tensor(float)", "tensor(int64)", "tensor(string)"} <= set(
        types[schema.inputs[1].type_str]
    )
    assert types[schema.outputs[0].type_str] == ["tensor(float)"]
    attrs = schema.attributes
    assert attrs["k"].required and attrs["k"].type == onnx.defs.OpSchema.AttrType.INT
    assert not attrs["alpha"].required and attrs["alpha"].default_value.f == 0.5
    assert attrs["mode"].default_value.s == b"a"


def test_script_function_signature_is_onnx_ir():
    sig = gated.op_signature
    assert isinstance(sig, OpSignature)
    assert (sig.domain, sig.name) == ("my.ns", "gated")
    assert [p.name for p in sig.inputs] == ["x", "w"]
    assert {a.name for a in sig.attributes} == {"k", "alpha", "mode"}
    assert gated.traceable is False
    assert gated.function_ir.domain == "my.ns"
    assert len(gated.function_ir.outputs) == 1


def test_op_schema_and_signature():
    assert op.Add.op_schema.name == "Add"
    sig = op.Add.op_signature
    assert isinstance(sig, OpSignature) and [p.name for p in sig.inputs] == ["A", "B"]
    assert op.Add.opset.version == 18 and op.Add.domain == ""
    custom = Opset("my.custom", 1).Anything
    assert custom.op_schema is None and custom.op_signature is None


def test_schema_of_sequence_input():
    @script()
    def total(xs: Sequence[INT64]) -> INT64:
        return op.ConcatFromSequence(xs, axis=0)

    schema = total.op_schema
    assert _constraints(schema)[schema.inputs[0].type_str] == ["seq(tensor(int64))"]
