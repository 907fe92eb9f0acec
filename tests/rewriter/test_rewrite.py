"""``rewrite()`` and ``RewritePass`` on whole models: model kinds, default rules,
functions and subgraphs, metadata, graph output names; results checked with the full
onnx checker and run in onnxruntime against the original."""

from __future__ import annotations

import onnx
import onnx.parser
import onnx_ir as ir

from onnxscript import rewriter
from onnxscript.rewriter import RULE_NAME_TAG, RewritePass, pattern
from onnxscript.rewriter.rules.common import default_rules
from tests.helpers import assert_same_results


def _relu_relu(op, x):
    return op.Relu(op.Relu(x))


def _relu(op, x):
    return op.Relu(x)


RELU_RULE = pattern.RewriteRule(_relu_relu, _relu)

TWO_RELUS = onnx.parser.parse_model(
    """<ir_version: 8, opset_import: ["" : 18]>
    g (float[2,3] x) => (float[2,3] y) { r = Relu(x) y = Relu(r) }"""
)


def test_model_proto_in_model_proto_out_original_untouched():
    before = onnx.ModelProto()
    before.CopyFrom(TWO_RELUS)
    after = rewriter.rewrite(TWO_RELUS, pattern_rewrite_rules=[RELU_RULE])
    assert isinstance(after, onnx.ModelProto)
    assert [n.op_type for n in after.graph.node] == ["Relu"]
    assert before == TWO_RELUS
    assert_same_results(TWO_RELUS, after)


def test_ir_model_rewritten_in_place():
    model = ir.serde.deserialize_model(TWO_RELUS)
    assert rewriter.rewrite(model, pattern_rewrite_rules=[RELU_RULE]) is model
    assert [n.op_type for n in model.graph] == ["Relu"]


def test_none_means_the_default_rules_and_empty_means_no_change():
    model = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2] x) => (float[2] y) { one = Constant <value_float = 1.0> () y = Mul(x, one) }"""
    )
    by_default = rewriter.rewrite(model)
    explicit = rewriter.rewrite(model, pattern_rewrite_rules=default_rules())
    assert by_default == explicit
    assert rewriter.rewrite(model, pattern_rewrite_rules=[]) is model


def test_rewrite_pass_reports_modification():
    model = ir.serde.deserialize_model(TWO_RELUS)
    assert RewritePass([RELU_RULE])(model).modified
    assert not RewritePass([RELU_RULE])(model).modified


def test_rewrites_inside_functions_and_if_and_loop_bodies():
    model = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
        g (float[2] x, bool c, int64 n) => (float[2] y, float[2] z, float[2] w) {
            y = local.twice(x)
            z = If(c) <
                then_branch = t () => (float[2] o) { a = Relu(x) o = Relu(a) },
                else_branch = e () => (float[2] o2) { o2 = Neg(x) }
            >
            w = Loop(n, c, x) <
                body = b (int64 i, bool cond, float[2] v) => (bool cond_out, float[2] v_out) {
                    cond_out = Identity(cond) r = Relu(v) v_out = Relu(r) }
            >
        }
        <domain: "local", opset_import: ["" : 18]>
        twice (x) => (y) { a = Relu(x) y = Relu(a) }"""
    )
    after = rewriter.rewrite(model, pattern_rewrite_rules=[RELU_RULE])
    function_ops = [n.op_type for n in after.functions[0].node]
    then_ops = [n.op_type for n in after.graph.node[1].attribute[0].g.node]
    body_ops = [n.op_type for n in after.graph.node[2].attribute[0].g.node]
    assert function_ops == ["Relu"] and then_ops == ["Relu"] and body_ops == ["Identity", "Relu"]
    onnx.checker.check_model(after, full_check=True)


def test_metadata_of_replaced_nodes_is_merged_without_a_rule_tag():
    model = ir.serde.deserialize_model(TWO_RELUS)
    first, second = model.graph
    first.metadata_props["source"] = "layer1"
    second.metadata_props["note"] = "outer"
    rewriter.rewrite(
        model, pattern_rewrite_rules=[pattern.RewriteRule(_relu_relu, _relu, name="relu2")]
    )
    [node] = model.graph
    assert node.metadata_props["source"] == "layer1"
    assert node.metadata_props["note"] == "outer"
    assert RULE_NAME_TAG not in node.metadata_props  # as 0.7.2: no tag by default


def test_graph_outputs_keep_their_names_and_x_times_one_becomes_x():
    model = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2,3] x) => (float[2,3] y, float[2,3] z) {
            r = Relu(x) one = Constant <value_float = 1.0> () y = Mul(r, one) z = Mul(x, one) }"""
    )
    rule = pattern.RewriteRule(lambda op, x: op.Mul(x, 1.0), lambda op, x: x)
    after = rewriter.rewrite(model, pattern_rewrite_rules=[rule])
    assert [o.name for o in after.graph.output] == ["y", "z"]
    assert [i.name for i in after.graph.input] == ["x"]
    # y: Relu's own output renamed; z (the input itself): an Identity keeps the interface.
    assert sorted(n.op_type for n in after.graph.node) == ["Identity", "Relu"]
    assert_same_results(model, after)


def test_domain_of_the_replacement_is_imported():
    rule = pattern.RewriteRule(_relu_relu, lambda op, x: op.DoubleRelu(x, _domain="my.ops"))
    after = rewriter.rewrite(TWO_RELUS, pattern_rewrite_rules=[rule])
    assert {i.domain: i.version for i in after.opset_import}["my.ops"] == 1
    assert after.graph.node[0].domain == "my.ops"


def test_erf_gelu_to_onnx_gelu_computes_the_same():
    model = onnx.parser.parse_model(
        """<ir_version: 10, opset_import: ["" : 20]>
        g (float[4,8] x) => (float[4,8] y) {
            r2 = Constant <value_float = 1.4142135> () d = Div(x, r2) e = Erf(d)
            one = Constant <value_float = 1.0> () p = Add(e, one) m = Mul(x, p)
            half = Constant <value_float = 0.5> () y = Mul(half, m) }"""
    )

    def erf_gelu(op, x):
        return 0.5 * (x * (op.Erf(x / 1.4142135) + 1.0))

    rules = pattern.RewriteRuleSet(
        [pattern.RewriteRule(erf_gelu, lambda op, x: op.Gelu(x))], commute=True
    )
    after = rewriter.rewrite(model, pattern_rewrite_rules=rules)
    assert [n.op_type for n in after.graph.node] == ["Gelu"]
    assert_same_results(model, after)


def test_multi_output_replacement_reusing_the_matched_op_terminates():
    """0.7.2 loops forever here (it matches both MatMul patterns to the new MatMul)."""
    model = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 18]>
        g (float[2,3] x, float[3,4] a, float[3,4] b) => (float[2,4] p, float[2,4] q) {
            p = MatMul(x, a) q = MatMul(x, b) }"""
    )

    def fused(op, x, w1, w2):
        out = op.MatMul(x, op.Concat(w1, w2, axis=-1))
        return op.Split(out, num_outputs=2, axis=-1, _outputs=2)

    rule = pattern.RewriteRule(lambda op, x, w1, w2: (op.MatMul(x, w1), op.MatMul(x, w2)), fused)
    after = rewriter.rewrite(model, pattern_rewrite_rules=[rule])
    assert sorted(n.op_type for n in after.graph.node) == ["Concat", "MatMul", "Split"]
    assert [o.name for o in after.graph.output] == ["p", "q"]
    assert_same_results(model, after)


def test_private_0_7_paths():
    from onnxscript.rewriter._basics import MatchResult
    from onnxscript.rewriter._rewrite_rule import RewriteRuleClassBase, RewriteRuleSet

    assert MatchResult is rewriter.MatchResult
    assert RewriteRuleClassBase is rewriter.RewriteRuleClassBase
    assert RewriteRuleSet is rewriter.RewriteRuleSet
