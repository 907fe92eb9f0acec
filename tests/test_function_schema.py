"""``op_schema`` and ``op_signature`` of ops and script functions, as code written for
onnxscript 0.7 (torch.onnx) reads them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional, TypeVar, Union

import onnx
import onnx.defs
import pytest
from onnx_ir.schemas import OpSignature, Parameter

from onnxscript import DOUBLE, FLOAT, INT64, TracedOnnxFunction, script
from onnxscript import opset18 as op
from onnxscript.onnx_types import TensorType
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


# -- TypeVar and Union annotations ---------------------------------------------------------
# The expected signatures are what onnxscript 0.7.2 gives for the same functions (measured
# black-box; its op_signature is torch.onnx's op_signature_from_function), apart from the
# differences docs/compatibility.md lists: "every tensor type" is the 28 types onnx's
# schemas name, `FLOAT | DOUBLE` is a union like `Union[FLOAT, DOUBLE]`.

TF = TypeVar("TF", FLOAT, DOUBLE)
TI = TypeVar("TI", bound=INT64)
TB = TypeVar("TB", bound=FLOAT)
TAll = TypeVar("TAll", bound=TensorType)
TU = TypeVar("TU")

FD = {"FLOAT", "DOUBLE"}


def t_constrained(x: TF, y: TF) -> TF:
    return op.Add(x, y)


def t_bound(x: TB, y: TB) -> TB:
    return op.Add(x, y)


def t_bound_any(x: TAll, y: TAll) -> TAll:
    return op.Add(x, y)


def t_unconstrained(x: TU, y: TU) -> TU:
    return op.Add(x, y)


def t_optional(x: TF, y: Optional[TF] = None) -> TF:  # 0.7 spelling
    return op.Identity(x)


def t_sequence(x: Sequence[TF]) -> TF:
    return op.SequenceAt(x, 0)


def t_union(x: Union[FLOAT, DOUBLE], y: FLOAT | DOUBLE) -> Union[FLOAT, DOUBLE]:
    return op.Add(x, y)


def t_mixed(x: TF, n: INT64, a: int = 1, m: TI | None = None) -> TF:
    return op.Identity(x)


def t_two(x: TF, n: TI) -> tuple[TF, TI]:
    return op.Identity(x), op.Identity(n)


def t_sequence_union(x: Sequence[Union[FLOAT, INT64]]) -> INT64:
    return op.SequenceLength(x)


def _any() -> set[str]:
    """What an unannotated input allows (every tensor type: today's rule, kept)."""

    def untyped(x):
        return op.Identity(x)

    return _describe(TracedOnnxFunction(op, untyped).op_signature)[0][0][2]


def _describe(sig: OpSignature) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """(name, constraint, allowed types, required) per input, (constraint, allowed types)
    per output; an attribute is (name, "attr")."""
    params: list[tuple[Any, ...]] = []
    for p in sig.params:
        if isinstance(p, Parameter):
            allowed = {str(t) for t in p.type_constraint.allowed_types}
            params.append((p.name, p.type_constraint.name, allowed, p.required))
        else:
            params.append((p.name, "attr"))
    outputs = [
        (p.type_constraint.name, {str(t) for t in p.type_constraint.allowed_types})
        for p in sig.outputs
    ]
    return params, outputs


def _expected(name: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    any_type = _any()
    return {
        "t_constrained": (
            [("x", "TF", FD, True), ("y", "TF", FD, True)],
            [("TF", FD)],
        ),
        "t_bound": (
            [("x", "TB", {"FLOAT"}, True), ("y", "TB", {"FLOAT"}, True)],
            [("TB", {"FLOAT"})],
        ),
        "t_bound_any": (
            [("x", "TAll", any_type, True), ("y", "TAll", any_type, True)],
            [("TAll", any_type)],
        ),
        "t_unconstrained": (
            [("x", "TU", any_type, True), ("y", "TU", any_type, True)],
            [("TU", any_type)],
        ),
        "t_optional": (
            [("x", "TF", FD, True), ("y", "TF", FD, False)],
            [("TF", FD)],
        ),
        "t_sequence": (
            [("x", "Sequence_TF", {"Sequence(Tensor(FLOAT))", "Sequence(Tensor(DOUBLE))"}, True)],
            [("TReturn0", FD)],  # TF alone names no input's constraint
        ),
        "t_union": (
            [("x", "T_x", FD, True), ("y", "T_y", FD, True)],
            [("TReturn0", FD)],
        ),
        "t_mixed": (
            [
                ("x", "TF", FD, True),
                ("n", "T_n", {"INT64"}, True),
                ("a", "attr"),
                ("m", "TI", {"INT64"}, False),
            ],
            [("TF", FD)],
        ),
        "t_two": (
            [("x", "TF", FD, True), ("n", "TI", {"INT64"}, True)],
            [("TF", FD), ("TI", {"INT64"})],
        ),
        "t_sequence_union": (
            [("x", "T_x", {"Sequence(Tensor(FLOAT))", "Sequence(Tensor(INT64))"}, True)],
            [("TReturn0", {"INT64"})],
        ),
    }[name]


SAMPLES = [
    t_constrained,
    t_bound,
    t_bound_any,
    t_unconstrained,
    t_optional,
    t_sequence,
    t_union,
    t_mixed,
    t_two,
    t_sequence_union,
]


@pytest.mark.parametrize("kind", ["script", "traced"])
@pytest.mark.parametrize("fn", SAMPLES, ids=[f.__name__ for f in SAMPLES])
def test_typevar_and_union_signatures_as_072(fn, kind):
    function = script()(fn) if kind == "script" else TracedOnnxFunction(op, fn)
    assert _describe(function.op_signature) == _expected(fn.__name__)


@pytest.mark.parametrize("kind", ["script", "traced"])
def test_one_typevar_is_one_schema_constraint(kind):
    function = script()(t_two) if kind == "script" else TracedOnnxFunction(op, t_two)
    schema = function.op_schema
    assert [i.type_str for i in schema.inputs] == ["TF", "TI"]
    assert [o.type_str for o in schema.outputs] == ["TF", "TI"]
    types = _constraints(schema)
    assert sorted(types) == ["TF", "TI"]  # one constraint per TypeVar, not per value
    assert set(types["TF"]) == {"tensor(float)", "tensor(double)"}
    assert types["TI"] == ["tensor(int64)"]


def test_signature_keeps_the_function_parameter_order():
    def f(x: FLOAT, axis: int, index: INT64, keep: bool = False):
        return op.Identity(x)

    sig = TracedOnnxFunction(op, f).op_signature
    assert [p.name for p in sig.params] == ["x", "axis", "index", "keep"]
    # The schema itself lists inputs, then attributes (onnx's order).
    assert [i.name for i in TracedOnnxFunction(op, f).op_schema.inputs] == ["x", "index"]


T_y = TypeVar("T_y", bound=INT64)


def test_a_typevar_named_like_an_own_constraint_does_not_merge_with_it():
    def f(x: T_y, y: FLOAT):
        return op.Identity(y)

    params, _ = _describe(TracedOnnxFunction(op, f).op_signature)
    assert params[0][1:3] == ("T_y", {"INT64"})
    assert params[1][2] == {"FLOAT"} and params[1][1] != "T_y"


def test_any_annotation_is_an_input_of_any_type():
    def f(x: Any, y: FLOAT):
        return op.Identity(y)

    params, _ = _describe(TracedOnnxFunction(op, f).op_signature)
    assert params[0] == ("x", "T_x", _any(), True)


# -- onnxscript 0.7's onnxscript.ir._schemas ----------------------------------------------


def test_ir_schemas_is_this_module_under_0_7s_path():
    import onnx_ir
    import onnxscript.ir._schemas
    from onnxscript.ir._schemas import get_attr_type, op_signature_from_function

    import onnxscript.function_schema

    assert onnxscript.ir._schemas is onnxscript.function_schema
    assert onnxscript.function_schema.__spec__.name == "onnxscript.function_schema"
    assert callable(get_attr_type) and callable(op_signature_from_function)
    assert onnxscript.ir.Model is onnx_ir.Model  # the rest is still onnx_ir


def test_get_attr_type_as_0_7_2_reads_annotations():
    import onnx_ir as ir
    from onnxscript.ir._schemas import get_attr_type

    AT = ir.AttributeType
    expected = {  # each as onnxscript 0.7.2 answers
        int: AT.INT,
        bool: AT.INT,
        float: AT.FLOAT,
        str: AT.STRING,
        ir.Tensor: AT.TENSOR,
        ir.TensorProtocol: AT.TENSOR,
        ir.Graph: AT.GRAPH,
        ir.GraphProtocol: AT.GRAPH,
        Sequence[int]: AT.INTS,
        list[float]: AT.FLOATS,
        Sequence[str]: AT.STRINGS,
        Sequence[bool]: AT.INTS,
        tuple[int, ...]: AT.INTS,
        tuple[int, int]: AT.INTS,
        tuple[str]: AT.STRINGS,
        list[ir.Tensor]: AT.TENSORS,
        list[ir.Graph]: AT.GRAPHS,
        Optional[int]: AT.UNDEFINED,
        Optional[Sequence[int]]: AT.UNDEFINED,
        FLOAT: AT.UNDEFINED,
        ir.TypeProtocol: AT.UNDEFINED,
        ir.ExternalTensor: AT.UNDEFINED,
        onnx.TensorProto: AT.UNDEFINED,
        Sequence[Sequence[int]]: AT.UNDEFINED,
        list: AT.UNDEFINED,
        object: AT.UNDEFINED,
        Any: AT.UNDEFINED,
    }
    assert {t: get_attr_type(t) for t in expected} == expected


_T = TypeVar("_T", FLOAT, DOUBLE)


def _annotated(
    x: FLOAT,
    y: INT64,
    z: _T,
    w: _T,
    opt: Optional[FLOAT] = None,
    *,
    alpha: float = 1.0,
    axes: Sequence[int] = (1,),
    flag: bool = False,
) -> _T:
    raise NotImplementedError


def test_op_signature_from_function_is_a_traced_functions_signature():
    from onnxscript.ir._schemas import op_signature_from_function

    signature = op_signature_from_function(_annotated, "my.domain")
    assert (signature.domain, signature.name, signature.overload, signature.since_version) == (
        "my.domain",
        "_annotated",
        "",
        1,
    )
    # as 0.7.2: parameters in the function's order, a TypeVar's constraint shared
    kinds = [(p.name, type(p).__name__) for p in signature.params]
    assert kinds == [
        ("x", "Parameter"),
        ("y", "Parameter"),
        ("z", "Parameter"),
        ("w", "Parameter"),
        ("opt", "Parameter"),
        ("alpha", "AttributeParameter"),
        ("axes", "AttributeParameter"),
        ("flag", "AttributeParameter"),
    ]
    params = signature.params_map
    assert params["z"].type_constraint is params["w"].type_constraint
    assert params["z"].type_constraint.name == "_T"  # named after the TypeVar
    assert {str(t) for t in params["z"].type_constraint.allowed_types} == {"FLOAT", "DOUBLE"}
    assert params["x"].type_constraint.name == "T_x" and params["x"].required
    assert not params["opt"].required
    assert (params["alpha"].type, params["alpha"].default.value) == (
        onnx.AttributeProto.FLOAT,
        1.0,
    )
    assert params["flag"].type == onnx.AttributeProto.INT and params["flag"].default.value == 0
    assert list(params["axes"].default.value) == [1]
    traced = TracedOnnxFunction(Opset("my.domain", 1), _annotated).op_signature
    assert [p.name for p in traced.params] == [p.name for p in signature.params]

    named = op_signature_from_function(_annotated, "", name="G", overload="ov", since_version=3)
    assert (named.domain, named.name, named.overload, named.since_version) == ("", "G", "ov", 3)
