"""Rule sets: order, commuted forms, counts, and rules rewriting what others made."""

from __future__ import annotations

import onnx.parser
import onnx_ir as ir

from onnxscript.rewriter import pattern


def _model(text: str) -> ir.Model:
    return ir.serde.deserialize_model(onnx.parser.parse_model(text))


def test_first_rule_wins_at_a_node():
    model = _model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2] x) => (float[2] y) { y = Relu(x) }"""
    )
    rules = pattern.RewriteRuleSet(
        [
            pattern.RewriteRule(lambda op, x: op.Relu(x), lambda op, x: op.A(x, _domain="d")),
            pattern.RewriteRule(lambda op, x: op.Relu(x), lambda op, x: op.B(x, _domain="d")),
        ]
    )
    assert len(rules) == 2 and rules.apply_to_model(model) == 1
    assert [n.op_type for n in model.graph] == ["A"]
    assert model.opset_imports["d"] == 1


def test_commute_expands_every_rule():
    rule = pattern.RewriteRule(
        lambda op, x, y: op.Mul(x, op.Exp(y)), lambda op, x, y: op.MulExp(x, y, _domain="d")
    )
    assert len(pattern.RewriteRuleSet([rule], commute=True)) == 2
    model = _model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2] a, float[2] b) => (float[2] p, float[2] q) {
            e = Exp(b) p = Mul(a, e) f = Exp(a) q = Mul(f, b) }"""
    )
    assert pattern.RewriteRuleSet([rule], commute=True).apply_to_model(model) == 2


def test_a_later_rule_rewrites_what_an_earlier_one_made():
    model = _model(
        """<ir_version: 8, opset_import: ["" : 18, "custom" : 1]>
        g (float[2] x) => (float[2] y) { y = custom.Relu(x) }"""
    )
    rules = pattern.RewriteRuleSet(
        [
            pattern.RewriteRule(lambda op, x: op.Relu(x), lambda op, x: op.Fast(x, _domain="d")),
            pattern.RewriteRule(
                lambda op, x: op.Relu(x, _domain="custom"), lambda op, x: op.Relu(x)
            ),
        ]
    )
    assert rules.apply_to_model(model) == 2
    assert [(n.domain, n.op_type) for n in model.graph] == [("d", "Fast")]


def test_rules_undoing_each_other_stop():
    model = _model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2] x) => (float[2] y) { y = Relu(x) }"""
    )
    rules = pattern.RewriteRuleSet(
        [
            pattern.RewriteRule(lambda op, x: op.Relu(x), lambda op, x: op.Relu(x, _domain="d")),
            pattern.RewriteRule(lambda op, x: op.Relu(x, _domain="d"), lambda op, x: op.Relu(x)),
        ]
    )
    count = rules.apply_to_model(model)
    assert 1 < count <= 40  # bounded, not an endless loop
    assert len(model.graph) == 1
