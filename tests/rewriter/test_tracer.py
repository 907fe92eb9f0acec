"""MatchingTracer: why a rule did not match where it was expected."""

from __future__ import annotations

import onnx.parser
import onnx_ir as ir

from onnxscript.rewriter import MatchingTracer, MatchStatus, pattern


def _model(text: str) -> ir.Model:
    return ir.serde.deserialize_model(onnx.parser.parse_model(text))


def test_report_names_the_node_and_the_reason(capsys):
    model = _model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2] x) => (float[2] y) { e = Exp(x) n = Neg(e) y = Relu(n) }"""
    )
    rule = pattern.RewriteRule(
        lambda op, x: op.Relu(op.Neg(op.Log(x))), lambda op, x: op.Relu(x), name="relu_neg_log"
    )
    tracer = MatchingTracer()
    assert pattern.RewriteRuleSet([rule]).apply_to_model(model, tracer=tracer) == 0
    [info] = tracer.best_matches_map[rule]
    assert info.status is MatchStatus.NO_MATCH
    assert len(info.match_result.nodes) == 2  # Relu and Neg matched before it stopped
    text = tracer.report_text()
    assert "Rule relu_neg_log" in text
    assert "expected Log, found Exp" in text
    assert "e = Exp(x)" in text  # the node where it failed
    tracer.report()
    assert "expected Log, found Exp" in capsys.readouterr().out


def test_statuses_of_condition_and_replacement():
    text = """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2] x) => (float[2] y) { y = Relu(x) }"""
    refused = pattern.RewriteRule(
        lambda op, x: op.Relu(x), lambda op, x: op.Neg(x), lambda context, x: False
    )
    declined = pattern.RewriteRule(lambda op, x: op.Relu(x), lambda op, x: None)
    done = pattern.RewriteRule(lambda op, x: op.Relu(x), lambda op, x: op.Neg(x))
    statuses = []
    for rule in (refused, declined, done):
        tracer = MatchingTracer()
        rule.apply_to_model(_model(text), tracer=tracer)
        statuses.append(tracer.best_matches_map[rule][0].status)
    assert statuses == [
        MatchStatus.CONDITION_FAILED,
        MatchStatus.REPLACEMENT_FAILED,
        MatchStatus.SUCCESS,
    ]


def test_condition_failure_reason_is_reported():
    model = _model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2] x) => (float[2] y) { y = Relu(x) }"""
    )
    from onnxscript.rewriter import MatchResult

    rule = pattern.RewriteRule(
        lambda op, x: op.Relu(x),
        lambda op, x: op.Neg(x),
        lambda context, x: MatchResult().fail("rank must be 3", x),
    )
    tracer = MatchingTracer()
    rule.apply_to_model(model, tracer=tracer)
    text = tracer.report_text()
    assert "rank must be 3" in text and "failed at: value x" in text
