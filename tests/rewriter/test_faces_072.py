"""0.7.2's rewriter module paths (``_pattern_ir``, ``_matcher``, ``_context``, ``_basics``,
``_rewrite_rule``, ``_ir_utils``, ``_fusion_utils``, ``testing``, ``rules.common._<rule>``,
``rules.fusion._<rule>``): what each name is and does, as measured on 0.7.2."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import onnx
import onnx.parser
import onnx_ir as ir
import pytest

from onnxscript.rewriter import (
    _basics,
    _context,
    _fusion_utils,
    _ir_utils,
    _matcher,
    _pattern_ir,
    _rewrite_rule,
    pattern,
    testing,
)
from onnxscript.rewriter.rules import common
from onnxscript.rewriter.rules.common import (
    _basic_rules,
    _fuse_batchnorm,
    _fuse_pad_into_conv,
    _fuse_relus_clips,
    _matmul_add_to_gemm,
    _min_max_to_clip,
    _no_op,
    _redundant_scatter_nd,
    _remove_optional_bias,
)

# -- rule objects and classes --------------------------------------------------------------

BASIC_CLASSES = {
    "CastCast": "CastCast",
    "CastIdentity": "CastIdentity",
    "ExpandIdentity": "ExpandIdentity",
    "Flatten2Reshape": "Flatten2Reshape",
    "ReshapeReshape": "ReshapeReshape",
    "SlicesSplit": "SlicesSplit",
    "SqueezeReshape": "SqueezeReshape1d",
    "TransposeIdentity": "TransposeIdentity",
    "TransposeTranspose": "TransposeTranspose",
    "UnsqueezeUnsqueeze": "UnsqueezeUnsqueeze",
}


@pytest.mark.parametrize(("cls", "name"), BASIC_CLASSES.items())
def test_basic_rule_classes_make_their_rules(cls: str, name: str) -> None:
    rule_class = getattr(_basic_rules, cls)
    assert issubclass(rule_class, pattern.RewriteRuleClassBase)
    rule = rule_class.rule()
    assert isinstance(rule, pattern.RewriteRule) and rule.name == name
    assert rule_class().name == name


def test_basic_optimization_rules_in_072_order() -> None:
    rules = _basic_rules.basic_optimization_rules()
    assert isinstance(rules, pattern.RewriteRuleSet)
    assert [r.name for r in rules.rules] == [
        "CastCast",
        "CastIdentity",
        "ExpandIdentity",
        "Flatten2Reshape",
        "ReshapeReshape",
        "SlicesSplit",
        "TransposeIdentity",
        "TransposeTranspose",
        "UnsqueezeUnsqueeze",
        "SqueezeReshape1d",
    ]


@pytest.mark.parametrize(
    ("module", "names"),
    [
        (
            _fuse_batchnorm,
            ["FuseBatchNormIntoConv", "FuseBatchNormIntoConvTranspose", "FuseBatchNormIntoGemm"],
        ),
        (
            _fuse_pad_into_conv,
            [
                "NormalizePadFormatConv",
                "NormalizePadFormatConvInteger",
                "FuseConvPad",
                "FuseConvIntegerPad",
            ],
        ),
        (
            _fuse_relus_clips,
            [
                "FuseSuccessiveClipRelu",
                "FuseSuccessiveReluClip",
                "FuseSuccessiveRelu",
                "FuseSuccessiveClip",
            ],
        ),
        (
            _matmul_add_to_gemm,
            [
                "TransABMatMulAddToGemm",
                "TransAMatMulAddToGemm",
                "TransBMatMulAddToGemm",
                "MatMulAddToGemm",
            ],
        ),
        (
            _min_max_to_clip,
            ["FuseSuccessiveMin", "FuseSuccessiveMax", "FuseMinMaxToClip", "FuseMaxMinToClip"],
        ),
        (_redundant_scatter_nd, ["ScatterAllDynamic", "ScatterAllStatic"]),
        (
            _remove_optional_bias,
            [
                "RemoveOptionalBiasFromConv",
                "RemoveOptionalBiasFromConvTranspose",
                "RemoveOptionalBiasFromQLinearConv",
                "RemoveOptionalBiasFromGemm",
            ],
        ),
    ],
)
def test_rule_sets_and_classes_of_the_rule_modules(module: Any, names: list[str]) -> None:
    assert [r.name for r in module.rules.rules] == names
    for name in names:  # each rule's class has the rule's name
        assert getattr(module, name).rule().name == name


def test_class_hierarchies_as_072() -> None:
    assert issubclass(_fuse_pad_into_conv.FuseConvIntegerPad, _fuse_pad_into_conv.FuseConvPad)
    assert issubclass(
        _fuse_pad_into_conv.NormalizePadFormatConvInteger,
        _fuse_pad_into_conv.NormalizePadFormatConv,
    )
    assert issubclass(
        _fuse_relus_clips.FuseSuccessiveReluClip, _fuse_relus_clips.FuseSuccessiveClipRelu
    )


def test_faces_export_the_same_rule_objects() -> None:
    assert _basic_rules.cast_cast_rule is common.cast_cast_rule
    assert _no_op.add_0_rule is common.add_0_rule
    assert _fuse_batchnorm.fuse_batchnorm_into_conv_rule is common.fuse_batchnorm_into_conv_rule
    # _no_op.rules: x*1, 1*x, x+0, 0+x, x-0, x/1 and the two Dropout rules, as 0.7.2.
    assert len(_no_op.rules.rules) == 8


@pytest.mark.parametrize(
    ("path", "names"),
    [
        (
            "onnxscript.rewriter.rules.fusion._gqa",
            ["OnnxGroupQueryAttention", "gqa_rules", "fuse_gqa"],
        ),
        (
            "onnxscript.rewriter.rules.fusion._layer_norm",
            ["LayerNormFusion", "LayerNormBiasFusion", "layer_normalization_ruleset"],
        ),
        (
            "onnxscript.rewriter.rules.fusion._rms_normalization",
            ["RmsNormFusion", "rms_normalization_ruleset", "fuse_rms_normalization"],
        ),
        (
            "onnxscript.rewriter.rules.fusion._rotary_embedding",
            ["RotaryEmbedding23Fusion", "PartialRotaryEmbedding23Fusion", "MAX_INT64"],
        ),
        ("onnxscript.rewriter.onnx_fusions._onnx_fusions", ["fuse"]),
    ],
)
def test_fusion_faces(path: str, names: list[str]) -> None:
    module = importlib.import_module(path)
    for name in names:
        assert hasattr(module, name), name


def test_fusion_rule_names() -> None:
    from onnxscript.rewriter.rules.fusion import _gqa, _layer_norm, _rotary_embedding

    assert [r.name for r in _gqa.gqa_rules.rules] == ["ONNXGQA"]
    assert {r.name for r in _layer_norm.layer_normalization_ruleset.rules} == {
        "LayerNormFusion",
        "LayerNormBiasFusion",
    }
    assert _rotary_embedding.RotaryEmbedding23Fusion.rule().name == "RotaryEmbedding23"
    assert {ir.DataType.FLOAT, ir.DataType.DOUBLE} == _layer_norm.LAYER_NORM_COMPUTE_TYPES


# -- _ir_utils ------------------------------------------------------------------------------


def _constant(array: np.ndarray) -> ir.Value:
    tensor = ir.tensor(array)
    return ir.Value(
        name="c", const_value=tensor, type=ir.TensorType(tensor.dtype), shape=tensor.shape
    )


def test_ir_utils_values() -> None:
    two = _constant(np.array([2.0], dtype=np.float32))
    assert _ir_utils.get_singleton_value(two) == 2.0
    assert _ir_utils.get_singleton_value(two, rank=0) is None
    assert _ir_utils.get_singleton_value(two, rank=(0, 1)) == 2.0
    assert _ir_utils.is_singleton_value(two, 2)
    assert _ir_utils.is_singleton_value(two, 2.0001, rtol=1e-3)
    assert _ir_utils.is_singleton_value(two, lambda v: v > 1)
    np.testing.assert_array_equal(_ir_utils.get_numpy_value(two), [2.0])
    assert _ir_utils.get_const_value(two) is two.const_value
    assert _ir_utils.get_numpy_value(None) is None
    ints = _constant(np.array([1, 2], dtype=np.int64))
    assert _ir_utils.is_1d_value(ints, [1, 2]) and not _ir_utils.is_1d_value(ints, [1])
    assert not _ir_utils.is_1d_value(_constant(np.array([1, 2], dtype=np.int32)), [1, 2])


def test_ir_utils_a_graph_input_is_not_a_constant() -> None:
    # One policy with our rules; 0.7.2 reads an input's default value as a constant.
    value = ir.Value(name="x", const_value=ir.tensor(np.array([3.0], dtype=np.float32)))
    ir.Graph([value], [], nodes=[], initializers=[value])
    assert _ir_utils.get_numpy_value(value) is None


def test_ir_utils_shapes() -> None:
    x = ir.Value(name="x", shape=ir.Shape([2, "N", None]))
    assert _ir_utils.has_rank(x, 3) and not _ir_utils.has_rank(x, 2)
    assert _ir_utils.get_dim(x, 0) == 2 and _ir_utils.get_dim(x, 5) is None
    assert _ir_utils.get_dim(x, 1) == ir.SymbolicDim("N")
    assert _ir_utils.same_dim(ir.SymbolicDim("N"), ir.SymbolicDim("N"))
    assert not _ir_utils.same_dim(ir.SymbolicDim(None), ir.SymbolicDim(None))
    assert not _ir_utils.same_dim(2, ir.SymbolicDim("N"))
    assert _ir_utils.same_shape(ir.Shape([2, "N"]), ir.Shape([2, "N"]))
    assert not _ir_utils.same_shape(ir.Shape([None]), ir.Shape([None]))
    assert not _ir_utils.same_shape(None, None)


def test_ir_utils_display(capsys: pytest.CaptureFixture[str]) -> None:
    model = ir.from_proto(
        onnx.parser.parse_model(
            '<ir_version: 10, opset_import: ["" : 18]> g (float[2] x) => (float[2] y) '
            "{ a = Relu(x)\n b = Neg(a)\n y = Abs(b) }"
        )
    )
    relu, neg, absolute = list(model.graph)
    _ir_utils.display_nodes([absolute, relu])
    shown = capsys.readouterr().out
    assert shown.index("Relu") < shown.index("Abs")
    _ir_utils.display_slice(model.graph.outputs[0], depth_limit=1)
    shown = capsys.readouterr().out
    assert "Neg" in shown and "Abs" in shown and "Relu" not in shown
    _ir_utils.display_slice(relu, backward=False)
    assert "Abs" in capsys.readouterr().out


# -- _fusion_utils --------------------------------------------------------------------------


def test_check_shape_binds_names() -> None:
    x = ir.Value(name="x", shape=ir.Shape([2, "N", 4]))
    bindings: dict[str, Any] = {}
    _fusion_utils.check_shape(bindings, x, ["B", "S", "H"])
    assert bindings == {"B": 2, "S": ir.SymbolicDim("N"), "H": 4}
    _fusion_utils.check_shape(bindings, x, ["B", "S", 4])
    with pytest.raises(_basics.MatchFailureError, match="dim 0"):
        _fusion_utils.check_shape({"B": 3}, x, ["B", "S", "H"])
    with pytest.raises(_basics.MatchFailureError, match="rank"):
        _fusion_utils.check_shape({}, x, ["B", "S"])
    with pytest.raises(_basics.MatchFailureError, match="unknown"):
        _fusion_utils.check_shape({}, ir.Value(name="y"), ["B"])
    assert not _fusion_utils.check_shape_bool({"B": 3}, x, ["B", "S", "H"])
    assert _fusion_utils.check_shape_bool({}, x, ["B", "B2", "H"])


def test_apply_fusion_rules_makes_a_fuse_function() -> None:
    fuse = _fusion_utils.apply_fusion_rules(common.successive_relu_rule)
    model = ir.from_proto(
        onnx.parser.parse_model(
            '<ir_version: 10, opset_import: ["" : 18]> g (float[2] x) => (float[2] y) '
            "{ a = Relu(x)\n y = Relu(a) }"
        )
    )
    assert fuse(model, debug=False, apply_shape_inference=False) == 1
    assert [n.op_type for n in model.graph] == ["Relu"]


# -- pattern IR, matcher, context, basics, rule module --------------------------------------


def test_pattern_ir_names() -> None:
    assert _pattern_ir.ANY_VALUE is pattern.ANY_VALUE
    assert _pattern_ir.torch_module_op is pattern.torch_module_op
    assert _pattern_ir.torch_module_op.domain.matches("pkg.torch.2.5")


def test_a_submodule_pattern_matches_every_instance_of_the_module():
    """torch names a module's function ``<class path>_<instance path>``; as 0.7.2's,
    ``torch_module_op.submodule(<class path>)`` matches every instance."""
    x = ir.Value(name="x", type=ir.TensorType(ir.DataType.FLOAT), shape=ir.Shape([2]))
    first = ir.Node("pkg.torch.2.5", "torch_nn_Linear_layer_1", [x])
    second = ir.Node("pkg.torch.2.5", "torch_nn_Linear_layer_2", first.outputs)
    other = ir.Node("pkg.torch.2.5", "torch_nn_ReLU_act", second.outputs)
    graph = ir.Graph([x], other.outputs, nodes=[first, second, other], opset_imports={"": 18})
    model = ir.Model(graph, ir_version=10)
    rule = pattern.RewriteRule(
        lambda op, x: pattern.torch_module_op.submodule("torch_nn_Linear")(x),
        lambda op, x: op.Relu(x),
    )
    assert rule.apply_to_model(model) == 2
    assert [n.op_type for n in model.graph] == ["Relu", "Relu", "torch_nn_ReLU_act"]
    assert isinstance(_pattern_ir.StringConstantPattern("Add"), _pattern_ir.Pattern)
    either = _pattern_ir.OrValue([_pattern_ir.Var("a"), _pattern_ir.Var("b")])
    assert isinstance(either, _pattern_ir.BacktrackingOr)
    checker = _pattern_ir._to_value_pattern(lambda context, value: True)
    assert isinstance(checker, _pattern_ir.ValuePattern) and checker.name is None


def test_pattern_builder_sets_the_operators_builder() -> None:
    x, y = _pattern_ir.Var("x"), _pattern_ir.Var("y")
    assert (x + y).producer().domain.matches("")  # type: ignore[union-attr]
    builder = _pattern_ir.OpsetPatternBuilder("custom", record=True)
    with _pattern_ir.pattern_builder(builder):
        product = x * y
    node = product.producer()
    assert node is not None and node.domain.matches("custom") and node.op.matches("Mul")
    assert builder.nodes == [node]


def test_op_id_dispatch_or() -> None:
    relu, neg = _pattern_ir.Var("r"), _pattern_ir.Var("n")
    dispatch = _pattern_ir.OpIdDispatchOr(
        {("", "Relu", ""): ("relu", relu), ("", "Neg", ""): ("neg", neg)}, tag_var="kind"
    )
    value = ir.node("Neg", [ir.Value(name="x")]).outputs[0]
    assert dispatch.get_pattern(value) == ("neg", neg)
    assert dispatch.get_pattern(ir.Value(name="free")) is None
    assert dispatch.tag_values == ["relu", "neg"]


def test_graph_pattern_output_nodes_in_output_order() -> None:
    op = _pattern_ir.OpsetPatternBuilder("")
    x = _pattern_ir.ValuePattern("x")
    outputs = [op.Relu(x, _outputs=["a"]), op.Sigmoid(x, _outputs=["b"])]
    graph = _pattern_ir.GraphPattern(inputs=[x], outputs=outputs, nodes=[])
    assert [n._op_identifier for n in graph.output_nodes] == [("", "Relu", ""), ("", "Sigmoid", "")]


def test_matcher_basics_and_rule_module_names() -> None:
    assert issubclass(_matcher.SimplePatternMatcher, _matcher.PatternMatcher)
    assert _basics.PartialMatchResult is _basics.MatchResult
    assert _rewrite_rule.always_true(1, x=2) is True
    assert issubclass(_rewrite_rule.RewriteRuleClassBase, _rewrite_rule.PatternBase)
    first, second = _basics.MatchResult(), _basics.MatchResult()
    second.bind("x", 1)
    first.merge(second)
    assert first.bindings == {"x": 1}
    second.fail("no")
    first.merge(second)
    assert not first and first.reason == "no"


def test_tape_builder_records_nodes_initializers_opsets() -> None:
    op = _context.TapeBuilder()
    x = ir.Value(name="x")
    op.Relu(x, _name="my_relu")
    op.BiasGelu(x, _domain="com.microsoft", _version=1)
    assert op.nodes[0].name == "my_relu"
    assert op.used_opsets == {("", None), ("com.microsoft", 1)}
    with pytest.raises(ValueError, match="name"):
        op.initializer(ir.tensor([1.0]))
    value = op.initializer(ir.tensor([1.0]), name="w")
    assert op.initializers == [value]


# -- a check's or a replacement's MatchFailureError, a check returning None -----------------

TWO_RELUS = '<ir_version: 10, opset_import: ["" : 18]> g (float[2] x) => (float[2] y) { a = Relu(x)\n y = Relu(a) }'


class _CheckRaises(pattern.RewriteRuleClassBase):
    def pattern(self, op: Any, x: Any) -> Any:
        return op.Relu(op.Relu(x))

    def check(self, context: Any, x: ir.Value) -> Any:
        raise _basics.MatchFailureError("refused in check", x)

    def rewrite(self, op: Any, x: ir.Value) -> Any:
        return op.Relu(x)


class _RewriteRaises(_CheckRaises):
    def check(self, context: Any, x: ir.Value) -> Any:
        return True

    def rewrite(self, op: Any, x: ir.Value) -> Any:
        raise _basics.MatchFailureError("refused in rewrite", x)


class _CheckReturnsNone(_CheckRaises):
    def check(self, context: Any, x: ir.Value) -> Any:
        return None


@pytest.mark.parametrize(
    ("rule_class", "status", "reason"),
    [
        (_CheckRaises, _basics.MatchStatus.CONDITION_FAILED, "refused in check"),
        (_RewriteRaises, _basics.MatchStatus.REPLACEMENT_FAILED, "refused in rewrite"),
        (_CheckReturnsNone, _basics.MatchStatus.CONDITION_FAILED, "returned None"),
    ],
)
def test_a_refusal_means_no_match(rule_class: Any, status: Any, reason: str) -> None:
    model = ir.from_proto(onnx.parser.parse_model(TWO_RELUS))
    rule = rule_class.rule()
    tracer = pattern.MatchingTracer()
    assert rule.apply_to_model(model, tracer=tracer) == 0
    assert [n.op_type for n in model.graph] == ["Relu", "Relu"]
    (best,) = tracer.best_matches_map[rule]
    assert best.status == status and reason in best.match_result.reason


# -- rewriter.testing -------------------------------------------------------------------------


def test_generate_random_inputs() -> None:
    model = onnx.parser.parse_model(
        '<ir_version: 10, opset_import: ["" : 18]> g (float[2,3] a, int64[N] b, bool[2] c) '
        "=> (float[2,3] y) { y = Identity(a) }"
    )
    feeds = testing.generate_random_inputs(model)
    assert feeds["a"].shape == (2, 3) and feeds["a"].dtype == np.float32
    assert feeds["b"].shape == (0,)  # a symbolic dim is 0, as 0.7.2 reads dim_value
    assert feeds["c"].dtype == np.bool_


def test_assert_numerically_equal() -> None:
    relu = onnx.parser.parse_model(
        '<ir_version: 10, opset_import: ["" : 18]> g (float[2,3] a) => (float[2,3] y) { y = Relu(a) }'
    )
    neg = onnx.parser.parse_model(
        '<ir_version: 10, opset_import: ["" : 18]> g (float[2,3] a) => (float[2,3] y) { y = Neg(a) }'
    )
    ones = np.ones((2, 3), np.float32)
    testing.assert_numerically_equal(relu, ir.from_proto(relu), (ones,), rtol=0, atol=0)
    testing.assert_numerically_equal(relu, relu, use_reference=True)
    with pytest.raises(AssertionError, match="computes otherwise"):
        testing.assert_numerically_equal(relu, neg, {"a": ones}, rtol=1e-3)
