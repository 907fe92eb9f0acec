"""Rewriter snippets in the style of onnxscript 0.7's tutorial, run unchanged on our
package and on 0.7.2 (``tests/rewriter/test_compat_07.py``). Each defines ``run()``."""

from __future__ import annotations

PRELUDE = """
import math
import numpy as np
import onnx
import onnx.parser
import onnxscript.rewriter
from onnxscript import ir
from onnxscript.rewriter import pattern

def parse(text):
    return onnx.parser.parse_model(text)

GELU_MODEL = '''
<ir_version: 8, opset_import: ["" : 18]>
g (float[4,8] X, float[4,8] Y) => (float[4,8] Z) {
    s = Add(X, Y)
    r2 = Constant <value_float = 1.4142135> ()
    d = Div(s, r2)
    e = Erf(d)
    one = Constant <value_float = 1.0> ()
    p = Add(e, one)
    m = Mul(s, p)
    half = Constant <value_float = 0.5> ()
    Z = Mul(half, m)
}
'''

COMMUTED_GELU_MODEL = '''
<ir_version: 8, opset_import: ["" : 18]>
g (float[4,8] X, float[4,8] Y) => (float[4,8] Z) {
    r2 = Constant <value_float = 1.4142135> ()
    one = Constant <value_float = 1.0> ()
    half = Constant <value_float = 0.5> ()
    d1 = Div(X, r2)
    e1 = Erf(d1)
    p1 = Add(e1, one)
    m1 = Mul(X, p1)
    g1 = Mul(half, m1)
    d2 = Div(Y, r2)
    e2 = Erf(d2)
    p2 = Add(e2, one)
    m2 = Mul(Y, p2)
    g2 = Mul(m2, half)
    Z = Add(g1, g2)
}
'''

def erf_gelu_pattern(op, x):
    return 0.5 * (x * (op.Erf(x / math.sqrt(2)) + 1.0))

def erf_gelu_pattern_2(op, x):
    return (x * (op.Erf(x / math.sqrt(2)) + 1.0)) * 0.5

def gelu(op, x: ir.Value):
    return op.Gelu(x, _domain="com.microsoft")
"""

CASES: dict[str, str] = {}


def case(name: str, body: str) -> None:
    CASES[name] = PRELUDE + body


case(
    "erf_gelu",
    """
def run():
    rule = pattern.RewriteRule(erf_gelu_pattern, gelu)
    return onnxscript.rewriter.rewrite(parse(GELU_MODEL), pattern_rewrite_rules=[rule])
""",
)

case(
    "erf_gelu_one_form_on_commuted_model",
    """
def run():
    rule = pattern.RewriteRule(erf_gelu_pattern, gelu)
    return onnxscript.rewriter.rewrite(parse(COMMUTED_GELU_MODEL), pattern_rewrite_rules=[rule])
""",
)

case(
    "erf_gelu_rule_set_of_two_forms",
    """
def run():
    rules = pattern.RewriteRuleSet(
        [pattern.RewriteRule(erf_gelu_pattern, gelu), pattern.RewriteRule(erf_gelu_pattern_2, gelu)]
    )
    return onnxscript.rewriter.rewrite(parse(COMMUTED_GELU_MODEL), pattern_rewrite_rules=rules)
""",
)

case(
    "erf_gelu_commute",
    """
def run():
    rules = pattern.RewriteRuleSet([pattern.RewriteRule(erf_gelu_pattern, gelu)], commute=True)
    return onnxscript.rewriter.rewrite(parse(COMMUTED_GELU_MODEL), pattern_rewrite_rules=rules)
""",
)

case(
    "erf_gelu_rule_commute_method",
    """
def run():
    rules = pattern.RewriteRule(erf_gelu_pattern, gelu).commute()
    return onnxscript.rewriter.rewrite(parse(COMMUTED_GELU_MODEL), pattern_rewrite_rules=rules)
""",
)

case(
    "erf_gelu_rule_class",
    """
class ErfGeluFusion(pattern.RewriteRuleClassBase):
    def pattern(self, op, x):
        return (x * (op.Erf(x / math.sqrt(2)) + 1.0)) * 0.5

    def rewrite(self, op, x):
        return op.Gelu(x, _domain="com.microsoft")

def run():
    model = parse(COMMUTED_GELU_MODEL)
    return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=[ErfGeluFusion.rule()])
""",
)

case(
    "erf_gelu_on_ir_model",
    """
def run():
    model = ir.serde.deserialize_model(parse(GELU_MODEL))
    rule = pattern.RewriteRule(erf_gelu_pattern, gelu)
    count = pattern.RewriteRuleSet([rule]).apply_to_model(model)
    return {"count": count, "ops": [n.op_type for n in model.graph]}
""",
)

BROADCAST = """
def reshapes_matmul_pattern(op, input_a, input_b, shape_a, shape_b, shape_c):
    reshape_a = op.Reshape(input_a, shape_a)
    reshape_b = op.Reshape(input_b, shape_b)
    return op.Reshape(op.MatMul(reshape_a, reshape_b), shape_c)

def matmul(op, input_a, input_b, **_):
    return op.MatMul(input_a, input_b)

def reshape_not_needed(context, input_a, input_b, shape_c, **_):
    if input_a.shape is None or input_b.shape is None or shape_c.const_value is None:
        return False
    a, b = list(input_a.shape), list(input_b.shape)
    out = np.broadcast_shapes(tuple(a[:-2]), tuple(b[:-2])) + (a[-2], b[-1])
    return list(out) == shape_c.const_value.numpy().tolist()

def model(final_shape):
    return parse(f'''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[1,4,16,16] A, float[1,4,16,8] B) => (float[{final_shape}] C) {{
        sa = Constant <value = int64[3] {{4, 16, 16}}> ()
        ra = Reshape(A, sa)
        sb = Constant <value = int64[3] {{4, 16, 8}}> ()
        rb = Reshape(B, sb)
        m = MatMul(ra, rb)
        sc = Constant <value = int64[{len(final_shape.split(','))}] {{{final_shape}}}> ()
        C = Reshape(m, sc)
    }}''')

def rewrite(final_shape):
    rule = pattern.RewriteRule(reshapes_matmul_pattern, matmul, reshape_not_needed)
    return onnxscript.rewriter.rewrite(
        model(final_shape), pattern_rewrite_rules=pattern.RewriteRuleSet([rule])
    )
"""

case(
    "broadcast_matmul_condition_true", BROADCAST + "\ndef run():\n    return rewrite('1,4,16,8')\n"
)
case("broadcast_matmul_condition_false", BROADCAST + "\ndef run():\n    return rewrite('4,16,8')\n")

DROPOUT = """
def dropout_pattern(op, input):
    return op.Dropout(input, training_mode=False, _allow_other_attributes=ALLOW)

def dropout_replacement(op, input, **_):
    return op.Identity(input)

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 12]>
    g (float[2,2] A, float[2,2] B) => (float[2,2] C, float[2,2] D) {
        s = Add(A, B)
        C = Dropout <training_mode = 0> (s)
        D = Dropout <training_mode = 0, seed = 3> (s)
    }''')
    rules = pattern.RewriteRuleSet([pattern.RewriteRule(dropout_pattern, dropout_replacement)])
    return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=rules)
"""
case("allow_other_attributes_true", "ALLOW = True\n" + DROPOUT)
case("allow_other_attributes_false", "ALLOW = False\n" + DROPOUT)

CONV = """
def conv_pattern(op, input, weight):
    return op.Conv(input, weight, _allow_other_inputs=ALLOW)

def conv_replacement(op, input, weight, **_):
    return op.OptimizedConv(input, weight, _domain="custom.domain")

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[1,2,5,5] A, float[3,2,3,3] W, float[3] B) => (float[1,3,3,3] C, float[1,3,3,3] D) {
        C = Conv(A, W, B)
        D = Conv(A, W)
    }''')
    rules = pattern.RewriteRuleSet([pattern.RewriteRule(conv_pattern, conv_replacement)])
    return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=rules)
"""
case("allow_other_inputs_true", "ALLOW = True\n" + CONV)
case("allow_other_inputs_false", "ALLOW = False\n" + CONV)

case(
    "domain_option",
    """
def custom_relu_pattern(op, input):
    return op.Relu(input, _domain="custom.domain")

def standard_relu(op, input, **_):
    return op.Relu(input)

def optimized_relu(op, input, **_):
    return op.OptimizedRelu(input, _domain="com.microsoft")

def plain_relu_pattern(op, input):
    return op.Relu(input)

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18, "custom.domain" : 1]>
    g (float[2,2] A) => (float[2,2] C) {
        b = custom.domain.Relu(A)
        C = Relu(b)
    }''')
    rules = [
        pattern.RewriteRule(custom_relu_pattern, standard_relu),
        pattern.RewriteRule(plain_relu_pattern, optimized_relu),
    ]
    return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=rules)
""",
)

case(
    "outputs_option",
    """
def split_pattern(op, input):
    return op.Split(input, num_outputs=2, axis=0, _outputs=2)

def custom_split(op, input, **_):
    return op.CustomSplit(input, _domain="custom.domain", _outputs=["first_half", "second_half"])

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[4,4] A) => (float[2,4] P, float[2,4] Q) {
        P, Q = Split <num_outputs = 2, axis = 0> (A)
    }''')
    rules = pattern.RewriteRuleSet([pattern.RewriteRule(split_pattern, custom_split)])
    return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=rules)
""",
)

case(
    "outputs_option_one_output_used",
    """
def split_pattern(op, input):
    return op.Split(input, num_outputs=2, axis=0, _outputs=2)

def custom_split(op, input, **_):
    return op.CustomSplit(input, _domain="custom.domain", _outputs=["first_half", "second_half"])

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[4,4] A) => (float[2,4] P) {
        P, Q = Split <num_outputs = 2, axis = 0> (A)
    }''')
    rules = pattern.RewriteRuleSet([pattern.RewriteRule(split_pattern, custom_split)])
    return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=rules)
""",
)

OR_PATTERN = """
def scaled_matmul(op, x, y, factor):
    xy = op.MatMul(x, y)
    choice1 = op.Mul(xy, factor)
    choice2 = op.Div(xy, factor)
    scaled = pattern.OrValue([choice1, choice2], tag_var="op_type", tag_values=["Mul", "Div"])
    return op.Relu(scaled)

def scaled_matmul_replacement(op, x, y, factor, op_type):
    if op_type == "Mul":
        return op.MatMulMulRelu(x, y, factor, _domain="some.domain")
    return op.MatMulDivRelu(x, y, factor, _domain="some.domain")

def run():
    model = parse(f'''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,2] A, float[2,2] B) => (float[2,2] C) {{
        t1 = MatMul(A, B)
        c = Constant <value_float = 2.0> ()
        t2 = {OP}(t1, c)
        C = Relu(t2)
    }}''')
    rules = pattern.RewriteRuleSet([pattern.RewriteRule(scaled_matmul, scaled_matmul_replacement)])
    return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=rules)
"""
case("or_pattern_mul", "OP = 'Mul'\n" + OR_PATTERN)
case("or_pattern_div", "OP = 'Div'\n" + OR_PATTERN)

case(
    "value_checker",
    """
from onnxscript import optimizer

def is_positive_constant(context, value):
    if value.const_value is None:
        return False
    array = value.const_value.numpy()
    return array.size == 1 and float(array.item()) > 0

def add_pattern(op, x, y):
    return op.Add(is_positive_constant, y)

def run():
    model = ir.serde.deserialize_model(parse('''
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N] x, float[N] y) => (float[N] z1, float[N] z2, float[N] z3) {
        pos = Constant <value_float = 2.5> ()
        neg = Constant <value_float = -1.5> ()
        z1 = Add(x, y)
        z2 = Add(pos, y)
        z3 = Add(neg, y)
    }'''))
    optimizer.basic_constant_propagation(model.graph.all_nodes())
    rule_pattern = pattern.Pattern(add_pattern)
    adds = [n for n in model.graph if n.op_type == "Add"]
    return [bool(rule_pattern.match(model, model.graph, n)) for n in adds]
""",
)

case(
    "node_checker",
    """
def shape_checker(context, node):
    return node.attributes.get_int("start", 0) == 0

def shape_pattern(op, x):
    return op.Shape(x, _check=shape_checker)

def run():
    model = ir.serde.deserialize_model(parse('''
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N, M] x) => (int64[2] z1, int64[2] z2, int64[1] z3) {
        z1 = Shape(x)
        z2 = Shape <start: int = 0>(x)
        z3 = Shape <start: int = 1>(x)
    }'''))
    rule_pattern = pattern.Pattern(shape_pattern)
    return [bool(rule_pattern.match(model, model.graph, n)) for n in model.graph]
""",
)

case(
    "node_checker_rewrite",
    """
def shape_pattern(op, x):
    return op.Shape(x, _check=lambda context, node: node.attributes.get_int("start", 0) == 0)

def replacement(op, x):
    return op.ShapeOf(x, _domain="custom.domain")

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[N, M] x) => (int64[2] z1, int64[2] z2, int64[1] z3) {
        z1 = Shape(x)
        z2 = Shape <start: int = 0>(x)
        z3 = Shape <start: int = 1>(x)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(shape_pattern, replacement)])
""",
)

case(
    "attribute_variables",
    """
def transposes(op, x, perm1, perm2):
    return op.Transpose(op.Transpose(x, perm=perm1), perm=perm2)

def composed(op, x, perm1, perm2):
    p1, p2 = perm1.as_ints(), perm2.as_ints()
    perm = [p1[i] for i in p2]
    if perm == list(range(len(perm))):
        return op.Identity(x)
    return op.Transpose(x, perm=perm)

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,3,4] X) => (float[3,4,2] Y, float[2,3,4] Z) {
        a = Transpose <perm = [1, 0, 2]> (X)
        Y = Transpose <perm = [0, 2, 1]> (a)
        b = Transpose <perm = [2, 0, 1]> (X)
        Z = Transpose <perm = [1, 2, 0]> (b)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(transposes, composed)])
""",
)

case(
    "attribute_passed_through",
    """
def cast_cast(op, x, to, to2):
    return op.Cast(op.Cast(x, to=to), to=to2)

def one_cast(op, x, to, to2):
    return op.Cast(x, to=to2)

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2] X) => (double[2] Y) {
        a = Cast <to = 11> (X)
        Y = Cast <to = 11> (a)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(cast_cast, one_cast)])
""",
)

case(
    "constant_and_any_value",
    """
def mul_by_one(op, x):
    return op.Mul(x, pattern.Constant(1.0))

def identity(op, x):
    return op.Identity(x)

def clip_any(op, x):
    return op.Clip(x, pattern.ANY_VALUE, pattern.Constant(6.0))

def relu6(op, x):
    return op.Relu6(x, _domain="custom.domain")

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2] X, float lo) => (float[2] Y, float[2] Z, float[2] W) {
        one = Constant <value_float = 1.0> ()
        two = Constant <value_float = 2.0> ()
        six = Constant <value_float = 6.0> ()
        t = Mul(X, one)
        Y = Relu(t)
        Z = Mul(X, two)
        W = Clip(X, lo, six)
    }''')
    rules = [pattern.RewriteRule(mul_by_one, identity), pattern.RewriteRule(clip_any, relu6)]
    return onnxscript.rewriter.rewrite(model, rules)
""",
)

case(
    "mul_by_one_graph_output",
    """
def mul_by_one(op, x):
    return op.Mul(x, 1.0)

def same(op, x):
    return x

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2] X) => (float[2] Y, float[2] Z) {
        r = Relu(X)
        one = Constant <value_float = 1.0> ()
        Y = Mul(r, one)
        Z = Mul(X, one)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(mul_by_one, same)])
""",
)

case(
    "condition_returns_match_result_fail",
    """
def relu_relu(op, x):
    return op.Relu(op.Relu(x))

def relu(op, x):
    return op.Relu(x)

def refuse(context, x):
    return onnxscript.rewriter.MatchResult().fail("never", x)

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2] X) => (float[2] Y) {
        a = Relu(X)
        Y = Relu(a)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(relu_relu, relu, refuse)])
""",
)

case(
    "replacement_declines",
    """
def relu_relu(op, x):
    return op.Relu(op.Relu(x))

def decline(op, x):
    return None

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2] X) => (float[2] Y) {
        a = Relu(X)
        Y = Relu(a)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(relu_relu, decline)])
""",
)

case(
    "intermediate_value_used_elsewhere",
    """
def relu_relu(op, x):
    return op.Relu(op.Relu(x))

def relu(op, x):
    return op.Relu(x)

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2] X) => (float[2] Y, float[2] Z) {
        a = Relu(X)
        Y = Relu(a)
        Z = Neg(a)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(relu_relu, relu)])
""",
)

case(
    "multi_output_pattern",
    """
def two_heads(op, x, w1, w2):
    return op.MatMul(x, w1), op.MatMul(x, w2)

def fused(op, x, w1, w2):
    return op.TwoHeads(x, w1, w2, _domain="custom.domain", _outputs=2)

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,3] X, float[3,4] A, float[3,4] B) => (float[2,4] P, float[2,4] Q) {
        P = MatMul(X, A)
        Q = MatMul(X, B)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(two_heads, fused)])
""",
)

case(
    "named_outputs_bound",
    """
def split_relu(op, x):
    first, second = op.Split(x, num_outputs=2, axis=0, _outputs=["first", "second"])
    return op.Relu(first), second

def check(context, x, first, second):
    return first.shape is not None and second.shape is not None

def replacement(op, x, first, second):
    a, b = op.Split(x, num_outputs=2, axis=0, _outputs=2)
    return op.Relu(a, _domain="custom.domain"), b

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[4,2] X) => (float[2,2] P, float[2,2] Q) {
        f, s = Split <num_outputs = 2, axis = 0> (X)
        P = Relu(f)
        Q = Neg(s)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(split_relu, replacement, check)])
""",
)

case(
    "inside_function_and_if",
    """
def relu_relu(op, x):
    return op.Relu(op.Relu(x))

def relu(op, x):
    return op.Relu(x)

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18, "local" : 1]>
    g (float[2] X, bool c) => (float[2] Y, float[2] Z) {
        Y = local.twice(X)
        Z = If(c) <
            then_branch = t () => (float[2] o) { a = Relu(X) o = Relu(a) },
            else_branch = e () => (float[2] o2) { o2 = Neg(X) }
        >
    }
    <domain: "local", opset_import: ["" : 18]>
    twice (x) => (y) {
        a = Relu(x)
        y = Relu(a)
    }''')
    return onnxscript.rewriter.rewrite(model, [pattern.RewriteRule(relu_relu, relu)])
""",
)

case(
    "empty_rule_list",
    """
def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2] X) => (float[2] Y) {
        one = Constant <value_float = 1.0> ()
        a = Mul(X, one)
        Y = Relu(a)
    }''')
    return onnxscript.rewriter.rewrite(model, pattern_rewrite_rules=[])
""",
)

case(
    "rewrite_pass",
    """
def relu_relu(op, x):
    return op.Relu(op.Relu(x))

def relu(op, x):
    return op.Relu(x)

def run():
    model = ir.serde.deserialize_model(parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2] X) => (float[2] Y) {
        a = Relu(X)
        Y = Relu(a)
    }'''))
    result = onnxscript.rewriter.RewritePass([pattern.RewriteRule(relu_relu, relu)])(model)
    return {"modified": result.modified, "ops": [n.op_type for n in result.model.graph]}
""",
)

case(
    "rule_class_check_and_attr",
    """
class TransposeIdentity(pattern.RewriteRuleClassBase):
    def pattern(self, op, x, perm):
        return op.Transpose(x, perm=perm)

    def check(self, context, x, perm):
        if perm.is_ref():
            return False
        return list(perm.as_ints()) == list(range(len(perm.as_ints())))

    def rewrite(self, op, x, perm=None):
        return op.Identity(x)

def run():
    model = parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2,3] X) => (float[2,3] Y, float[3,2] Z) {
        a = Transpose <perm = [0, 1]> (X)
        Y = Relu(a)
        Z = Transpose <perm = [1, 0]> (X)
    }''')
    return onnxscript.rewriter.rewrite(model, [TransposeIdentity.rule()])
""",
)

case(
    "setup_cleanup",
    """
class Counting(pattern.RewriteRuleClassBase):
    calls = []

    def setup(self):
        Counting.calls.append("setup")

    def cleanup(self):
        Counting.calls.append("cleanup")

    def pattern(self, op, x):
        return op.Neg(op.Neg(x))

    def rewrite(self, op, x):
        return op.Identity(x)

def run():
    model = ir.serde.deserialize_model(parse('''
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2] X) => (float[2] Y) {
        a = Neg(X)
        Y = Neg(a)
    }'''))
    count = pattern.RewriteRuleSet([Counting.rule()]).apply_to_model(model)
    return {"count": count, "calls": Counting.calls}
""",
)

case(
    "as_function",
    """
def mul_add(op, x, y, z):
    return op.Add(op.Mul(x, y), z)

def call(op, x, y, z):
    return op.MulAdd(x, y, z, _domain="custom")

def run():
    model = parse('''
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N] a, float[N] b, float[N] c, float[N] d) => (float[N] o1, float[N] o2) {
        one = Constant <value_float = 1.0> ()
        t = Mul(a, b)
        o1 = Add(t, c)
        u = Mul(b, c)
        v = Add(u, d)
        o2 = Add(v, one)
    }''')
    rule = pattern.RewriteRule(mul_add, call, as_function=True)
    model = onnxscript.rewriter.rewrite(model, [rule])
    return {
        "nodes": [
            [n.domain, n.op_type, n.overload, list(n.input), list(n.output)]
            for n in model.graph.node
        ],
        "functions": [
            [f.domain, f.name, f.overload, list(f.input), list(f.output),
             [n.op_type for n in f.node], sorted([o.domain, o.version] for o in f.opset_import)]
            for f in model.functions
        ],
        "opsets": sorted([o.domain, o.version] for o in model.opset_import),
    }
""",
)
