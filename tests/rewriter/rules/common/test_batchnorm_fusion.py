"""BatchNormalization folded into Conv, ConvTranspose, Gemm. Op-type lists marked "0.7.2"
were computed by running onnxscript 0.7.2's ``rewriter.rewrite(model,
pattern_rewrite_rules=[rule])`` on the same model text."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
import pytest

from onnxscript import rewriter
from onnxscript.ir_utils.metadata import FOLDED_FROM
from onnxscript.rewriter.rules.common import (
    fuse_batchnorm_into_conv_rule,
    fuse_batchnorm_into_conv_transpose_rule,
    fuse_batchnorm_into_gemm_rule,
)
from tests.helpers import assert_transform_keeps_results
from tests.rewriter.rule_checks import check_rule, op_types, parse

BN_INITS = (
    "float[3] s = {1,2,3}, float[3] b = {0.1,0.2,0.3}, "
    "float[3] mu = {0.5,-0.5,0.25}, float[3] v = {1,4,9}"
)
BN = "z = BatchNormalization<epsilon=0.001>(y, s, b, mu, v)"


def weights(count: int) -> str:
    return ",".join(str(v) for v in np.round(np.linspace(-1, 1, count), 3))


def model(x: str, inits: str, op: str, bn: str = BN) -> str:
    return f"""
g (float{x} x) => (float[a,b,c,d] z) <{inits}, {BN_INITS}> {{
  y = {op}
  {bn}
}}""".replace("float[a,b,c,d] z", "float[a,b] z" if "Gemm" in op else "float[a,b,c,d] z")


CONV_W = f"float[3,2,3,3] w = {{{weights(54)}}}"

FUSED = [
    (model("[1,2,5,5]", CONV_W, "Conv(x, w)"), fuse_batchnorm_into_conv_rule),
    (
        model("[1,2,5,5]", CONV_W + ", float[3] cb = {1,-1,2}", "Conv<pads=[1,1,1,1]>(x, w, cb)"),
        fuse_batchnorm_into_conv_rule,
    ),
    (
        model("[1,3,5,5]", f"float[3,1,3,3] w = {{{weights(27)}}}", "Conv<group=3>(x, w)"),
        fuse_batchnorm_into_conv_rule,
    ),
    (
        model("[1,2,5,5]", f"float[2,3,3,3] w = {{{weights(54)}}}", "ConvTranspose(x, w)"),
        fuse_batchnorm_into_conv_transpose_rule,
    ),
    (
        model(
            "[1,2,5,5]",
            f"float[2,1,3,3] w = {{{weights(18)}}}",
            "ConvTranspose<group=2>(x, w)",
        ).replace(
            BN_INITS,
            BN_INITS.replace("float[3]", "float[2]")
            .replace(",3}", "}")
            .replace(",9}", "}")
            .replace(",0.3}", "}")
            .replace(",0.25}", "}"),
        ),
        fuse_batchnorm_into_conv_transpose_rule,
    ),
    (
        model("[4,2]", "float[2,3] w = {1,2,3,4,5,6}, float[3] gb = {1,1,1}", "Gemm(x, w, gb)"),
        fuse_batchnorm_into_gemm_rule,
    ),
    (
        model("[4,2]", "float[3,2] w = {1,2,3,4,5,6}", "Gemm<transB=1>(x, w)"),
        fuse_batchnorm_into_gemm_rule,
    ),
    (
        model(
            "[4,2]",
            "float[3,2] w = {1,2,3,4,5,6}, float[1] gb = {0.5}",
            "Gemm<transB=1, alpha=2.0, beta=0.5>(x, w, gb)",
        ),
        fuse_batchnorm_into_gemm_rule,
    ),
]


@pytest.mark.parametrize(("text", "rule"), FUSED)
def test_fused(text: str, rule: object) -> None:
    # 0.7.2 fuses each of these into the one op too.
    result = check_rule(text, [rule])
    assert len(result.graph.node) == 1


def test_weights_record_folded_from() -> None:
    model = ir.from_proto(parse(FUSED[1][0]))
    rewriter.rewrite(model, pattern_rewrite_rules=[fuse_batchnorm_into_conv_rule])
    (conv,) = model.graph
    recorded = [v.metadata_props.get(FOLDED_FROM) for v in conv.inputs[1:]]
    assert recorded == ["['b', 'cb', 'mu', 's', 'v', 'w']"] * 2


def test_bn_constants_as_nodes() -> None:
    # 0.7.2 leaves this alone (its BatchNormalization inputs are Constant nodes).
    text = f"""
g (float[1,2,5,5] x) => (float[a,b,c,d] z) <{CONV_W}> {{
  y = Conv(x, w)
  s = Constant<value=float[3] {{1,2,3}}>()
  b = Constant<value=float[3] {{0.1,0.2,0.3}}>()
  mu = Constant<value=float[3] {{0.5,0.5,0.5}}>()
  v = Constant<value=float[3] {{1,4,9}}>()
  {BN}
}}"""
    assert op_types(check_rule(text, [fuse_batchnorm_into_conv_rule])) == ["Conv"]


@pytest.mark.parametrize(
    "text",
    [
        # training mode: batch statistics (0.7.2 fuses it, changing the result)
        model(
            "[1,2,5,5]",
            CONV_W,
            "Conv(x, w)",
            "z, rm, rv = BatchNormalization<training_mode=1>(y, s, b, mu, v)",
        ),
    ],
)
def test_refused(text: str) -> None:
    assert "BatchNormalization" in op_types(check_rule(text, [fuse_batchnorm_into_conv_rule]))


def test_weight_input_refused() -> None:
    # 0.7.2 leaves it alone too.
    text = f"""
g (float[1,2,5,5] x, float[3,2,3,3] w) => (float[a,b,c,d] z) <{BN_INITS}> {{
  y = Conv(x, w)
  {BN}
}}"""
    assert "BatchNormalization" in op_types(check_rule(text, [fuse_batchnorm_into_conv_rule]))


def test_in_function_and_subgraph() -> None:
    """Inside a function the new weights are Constant nodes; in an If branch too."""
    text = f"""
<ir_version: 10, opset_import: ["" : 20, "local" : 1]>
g (float[1,2,5,5] x, bool c) => (float[a,b,c,d] z, float[a,b,c,d] z2) {{
  z = local.block(x)
  z2 = If(c) <then_branch = t () => (float[a,b,c,d] o) {{ o = local.block(x) }},
              else_branch = e () => (float[a,b,c,d] o) {{
    w = Constant<value=float[3,2,3,3] {{{weights(54)}}}>()
    s = Constant<value=float[3] {{1,2,3}}>()
    b = Constant<value=float[3] {{0.1,0.2,0.3}}>()
    mu = Constant<value=float[3] {{0.5,0.5,0.5}}>()
    v = Constant<value=float[3] {{1,4,9}}>()
    y = Conv(x, w)
    o = BatchNormalization(y, s, b, mu, v)
  }}>
}}
<domain: "local", opset_import: ["" : 20]>
block (x) => (z) {{
  w = Constant<value=float[3,2,3,3] {{{weights(54)}}}>()
  s = Constant<value=float[3] {{1,2,3}}>()
  b = Constant<value=float[3] {{0.1,0.2,0.3}}>()
  mu = Constant<value=float[3] {{0.5,0.5,0.5}}>()
  v = Constant<value=float[3] {{1,4,9}}>()
  y = Conv(x, w)
  z = BatchNormalization(y, s, b, mu, v)
}}"""
    result = check_rule(onnx.parser.parse_model(text), [fuse_batchnorm_into_conv_rule])
    body = [n.op_type for n in result.functions[0].node]
    branch = onnx.helper.get_attribute_value(result.graph.node[-1].attribute[0])
    assert "BatchNormalization" not in body and body.count("Constant") == 2
    assert "BatchNormalization" not in [n.op_type for n in branch.node]


@pytest.mark.parametrize(
    ("var", "epsilon"),
    [("{0,4,9}", "0.0"), ("{1,-1,9}", "1.0"), ("{1,-2,9}", "0.5")],
    ids=["var_0_eps_0", "var_plus_eps_0", "var_plus_eps_negative"],
)
def test_a_channel_without_a_finite_factor_is_not_folded(var: str, epsilon: str) -> None:
    """``scale / sqrt(var + epsilon)`` infinite or NaN: onnxruntime computes the
    BatchNormalization's infinities and NaNs per element, which weights scaled by an
    infinite factor inside the Conv's sums would not give; the BatchNormalization stays."""
    inits = BN_INITS.replace("float[3] v = {1,4,9}", f"float[3] v = {var}")
    text = f"""
g (float[1,2,5,5] x) => (float[1,3,3,3] z) <{CONV_W}, {inits}> {{
  y = Conv(x, w)
  z = BatchNormalization<epsilon={epsilon}>(y, s, b, mu, v)
}}"""
    before = parse(text)
    result = rewriter.rewrite(before, pattern_rewrite_rules=[fuse_batchnorm_into_conv_rule])
    assert op_types(result) == ["Conv", "BatchNormalization"]
    feeds = {"x": np.random.default_rng(0).standard_normal((1, 2, 5, 5)).astype(np.float32)}
    assert_transform_keeps_results(before, result, feeds)


@pytest.mark.parametrize(
    ("dtype", "weight", "scale"),
    [(np.float16, 1000.0, 1000.0), (np.float32, 1e30, 1e10)],
    ids=["float16_cast", "float32_product"],
)
def test_a_scaled_weight_that_overflows_is_not_folded(
    dtype: type, weight: float, scale: float
) -> None:
    """Weights scaled past their type's largest number would be inf (float16: 65504 when
    cast back from float32; float32: in the product itself)."""
    half = onnx.helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    inits = {"w": [[[[weight]]]], "s": [scale], "b": [0.0], "mu": [0.0], "v": [1.0]}
    graph = onnx.helper.make_graph(
        [
            onnx.helper.make_node("Conv", ["x", "w"], ["y"]),
            onnx.helper.make_node(
                "BatchNormalization", ["y", "s", "b", "mu", "v"], ["z"], epsilon=0.0
            ),
        ],
        "g",
        [onnx.helper.make_tensor_value_info("x", half, [1, 1, 3, 3])],
        [onnx.helper.make_tensor_value_info("z", half, [1, 1, 3, 3])],
        [onnx.numpy_helper.from_array(np.array(v, dtype), name) for name, v in inits.items()],
    )
    before = onnx.helper.make_model(graph, opset_imports=[onnx.helper.make_opsetid("", 20)])
    before.ir_version = 10
    onnx.checker.check_model(before, full_check=True)
    result = rewriter.rewrite(before, pattern_rewrite_rules=[fuse_batchnorm_into_conv_rule])
    assert op_types(result) == ["Conv", "BatchNormalization"]
