"""Rules from functions and from classes: conditions, replacements that decline,
commuted forms, setup/cleanup, PatternBase."""

from __future__ import annotations

import onnx.parser
import onnx_ir as ir
import pytest

from onnxscript.rewriter import MatchResult, pattern


def _model(text: str) -> ir.Model:
    return ir.serde.deserialize_model(onnx.parser.parse_model(text))


TWO_RELUS = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) { r = Relu(x) y = Relu(r) }"""


def _relu_relu(op, x):
    return op.Relu(op.Relu(x))


def _relu(op, x):
    return op.Relu(x)


def _ops(model: ir.Model) -> list[str]:
    return [n.op_type for n in model.graph]


def test_rule_from_functions_rewrites_and_counts():
    model = _model(TWO_RELUS)
    assert pattern.RewriteRule(_relu_relu, _relu).apply_to_model(model) == 1
    assert _ops(model) == ["Relu"] and model.graph.outputs[0].name == "y"


@pytest.mark.parametrize(
    "condition",
    [lambda context, x: False, lambda context, x: MatchResult().fail("no", x)],
)
def test_condition_refuses(condition):
    model = _model(TWO_RELUS)
    assert pattern.RewriteRule(_relu_relu, _relu, condition).apply_to_model(model) == 0
    assert _ops(model) == ["Relu", "Relu"]


def test_condition_gets_context_and_only_the_bindings_it_names():
    seen = {}

    def condition(context, x):
        seen["root"] = context.root.op_type
        seen["x"] = x.name
        return True

    pattern.RewriteRule(_relu_relu, _relu, condition).apply_to_model(_model(TWO_RELUS))
    assert seen == {"root": "Relu", "x": "x"}


def test_replacement_returning_none_declines():
    model = _model(TWO_RELUS)
    assert pattern.RewriteRule(_relu_relu, lambda op, x: None).apply_to_model(model) == 0
    assert _ops(model) == ["Relu", "Relu"]


def test_replacement_with_wrong_output_count_is_an_error():
    rule = pattern.RewriteRule(_relu_relu, lambda op, x: (op.Relu(x), op.Relu(x)))
    with pytest.raises(ValueError, match="returned 2 value"):
        rule.apply_to_model(_model(TWO_RELUS))


def test_commute_gives_every_swapped_form():
    rule = pattern.RewriteRule(
        lambda op, x, y, z: op.Add(op.Mul(x, y), z), lambda op, x, y, z: op.Sum(x, y, z)
    )
    forms = rule.commute()
    assert len(forms) == 4
    model = _model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2] a, float[2] b, float[2] c) => (float[2] y) { m = Mul(a, b) y = Add(c, m) }"""
    )
    assert rule.apply_to_model(model) == 0
    assert rule.apply_to_model(model, commute=True) == 1
    assert _ops(model) == ["Sum"]


def test_rule_class_with_check_setup_and_cleanup():
    calls = []

    class IdentityTranspose(pattern.RewriteRuleClassBase):
        def setup(self):
            calls.append("setup")

        def cleanup(self):
            calls.append("cleanup")

        def pattern(self, op, x, perm):
            return op.Transpose(x, perm=perm)

        def check(self, context, x, perm):
            return list(perm.as_ints()) == list(range(len(perm.as_ints())))

        def rewrite(self, op, x, perm):
            return op.Identity(x)

    rule = IdentityTranspose.rule()
    assert rule.name == "IdentityTranspose"
    model = _model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2,3] x) => (float[2,3] a, float[3,2] b) {
            t = Transpose <perm = [0, 1]> (x) a = Relu(t) b = Transpose <perm = [1, 0]> (x) }"""
    )
    assert rule.apply_to_model(model) == 1
    assert _ops(model) == ["Identity", "Relu", "Transpose"]
    assert calls == ["setup", "cleanup"]


def test_rule_class_name_and_remove_nodes_options():
    class KeepNodes(pattern.RewriteRuleClassBase):
        def pattern(self, op, x):
            return op.Neg(x)

        def rewrite(self, op, x):
            return op.Neg(x, _domain="custom")

    rule = KeepNodes.rule(name="custom_neg", remove_nodes=False)
    assert rule.name == "custom_neg" and rule.remove_nodes is False


def test_pattern_base_matches_without_rewriting():
    class Relus(pattern.PatternBase):
        def pattern(self, op, x):
            return op.Relu(op.Relu(x))

    model = _model(TWO_RELUS)
    results = [bool(Relus().match(model, model.graph, node)) for node in model.graph]
    assert results == [False, True]


def test_pattern_of_a_function_matches_at_a_node():
    model = _model(TWO_RELUS)
    compiled = pattern.Pattern(_relu_relu)
    result = compiled.match(model, model.graph, model.graph.node(1))
    assert result and [n.op_type for n in result.nodes] == ["Relu", "Relu"]


def test_as_function_needs_the_matched_nodes_removed():
    with pytest.raises(ValueError, match="remove_nodes=True"):
        pattern.RewriteRule(_relu_relu, _relu, as_function=True, remove_nodes=False)
