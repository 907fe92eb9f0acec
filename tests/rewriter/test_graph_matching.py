"""Matching at a node: structure, options, constants, alternatives, checkers."""

from __future__ import annotations

import onnx.parser
import onnx_ir as ir

from onnxscript.ir_utils.value_facts import basic_constant_propagation
from onnxscript.rewriter import MatchResult, pattern


def _model(text: str) -> ir.Model:
    return ir.serde.deserialize_model(onnx.parser.parse_model(text))


def _matches(pat, model: ir.Model) -> list[bool]:
    compiled = pattern.Pattern(pat)
    return [bool(compiled.match(model, model.graph, node)) for node in model.graph]


HEADER = '<ir_version: 8, opset_import: ["" : 18, "custom" : 1]>\n'


def test_op_type_and_domain():
    model = _model(
        HEADER + "g (float[2] x) => (float[2] a, float[2] b) { a = Relu(x) b = custom.Relu(x) }"
    )
    assert _matches(lambda op, x: op.Relu(x), model) == [True, False]
    assert _matches(lambda op, x: op.Relu(x, _domain="custom"), model) == [False, True]
    assert _matches(lambda op, x: op.Relu(x, _domain="ai.onnx"), model) == [True, False]


def test_attribute_constants_and_other_attributes():
    model = _model(
        HEADER + "g (float[2,3] x) => (float[3,2] a, float[2,3] b) {"
        " a = Transpose <perm = [1, 0]> (x) b = Softmax <axis = 1> (x) }"
    )
    assert _matches(lambda op, x: op.Transpose(x, perm=[1, 0]), model) == [True, False]
    assert _matches(lambda op, x: op.Transpose(x, perm=[0, 1]), model) == [False, False]
    # Softmax has an attribute the pattern does not name.
    assert _matches(lambda op, x: op.Softmax(x), model) == [False, True]
    strict = _matches(lambda op, x: op.Softmax(x, _allow_other_attributes=False), model)
    assert strict == [False, False]


def test_attribute_variables_bind_ir_attrs():
    model = _model(
        HEADER + "g (float[2,3] x) => (float[3,2] a) { a = Transpose <perm = [1, 0]> (x) }"
    )
    result = pattern.Pattern(lambda op, x, p: op.Transpose(x, perm=p)).match(
        model, model.graph, model.graph.node(0)
    )
    assert result and isinstance(result.bindings["p"], ir.Attr)
    assert list(result.bindings["p"].as_ints()) == [1, 0]


def test_other_inputs_and_omitted_inputs():
    model = _model(
        HEADER + "g (float[2] x, float lo, float hi) => (float[2] a, float[2] b, float[2] c) {"
        " a = Clip(x, lo, hi) b = Clip(x) c = Clip(x, , hi) }"
    )
    assert _matches(lambda op, x: op.Clip(x), model) == [False, True, False]
    assert _matches(lambda op, x: op.Clip(x, _allow_other_inputs=True), model) == [True] * 3
    assert _matches(lambda op, x, hi: op.Clip(x, None, hi), model) == [False, False, True]
    maybe = pattern.Var("lo", can_match_none=True)
    assert _matches(lambda op, x, hi: op.Clip(x, maybe, hi), model) == [True, False, True]
    assert _matches(lambda op, x: op.Clip(x, pattern.ANY_VALUE, pattern.ANY_VALUE), model) == [
        True,
        True,
        True,
    ]


def test_constants_by_value_rank_and_tolerance():
    model = _model(
        HEADER + "g (float[2] x) => (float[2] a, float[2] b, float[2] c, float[2] d) {"
        " one = Constant <value_float = 1.0> ()"
        " near = Constant <value = float[1] {1.0000001}> ()"
        " two = Constant <value_floats = [1.0, 2.0]> ()"
        " a = Mul(x, one) b = Mul(x, near) c = Mul(x, two) d = Mul(x, x) }"
    )
    graph_nodes = [n for n in model.graph if n.op_type == "Mul"]

    def results(pat):
        compiled = pattern.Pattern(pat)
        return [bool(compiled.match(model, model.graph, n)) for n in graph_nodes]

    assert results(lambda op, x: op.Mul(x, 1.0)) == [True, True, False, False]
    scalar_only = pattern.Constant(1.0, ignore_rank=False)
    assert results(lambda op, x: op.Mul(x, scalar_only)) == [True, False, False, False]
    assert results(lambda op, x: op.Mul(x, [1.0, 2.0])) == [False, False, True, False]
    assert results(lambda op, x: op.Mul(x, x)) == [False, False, False, True]


def test_constants_that_are_not_numbers_or_not_constants_do_not_match():
    """A string constant is not the number 1 (no error comparing them), and a graph
    input's initializer is a default the caller may override, not a constant."""
    model = _model(
        HEADER + "g (string[1] x, float[1] y, float[1] w) => (string[1] a, float[1] b) "
        "<float[1] w = {1.0}> {"
        ' s = Constant <value_strings = ["1"]> ()'
        " a = custom.Join(x, s) b = Mul(y, w) }"
    )
    joined = pattern.Pattern(lambda op, x: op.Join(x, 1.0, _domain="custom"))
    _, join, mul = list(model.graph)
    assert not joined.match(model, model.graph, join)
    assert not pattern.Pattern(lambda op, x: op.Mul(x, 1.0)).match(model, model.graph, mul)


def test_or_value_binds_the_tag_of_the_alternative_met():
    model = _model(
        HEADER + "g (float[2] x, float[2] s) => (float[2] a, float[2] b, float[2] c) {"
        " m = Mul(x, s) a = Relu(m) d = Div(x, s) b = Relu(d) e = Sub(x, s) c = Relu(e) }"
    )

    def pat(op, x, s):
        either = pattern.OrValue(
            [op.Mul(x, s), op.Div(x, s)], tag_var="kind", tag_values=["mul", "div"]
        )
        return op.Relu(either)

    compiled = pattern.Pattern(pat)
    relus = [n for n in model.graph if n.op_type == "Relu"]
    found = [compiled.match(model, model.graph, n) for n in relus]
    assert [r.bindings.get("kind") if r else None for r in found] == ["mul", "div", None]


def test_value_and_node_checkers():
    model = _model(
        HEADER + "g (float[2] x) => (float[2] a, float[2] b, int64[1] c, int64[2] d) {"
        " pos = Constant <value_float = 2.0> () neg = Constant <value_float = -2.0> ()"
        " a = Add(pos, x) b = Add(neg, x) c = Shape <start = 1> (x) d = Shape(x) }"
    )
    basic_constant_propagation(model.graph)  # as 0.7's tutorial does before matching
    seen = []

    def positive(context, value):
        seen.append(value.name)
        return value.const_value is not None and float(value.const_value.numpy()) > 0

    def from_start(context, node):
        return node.attributes.get_int("start", 0) == 0

    assert _matches(lambda op, x: op.Add(positive, x), model)[2:4] == [True, False]
    assert seen  # the checker saw the values
    assert _matches(lambda op, x: op.Shape(x, _check=from_start), model)[4:] == [False, True]


def test_checker_failure_and_crash_are_reported():
    model = _model(HEADER + "g (float[2] x) => (float[2] a) { a = Relu(x) }")
    node = model.graph.node(0)

    def refuse(context, value):
        return MatchResult().fail("not this one", value)

    def crash(context, value):
        raise RuntimeError("boom")

    result = pattern.Pattern(lambda op, x: op.Relu(refuse)).match(model, model.graph, node)
    assert not result and result.reason == "not this one"
    assert result.failure_nodes_and_values[0].name == "x"
    result = pattern.Pattern(lambda op, x: op.Relu(crash)).match(model, model.graph, node)
    assert not result and "RuntimeError: boom" in result.reason


def test_values_used_outside_the_match_stop_it():
    model = _model(
        HEADER + "g (float[2] x) => (float[2] a, float[2] b) { r = Relu(x) a = Neg(r) b = Exp(r) }"
    )
    compiled = pattern.Pattern(lambda op, x: op.Neg(op.Relu(x)))
    neg = model.graph.node(1)
    result = compiled.match(model, model.graph, neg)
    assert not result and "used outside the pattern" in result.reason
    assert compiled.match(model, model.graph, neg, check_nodes_are_removable=False)


def test_multi_output_pattern_matches_distinct_nodes():
    model = _model(
        HEADER + "g (float[2,3] x, float[3,4] a, float[3,4] b) => (float[2,4] p, float[2,4] q) {"
        " p = MatMul(x, a) q = MatMul(x, b) }"
    )
    compiled = pattern.Pattern(lambda op, x, w1, w2: (op.MatMul(x, w1), op.MatMul(x, w2)))
    result = compiled.match(model, model.graph, model.graph.node(0))
    assert result
    assert result.bindings["w1"].name == "a" and result.bindings["w2"].name == "b"
    assert [v.name for v in result.outputs] == ["p", "q"]


def test_named_outputs_are_bound():
    model = _model(
        HEADER + "g (float[4] x) => (float[2] p, float[2] q) { p, q = Split <num_outputs = 2> (x) }"
    )
    compiled = pattern.Pattern(lambda op, x: op.Split(x, _outputs=["first", "second"]))
    result = compiled.match(model, model.graph, model.graph.node(0))
    assert result and result.bindings["first"].name == "p" and result.bindings["second"].name == "q"


def test_a_variable_met_twice_must_be_the_same_value():
    model = _model(
        HEADER
        + "g (float[2] x, float[2] y) => (float[2] a, float[2] b) { a = Mul(x, x) b = Mul(x, y) }"
    )
    assert _matches(lambda op, x: op.Mul(x, x), model) == [True, False]
