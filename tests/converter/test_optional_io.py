"""Optional tensor inputs: a tensor parameter defaulted to ``None`` is an optional input
of the function; ``op.OptionalHasElement(x)``, ``x is None``, ``x is not None``,
``x == None`` and ``x != None`` test whether the caller gave it, compiled and eagerly."""

from __future__ import annotations

from typing import Optional

import numpy as np
import onnx
import onnx.helper as oh
import pytest

from onnxscript import BOOL, FLOAT, INT64, ScriptError, opset13, opset15, opset18, script
from onnxscript import opset18 as op
from onnxscript.testing import assert_eager_matches_compiled, assert_same_values
from onnxscript.testing import run_model as run_proto_model
from tests.helpers import checked_model, define, run_model

X = np.array([-1.0, 2.0], np.float32)
B = np.array([0.5, 0.5], np.float32)


@script()
def with_has_element(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if op.OptionalHasElement(bias):
        y = op.Add(x, bias)
    else:
        y = op.Neg(x)
    return y


@script()
def with_is_none(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias is None:
        y = op.Neg(x)
    else:
        y = op.Add(x, bias)
    return y


@script()
def with_is_not_none(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias is not None:
        y = op.Add(x, bias)
    else:
        y = op.Neg(x)
    return y


@script()
def with_not_equal(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias != None:  # noqa: E711
        y = op.Add(x, bias)
    else:
        y = op.Neg(x)
    return y


@script()
def with_equal(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias == None:  # noqa: E711
        y = op.Neg(x)
    else:
        y = op.Add(x, bias)
    return y


ALL = [with_has_element, with_is_none, with_is_not_none, with_not_equal, with_equal]


def _calling_model(fn, given: bool) -> onnx.ModelProto:
    """A model calling ``fn``'s FunctionProto with the optional input given or omitted."""
    function = fn.to_function_proto()
    inputs = ["x", "bias"] if given else ["x"]
    node = oh.make_node(fn.name, inputs, ["y"], domain=function.domain)
    vi = [oh.make_tensor_value_info(n, onnx.TensorProto.FLOAT, ["N"]) for n in inputs]
    graph = oh.make_graph(
        [node], "g", vi, [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["N"])]
    )
    opsets = [oh.make_opsetid("", 18), oh.make_opsetid(function.domain, 1)]
    model = oh.make_model(graph, functions=[function], opset_imports=opsets, ir_version=10)
    onnx.checker.check_model(model, full_check=True)
    return model


@pytest.mark.parametrize("fn", ALL, ids=lambda f: f.name)
def test_the_input_is_optional(fn):
    assert [p.optional for p in fn.call_signature.inputs] == [False, True]
    assert fn.op_schema.inputs[0].option != onnx.defs.OpSchema.FormalParameterOption.Optional
    assert fn.op_schema.inputs[1].option == onnx.defs.OpSchema.FormalParameterOption.Optional


@pytest.mark.parametrize("fn", ALL, ids=lambda f: f.name)
def test_compiled_function_with_the_input_given(fn):
    (given,) = run_proto_model(_calling_model(fn, True), [X, B])
    np.testing.assert_allclose(given, X + B)


def test_omitted_input_rejected_by_onnxruntime_when_read_in_a_required_slot():
    """Measured limit, not ours: onnxruntime inlines the omitted input as "" everywhere,
    and refuses a graph where a required input slot (here Add's, in the untaken branch)
    is empty."""
    with pytest.raises(Exception, match="marked single but has an empty string"):
        run_proto_model(_calling_model(with_is_none, False), [X])


@script()
def clip(x: FLOAT["N"], low: FLOAT = None, high: FLOAT = None) -> FLOAT["N"]:
    return op.Clip(x, low, high)


def test_omitted_input_passed_to_an_optional_slot_runs():
    function = clip.to_function_proto()
    node = oh.make_node("clip", ["x", "", "hi"], ["y"], domain=function.domain)
    graph = oh.make_graph(
        [node],
        "g",
        [
            oh.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N"]),
            oh.make_tensor_value_info("hi", onnx.TensorProto.FLOAT, []),
        ],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["N"])],
    )
    opsets = [oh.make_opsetid("", 18), oh.make_opsetid(function.domain, 1)]
    model = oh.make_model(graph, functions=[function], opset_imports=opsets, ir_version=10)
    onnx.checker.check_model(model, full_check=True)
    hi = np.array(1.0, np.float32)
    (got,) = run_proto_model(model, [X, hi])
    np.testing.assert_allclose(got, [-1.0, 1.0])
    np.testing.assert_allclose(clip(X, high=hi), got)
    np.testing.assert_allclose(clip(X), X)


@pytest.mark.parametrize("fn", ALL, ids=lambda f: f.name)
def test_eager_matches(fn):
    np.testing.assert_allclose(fn(X, B), X + B)
    np.testing.assert_allclose(fn(X), -X)
    np.testing.assert_allclose(fn(X, None), -X)
    assert_eager_matches_compiled(fn, X, B)


def test_presence_test_needs_opset_18():
    source = (
        "def f(x: FLOAT['N'], b: FLOAT['N'] = None) -> FLOAT['N']:\n"
        "    if b is None:\n"
        "        y = op.Neg(x)\n"
        "    else:\n"
        "        y = op.Add(x, b)\n"
        "    return y\n"
    )
    with pytest.raises(ScriptError, match=r"needs ai\.onnx opset 18") as info:
        script()(define(source, {"FLOAT": FLOAT, "op": opset15}))
    assert "if b is None" in str(info.value)
    assert script()(define(source, {"FLOAT": FLOAT, "op": opset18})).to_function_proto()


def test_a_tensor_default_of_another_element_type_is_refused():
    with pytest.raises(ScriptError, match="has element type INT64, but its annotation"):

        @script()
        def f(x: FLOAT["N"], b: FLOAT["N"] = op.Constant(value_int=1)) -> FLOAT["N"]:  # noqa: B008
            return op.Add(x, b)


# -- optional inputs in a model: graph inputs of type optional(T) -----------------------------


def _compare(fn, *args):
    """Run ``fn``'s model (checked, full) with onnxruntime and ``fn`` eagerly on the same
    inputs (``None``, or an input left out, is an omitted optional input); assert they
    agree and return the compiled outputs."""
    compiled = run_proto_model(checked_model(fn), list(args))
    eager = fn(*args)
    assert_same_values(list(eager) if isinstance(eager, tuple) else [eager], compiled)
    return compiled


def _input_kind(model: onnx.ModelProto, i: int) -> str:
    return model.graph.input[i].type.WhichOneof("value")


@pytest.mark.parametrize("fn", ALL, ids=lambda f: f.name)
def test_model_input_is_optional_and_may_be_omitted(fn):
    model = checked_model(fn)
    assert [_input_kind(model, i) for i in range(2)] == ["tensor_type", "optional_type"]
    elem = model.graph.input[1].type.optional_type.elem_type.tensor_type
    assert elem.elem_type == onnx.TensorProto.FLOAT
    assert [d.dim_param for d in elem.shape.dim] == ["N"]
    np.testing.assert_allclose(_compare(fn, X)[0], -X)
    np.testing.assert_allclose(_compare(fn, X, None)[0], -X)
    np.testing.assert_allclose(_compare(fn, X, B)[0], X + B)


def test_model_reads_the_input_through_optional_get_element_where_used():
    model = checked_model(with_is_none)
    top = [n.op_type for n in model.graph.node]
    assert top == ["OptionalHasElement", "Not", "If"]
    if_node = model.graph.node[-1]
    else_branch = next(a.g for a in if_node.attribute if a.name == "else_branch")
    unwrap, add = else_branch.node
    assert (unwrap.op_type, list(unwrap.input)) == ("OptionalGetElement", ["bias"])
    assert add.op_type == "Add" and list(add.input) == ["x", unwrap.output[0]]


def test_function_proto_keeps_the_plain_input():
    """In a FunctionProto the caller passes a tensor or omits the input (ONNX's own
    convention): no OptionalGetElement there."""
    ops = {n.op_type for n in with_is_none.to_function_proto().node}
    assert "OptionalGetElement" not in ops


@script()
def optional_annotation(x: FLOAT["N"], lo: Optional[FLOAT] = None) -> FLOAT["N"]:
    if lo is not None:
        y = op.Max(x, lo)
    else:
        y = op.Identity(x)
    return y


@script()
def union_annotation(x: FLOAT["N"], lo: FLOAT | None = None) -> FLOAT["N"]:
    if lo is None:
        y = op.Identity(x)
    else:
        y = op.Max(x, lo)
    return y


@script()
def default_only(x: FLOAT["N"], lo: FLOAT = None) -> FLOAT["N"]:
    has = op.OptionalHasElement(lo)
    if has:
        y = op.Max(x, lo)
    else:
        y = op.Identity(x)
    return y


@pytest.mark.parametrize(
    "fn", [optional_annotation, union_annotation, default_only], ids=lambda f: f.name
)
def test_every_spelling_of_an_optional_input(fn):
    lo = np.array(0.0, np.float32)
    assert [p.optional for p in fn.call_signature.inputs] == [False, True]
    np.testing.assert_allclose(_compare(fn, X)[0], X)
    np.testing.assert_allclose(_compare(fn, X, None)[0], X)
    np.testing.assert_allclose(_compare(fn, X, lo)[0], [0.0, 2.0])


@script()
def default_from_data(x: FLOAT["N"], shift: FLOAT = None) -> FLOAT["N"]:
    if shift is None:
        shift = op.ReduceMin(x, keepdims=0)
    return op.Sub(x, shift)


def test_an_omitted_input_replaced_by_a_computed_value():
    np.testing.assert_allclose(_compare(default_from_data, X)[0], [0.0, 3.0])
    np.testing.assert_allclose(_compare(default_from_data, X, np.float32(1.0))[0], [-2.0, 1.0])


def test_an_input_passed_on_to_an_optional_slot_must_be_given_to_the_model():
    """In a model the input is read with OptionalGetElement, which fails on an empty
    optional: test it with `is None` and call the op in both branches to omit it."""
    hi = np.array(1.0, np.float32)
    lo = np.array(0.0, np.float32)
    np.testing.assert_allclose(_compare(clip, X, lo, hi)[0], [0.0, 1.0])
    with pytest.raises(Exception, match=r"OptionalGetElement|empty"):
        run_proto_model(checked_model(clip), [X, None, hi])


def test_below_opset_15_a_model_input_stays_a_tensor():
    source = (
        "def f(x: FLOAT['N'], lo: FLOAT = None, hi: FLOAT = None) -> FLOAT['N']:\n"
        "    return op.Clip(x, lo, hi)\n"
    )
    fn = script()(define(source, {"FLOAT": FLOAT, "op": opset13}))
    model = checked_model(fn)
    assert [_input_kind(model, i) for i in range(3)] == ["tensor_type"] * 3
    lo, hi = np.array(0.0, np.float32), np.array(1.0, np.float32)
    (got,) = run_model(model, X, lo, hi)
    np.testing.assert_allclose(got, [0.0, 1.0])
    np.testing.assert_allclose(fn(X, lo, hi), got)


def test_explicit_optional_has_element_on_an_input_needs_opset_18():
    source = (
        "def f(x: FLOAT['N'], b: FLOAT['N'] = None) -> BOOL:\n    return op.OptionalHasElement(b)\n"
    )
    namespace = {"FLOAT": FLOAT, "BOOL": BOOL, "op": opset15}
    with pytest.raises(ScriptError, match=r"needs ai\.onnx opset 18 .*opset 15") as info:
        script()(define(source, namespace))
    assert "op.OptionalHasElement(b)" in str(info.value)


def test_explicit_optional_ops_on_an_optional_value_at_opset_15():
    source = (
        "def f(x: FLOAT['N']) -> FLOAT['N']:\n"
        "    o = op.Optional(x)\n"
        "    if op.OptionalHasElement(o):\n"
        "        y = op.OptionalGetElement(o)\n"
        "    else:\n"
        "        y = op.Neg(x)\n"
        "    return y\n"
    )
    fn = script()(define(source, {"FLOAT": FLOAT, "op": opset15}))
    np.testing.assert_allclose(_compare(fn, X)[0], X)


@script()
def required_tested(x: FLOAT["N"]) -> FLOAT["N"]:
    if x is None:
        y = op.Neg(x)
    else:
        y = op.Abs(x)
    return y


def test_a_required_input_is_known_present():
    """The compiler knows a required input is there: the test folds, no If is made."""
    assert [n.op_type for n in required_tested.to_function_proto().node] == ["Abs"]
    np.testing.assert_allclose(_compare(required_tested, X)[0], np.abs(X))


def test_an_attribute_compared_with_none_is_a_located_error():
    source = (
        "def f(x: FLOAT['N'], k: int = None) -> FLOAT['N']:\n"
        "    if k is None:\n"
        "        y = op.Neg(x)\n"
        "    else:\n"
        "        y = op.Abs(x)\n"
        "    return y\n"
    )
    with pytest.raises(ScriptError, match="attribute parameter 'k' with None") as info:
        script()(define(source, {"FLOAT": FLOAT, "op": opset18}))
    assert "if k is None" in str(info.value)


@script()
def add_bias(x: FLOAT["N"], bias: FLOAT["N"] = None) -> FLOAT["N"]:
    if bias is None:
        y = op.Identity(x)
    else:
        y = op.Add(x, bias)
    return y


@script()
def calls_with_and_without(x: FLOAT["N"], b: FLOAT["N"]) -> tuple[FLOAT["N"], FLOAT["N"]]:
    return add_bias(x, b), add_bias(x)


def test_a_script_calls_a_function_with_the_input_given():
    """The call that omits it runs eagerly; compiled, onnxruntime refuses it (the measured
    limit above), so only the FunctionProto's node is checked."""
    proto = calls_with_and_without.to_function_proto()
    assert [list(n.input) for n in proto.node] == [["x", "b"], ["x"]]
    given, omitted = calls_with_and_without(X, B)
    np.testing.assert_allclose(given, X + B)
    np.testing.assert_allclose(omitted, X)


# -- None on one branch: an optional(tensor) value ---------------------------------------------

POS = np.array([1.0, 2.0], np.float32)
NEG = np.array([-1.0, -2.0], np.float32)


@script()
def none_in_else(x: FLOAT["N"]) -> FLOAT["N"]:
    if op.ReduceSum(x) > 0.0:
        y = op.Identity(x)
    else:
        y = None
    return y


@script()
def none_for_one_of_two(x: FLOAT["N"]) -> tuple[FLOAT["N"], FLOAT["N"]]:
    if op.ReduceSum(x) > 0.0:
        return x, op.Abs(x)
    return x, None


@script()
def none_in_expression(x: FLOAT["N"]) -> FLOAT["N"]:
    return op.Abs(x) if op.ReduceSum(x) > 0.0 else None


@script()
def none_then_tested(x: FLOAT["N"]) -> FLOAT["N"]:
    y = None
    if op.ReduceSum(x) > 0.0:
        y = op.Abs(x)
    if y is None:
        z = op.Neg(x)
    else:
        z = y + 1.0
    return z


@script()
def none_literal_branch(x: FLOAT["N"]) -> FLOAT:
    y = 1.5 if op.ReduceSum(x) > 0.0 else None
    if y is not None:
        z = op.Add(y, 1.0)
    else:
        z = op.ReduceSum(x, keepdims=0)
    return z


def _output_kinds(model: onnx.ModelProto) -> list[str]:
    return [o.type.WhichOneof("value") for o in model.graph.output]


@pytest.mark.parametrize(
    "fn", [none_in_else, none_for_one_of_two, none_in_expression], ids=lambda f: f.name
)
def test_an_output_none_on_one_branch_is_optional(fn):
    model = checked_model(fn)
    assert _output_kinds(model)[-1] == "optional_type"
    elem = model.graph.output[-1].type.optional_type.elem_type.tensor_type
    assert elem.elem_type == onnx.TensorProto.FLOAT
    *_, present = _compare(fn, POS)
    np.testing.assert_allclose(present, POS)
    *_, absent = _compare(fn, NEG)
    assert absent is None


def test_only_the_output_that_may_be_none_is_optional():
    assert _output_kinds(checked_model(none_for_one_of_two)) == ["tensor_type", "optional_type"]
    first, _ = _compare(none_for_one_of_two, NEG)
    np.testing.assert_allclose(first, NEG)


def test_the_empty_branch_makes_an_empty_optional_of_the_element_type():
    (if_node,) = [n for n in none_in_else.to_function_proto().node if n.op_type == "If"]
    else_branch = next(a.g for a in if_node.attribute if a.name == "else_branch")
    (empty,) = else_branch.node
    assert empty.op_type == "Optional" and not empty.input
    (type_attr,) = empty.attribute
    assert type_attr.tp.tensor_type.elem_type == onnx.TensorProto.FLOAT


@pytest.mark.parametrize("fn", [none_then_tested, none_literal_branch], ids=lambda f: f.name)
def test_a_value_that_may_be_none_is_tested_and_read(fn):
    """`y is None` reads the optional as it is; `y + 1.0` reads its tensor."""
    assert _output_kinds(checked_model(fn)) == ["tensor_type"]
    _compare(fn, POS)
    _compare(fn, NEG)


def test_a_function_returning_none_called_from_a_script():
    @script()
    def caller(x: FLOAT["N"]) -> FLOAT["N"]:
        y = none_in_else(x)
        if y is None:
            z = op.Neg(x)
        else:
            z = op.Mul(y, 2.0)
        return z

    np.testing.assert_allclose(_compare(caller, POS)[0], 2 * POS)
    np.testing.assert_allclose(_compare(caller, NEG)[0], -NEG)


def _compile(source: str, opset=opset18):
    return script()(define(source, {"FLOAT": FLOAT, "INT64": INT64, "op": opset}))


def test_none_on_one_branch_below_opset_15_is_a_located_error():
    source = (
        "def f(x: FLOAT['N']):\n"
        "    if op.ReduceSum(x) > 0.0:\n"
        "        y = op.Identity(x)\n"
        "    else:\n"
        "        y = None\n"
        "    return y\n"
    )
    with pytest.raises(ScriptError, match="'y' is None on one path") as info:
        _compile(source, opset13)
    message = str(info.value)
    assert "opset 15 or newer (this function uses opset 13)" in message
    assert "if op.ReduceSum(x) > 0.0:" in message and ":2:" in message


def test_none_with_an_element_type_unknown_at_compile_time_is_a_located_error():
    source = (
        "def f(x, c: FLOAT):\n"
        "    if c > 0.0:\n"
        "        y = op.Identity(x)\n"
        "    else:\n"
        "        y = None\n"
        "    return y\n"
    )
    with pytest.raises(ScriptError, match="element type on the other is not known"):
        _compile(source)


def test_a_loop_cannot_carry_none():
    source = (
        "def f(x: FLOAT['N'], n: INT64) -> FLOAT['N']:\n"
        "    y = None\n"
        "    for i in range(n):\n"
        "        y = x * 2.0\n"
        "    return y\n"
    )
    with pytest.raises(ScriptError, match="'y' may be None when this loop starts") as info:
        _compile(source)
    assert "for i in range(n):" in str(info.value)


def test_returning_none_on_every_path_is_a_located_error():
    source = "def f(x: FLOAT['N']) -> FLOAT['N']:\n    return None\n"
    with pytest.raises(ScriptError, match="returns None here on every path") as info:
        _compile(source)
    assert "return None" in str(info.value)


@script()
def reads_twice(x: FLOAT["N"]) -> FLOAT["N"]:
    y = op.Abs(x) if op.ReduceSum(x) > 0.0 else None
    if y is not None:
        z = (y + 1.0) * y
    else:
        z = x
    return z


def test_an_optional_value_is_read_once_per_graph():
    (if_node,) = [n for n in reads_twice.to_function_proto().node if n.op_type == "If"][1:]
    then_branch = next(a.g for a in if_node.attribute if a.name == "then_branch")
    ops = [n.op_type for n in then_branch.node]
    assert ops.count("OptionalGetElement") == 1
    np.testing.assert_allclose(_compare(reads_twice, POS)[0], (POS + 1) * POS)
    np.testing.assert_allclose(_compare(reads_twice, NEG)[0], NEG)


@script()
def any_rank(X: FLOAT[...], Bias: FLOAT[...] = None) -> FLOAT[...]:
    if Bias is None:
        return op.Identity(X)
    return op.Add(X, Bias)


def test_an_optional_input_of_any_rank():
    """``FLOAT[...]`` leaves the shape out, which the checker refuses on a model's inputs
    and outputs (issue 13): the model is given types, and the given type of the optional
    input becomes optional."""
    x = np.ones((2, 3), np.float32)
    t = FLOAT["A", "B"]
    model = checked_model(any_rank, input_types=[t, t], output_types=[t])
    assert _input_kind(model, 1) == "optional_type"
    elem = model.graph.input[1].type.optional_type.elem_type.tensor_type
    assert [d.dim_param for d in elem.shape.dim] == ["A", "B"]
    for args, expected in (((x,), x), ((x, None), x), ((x, x), 2 * x)):
        (got,) = run_proto_model(model, list(args))
        np.testing.assert_allclose(got, expected)
        np.testing.assert_allclose(any_rank(*args), got)


@script()
def none_on_both_branches(x: FLOAT["N"]) -> FLOAT["N"]:
    if op.ReduceSum(x) > 0.0:
        y = None
        z = op.Abs(x)
    else:
        y = None
        z = op.Neg(x)
    if y is None:
        z = z + 1.0
    return z


def test_none_on_every_branch_stays_the_python_none():
    ops = [n.op_type for n in none_on_both_branches.to_function_proto().node]
    assert ops.count("If") == 1 and "Optional" not in ops and "OptionalHasElement" not in ops
    np.testing.assert_allclose(_compare(none_on_both_branches, POS)[0], POS + 1)
    np.testing.assert_allclose(_compare(none_on_both_branches, NEG)[0], 1 - NEG)
