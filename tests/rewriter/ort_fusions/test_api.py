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
