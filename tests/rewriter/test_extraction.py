"""``RewriteRule(as_function=True)``: each match becomes a model-local function, called by
the replacement's one node (onnxscript/rewriter/extraction.py)."""

from __future__ import annotations

import onnx
import onnx_ir as ir
import pytest

from onnxscript.rewriter import pattern
from onnxscript.rewriter.tracer import MatchingTracer, MatchStatus
from tests.rewriter.rule_checks import check_rule, parse

TWO_MULADDS = """
g (float[N] a, float[N] b, float[N] c, float[N] d) => (float[N] o1, float[N] o2) {
  t = Mul(a, b)
  o1 = Add(t, c)
  u = Mul(b, c)
  v = Add(u, d)
  o2 = Relu(v)
}
"""


def _mul_add(op, x, y, z):
    return op.Add(op.Mul(x, y), z)


def _call(op, x, y, z):
    return op.MulAdd(x, y, z, _domain="custom")


def _rule(**kwargs) -> pattern.RewriteRule:
    return pattern.RewriteRule(_mul_add, _call, as_function=True, **kwargs)


def _functions(model: onnx.ModelProto) -> dict[tuple[str, str, str], onnx.FunctionProto]:
    return {(f.domain, f.name, f.overload): f for f in model.functions}


def test_each_match_becomes_a_function_the_model_runs_alike():
    result = check_rule(TWO_MULADDS, [_rule()], sizes={"N": 5})
    assert [(n.op_type, n.domain, n.overload) for n in result.graph.node] == [
        ("MulAdd", "custom", "1"),
        ("MulAdd", "custom", "2"),
        ("Relu", "", ""),
    ]
    first, second = _functions(result).values()
    assert (list(first.input), list(first.output)) == (["a", "b", "c"], ["o1"])
    assert [n.op_type for n in first.node] == ["Mul", "Add"]
    assert (list(second.input), list(second.output)) == (["b", "c", "d"], ["v"])
    assert [(o.domain, o.version) for o in first.opset_import] == [("", 20)]
    assert [o.name for o in result.graph.output] == ["o1", "o2"]


def test_constants_of_the_match_go_into_the_function():
    text = """
    g (float[N] a, float[N] b) => (float[N] o) {
      one = Constant<value_float=1.0>()
      t = Mul(a, b)
      o = Add(t, one)
    }
    """

    def target(op, x, y):
        return op.Add(op.Mul(x, y), op.Constant(value_float=1.0))

    def call(op, x, y):
        return op.MulAddOne(x, y, _domain="custom")

    rule = pattern.RewriteRule(target, call, as_function=True)
    result = check_rule(text, [rule])
    (function,) = result.functions
    assert [n.op_type for n in function.node] == ["Constant", "Mul", "Add"]
    assert [n.op_type for n in result.graph.node] == ["MulAddOne"]


def test_commuted_forms_extract_too():
    text = "g (float[N] a, float[N] b, float[N] c) => (float[N] o) { t = Mul(a, b) o = Add(c, t) }"
    rules = _rule().commute()
    assert all(r.as_function for r in rules)
    result = check_rule(text, rules)
    assert [n.op_type for n in result.graph.node] == ["MulAdd"]


def test_a_value_the_call_does_not_pass_refuses_the_match():
    def partial_call(op, x, y, z):
        return op.MulAdd(x, y, _domain="custom")  # z is read by the Add but not passed

    model = ir.from_proto(parse(TWO_MULADDS))
    tracer = MatchingTracer()
    rule = pattern.RewriteRule(_mul_add, partial_call, as_function=True)
    assert rule.apply_to_model(model, tracer=tracer) == 0
    (info,) = [i for infos in tracer.best_matches_map.values() for i in infos][:1]
    assert info.status == MatchStatus.REPLACEMENT_FAILED
    assert "does not take as an input" in info.match_result.reason


def test_applying_again_does_not_wrap_the_function_body():
    model = ir.from_proto(parse(TWO_MULADDS))
    rule = _rule()
    assert rule.apply_to_model(model) == 2
    assert rule.apply_to_model(model) == 0
    assert sorted(model.functions) == [("custom", "MulAdd", "1"), ("custom", "MulAdd", "2")]
    assert [n.op_type for n in model.functions["custom", "MulAdd", "1"]] == ["Mul", "Add"]


def test_an_overload_the_model_has_is_not_reused():
    model = ir.from_proto(parse(TWO_MULADDS))
    _rule().apply_to_model(model)
    again = ir.from_proto(parse(TWO_MULADDS))
    again.functions[("custom", "MulAdd", "1")] = model.functions["custom", "MulAdd", "1"]
    _rule().apply_to_model(again)
    assert sorted(again.functions) == [
        ("custom", "MulAdd", "1"),
        ("custom", "MulAdd", "2"),
        ("custom", "MulAdd", "3"),
    ]


def test_a_replacement_of_two_nodes_is_an_error():
    def two_nodes(op, x, y, z):
        return op.Relu(op.MulAdd(x, y, z, _domain="custom"))

    model = ir.from_proto(parse(TWO_MULADDS))
    rule = pattern.RewriteRule(_mul_add, two_nodes, as_function=True)
    with pytest.raises(ValueError, match="single replacement node"):
        rule.apply_to_model(model)


def test_a_rule_class_can_extract():
    class MulAddFunction(pattern.RewriteRuleClassBase):
        def pattern(self, op, x, y, z):
            return _mul_add(op, x, y, z)

        def rewrite(self, op, x, y, z):
            return _call(op, x, y, z)

    rule = MulAddFunction.rule(as_function=True)
    result = check_rule(TWO_MULADDS, [rule])
    assert len(result.functions) == 2
