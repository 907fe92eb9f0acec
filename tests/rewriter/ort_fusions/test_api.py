"""The names 0.7 code imports from the group-A modules of ``ort_fusions``, and the
signature of their ``fuse_*`` functions."""

from __future__ import annotations

import importlib
import inspect

import pytest

from onnxscript.rewriter.ordered_rules import RewriteRuleSet

NAMES = {
    "rms_normalization": [
        "fuse_rms_normalization",
        "rms_normalization_rules",
        "rms_normalization_ruleset",
    ],
    "skip_normalization": [
        "fuse_skip_rms_normalization",
        "fuse_skip_layer_normalization",
        "skip_rms_normalization_ruleset",
        "skip_layer_normalization_ruleset",
    ],
    "gelu": ["fuse_gelu", "gelu_rules"],
    "erfgelu": ["fuse_erfgelu", "rules"],
    "bias_gelu": ["fuse_bias_gelu", "bias_gelu_rules"],
    "fused_matmul_rule_sets": ["fused_matmul_rule_sets"],
    "softmax": ["rules"],
}


@pytest.mark.parametrize("module", sorted(NAMES))
def test_names_of_0_7(module: str) -> None:
    loaded = importlib.import_module(f"onnxscript.rewriter.ort_fusions.{module}")
    for name in NAMES[module]:
        value = getattr(loaded, name)
        if name.startswith("fuse_"):
            parameters = list(inspect.signature(value).parameters)
            assert parameters[:3] == ["model", "debug", "apply_shape_inference"]
        elif name.endswith(("ruleset", "_rules")) and not name.endswith("normalization_rules"):
            assert isinstance(value, RewriteRuleSet)
    assert isinstance(
        importlib.import_module(
            "onnxscript.rewriter.ort_fusions.fused_matmul_rule_sets"
        ).fused_matmul_rule_sets(),
        RewriteRuleSet,
    )


KEYS_072 = [
    "erf_gelu",
    "rms_normalization",
    "skip_layer_normalization",
    "skip_rms_normalization",
    "rotary_embedding",
    "cos_sin_cache",
    "partial_rotary_embedding",
    "sdpa",
    "gqa",
    "packed_qkv_for_gqa",
    "mha1",
    "mha2",
    "mha_scale",
    "mha_bias",
    "attention",
    "gelu",
    "bias_gelu",
    "sdpa_via_mha",
]
"""The keys of 0.7.2's counts (its ``optimize_for_ort`` and ``fuse_xformers``)."""


def _relu_model() -> object:
    import onnx.parser
    import onnx_ir as ir

    return ir.from_proto(
        onnx.parser.parse_model(
            '<ir_version: 10, opset_import: ["" : 18]> g (float[2,3] x) => (float[2,3] y) '
            "{ y = Relu (x) }"
        )
    )


def test_counts_have_0_7_2_keys() -> None:
    from onnxscript.rewriter.ort_fusions import _core

    _, counts = _core.optimize_for_ort(_relu_model())  # type: ignore[arg-type]
    assert set(KEYS_072) <= set(counts) and set(counts) - set(KEYS_072) == {
        "fused_matmul",
        "softmax",
    }
    _, counts = _core.fuse_xformers(_relu_model())  # type: ignore[arg-type]
    assert sorted(counts) == sorted(KEYS_072)
    assert all(value == 0 for value in counts.values())


def test_test_utils_run_and_compare() -> None:
    import numpy as np

    from onnxscript.rewriter.ort_fusions import _test_utils

    x = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], np.float32)
    outputs = _test_utils.ort_run("relu", _relu_model(), {"x": x})
    _test_utils.assert_allclose(outputs, [np.maximum(x, 0)])
    with pytest.raises(AssertionError):
        _test_utils.assert_allclose(outputs, [np.maximum(x, 0) + 0.1])
