"""Every case of ``cases_072.py`` through our rule: the result passes the full checker,
computes exactly what the model did (onnxruntime), and has the ops onnxscript 0.7.2's
rule left (recorded in ``ops_072.json`` by ``record_072.py``), Constant nodes aside
(0.7.2 makes initializers where we make Constant nodes), except where we differ on
purpose, listed below with the ops we make and why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import onnxscript.rewriter.rules.common as common
from tests.rewriter import rule_checks
from tests.rewriter.rules.common.cases_072 import CASES, model

pytest.importorskip("onnxruntime")

_STRONGER = "ours rewrites a case 0.7.2 leaves"
DIFFERENCES: dict[str, tuple[list[str], str]] = {
    "add0_one_element_vector": (["Identity"], _STRONGER + ": a [1] zero keeps x's shape"),
    "add0_tiny": (["Add"], "the neutral number must be exact (0.7.2 takes 1e-9 for 0)"),
    "dropout_ratio_input_0": (["Identity"], _STRONGER + " (0.7.2 matches a ratio attribute)"),
    "dropout_ratio_input_0_training": (["Identity"], _STRONGER),
    "dropout_plain_inference": (["Identity"], _STRONGER + " (no training_mode: inference)"),
    "dropout_ratio_half_inference": (["Identity"], _STRONGER),
    "dropout_training_false": (["Identity"], _STRONGER),
    "dropout_opset10_inference": (["Identity"], _STRONGER),
    "castcast_half_float_int": (["Cast"], _STRONGER + ": float16 -> float is exact"),
    "castcast_int32_int64_double": (["Cast"], _STRONGER + ": int32 -> int64 is exact"),
    "castcast_same_type_twice": (["Cast"], _STRONGER + ": casting to float twice"),
    "cos_no_value_with_value": (
        ["ConstantOfShape", "Cast"],
        "0.7.2's rule for a ConstantOfShape without value also takes one with a value, "
        "and makes it 0",
    ),
    "expand_ones": (["Identity"], _STRONGER + ": expanding to ones"),
    "expand_ones_symbolic": (["Identity"], _STRONGER),
    "expand_dynamic_same_names": (["Identity"], _STRONGER + ": same named dims"),
    "transpose_no_perm_1d": (["Identity"], _STRONGER),
    "transpose2_no_perm_scalar": (["Identity"], _STRONGER + ": a scalar's transposes"),
    "transpose2_no_perm": (["Transpose"], _STRONGER + ": a missing perm at a known rank"),
    "unsqueeze2_negative": (["Unsqueeze"], _STRONGER + ": negative axes at a known rank"),
    "unsqueeze2_several": (["Unsqueeze"], _STRONGER + ": several axes"),
    "flatten_two_symbolic": (
        ["Flatten"],
        "0.7.2 makes Reshape(x, [0, -1]), which onnxruntime fails on when x's first dim "
        "is 0 at run time",
    ),
    "flatten_unknown_rank": (["Abs", "Flatten"], "as flatten_two_symbolic"),
    "reshape2_zero_and_minus1": (["Reshape"], _STRONGER + ": the 0 copies a known 6"),
    "reshape2_zero_and_minus1_symbolic": (["Reshape"], _STRONGER),
    "squeeze_reshape_2d": (["Reshape"], _STRONGER + ": Reshape(x, [-1])"),
    "materialize_two_symbolic": (["Reshape"], _STRONGER + ": 0s copy x's dims"),
    "materialize_same_shape": (["Identity"], _STRONGER + ": the shape is x's"),
    "maxmin_broadcast_rank": (
        ["Max", "Min"],
        "0.7.2's Clip drops the dim that broadcasting with a [1, 1] bound adds",
    ),
    "clip_clip": (["Clip"], "0.7.2 raises AttributeError"),
    "clip_clip_half_open": (["Clip"], "0.7.2 raises AttributeError"),
    "clip_clip_disjoint": (["Clip", "Clip"], "0.7.2 raises AttributeError; disjoint ranges"),
    "clip_of_relu": (["Clip"], "0.7.2 raises AttributeError"),
    "relu_of_clip_negative_max": (
        ["Clip", "Relu"],
        "0.7.2 makes Clip(x, 0, -1), which is -1 where the model gives 0",
    ),
}


def recorded_072_ops() -> dict[str, list[str]]:
    """The op types onnxscript 0.7.2 left for each case of ``cases_072.py`` (recorded by
    ``record_072.py``)."""
    path = Path(__file__).resolve().parent / "ops_072.json"
    data: dict[str, list[str]] = json.loads(path.read_text())
    return data


def _without_constants(ops: list[str]) -> list[str]:
    return [op for op in ops if op != "Constant"]


def test_every_difference_is_a_case() -> None:
    assert set(DIFFERENCES) <= set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_against_072(name: str) -> None:
    rule, opset, text = CASES[name]
    before = model(opset, text)  # as record_072.py gives it to 0.7.2
    after = rule_checks.apply(before, getattr(common, rule))
    rule_checks.assert_same_results(before, after, rtol=0, atol=0)  # exactly
    recorded = recorded_072_ops()
    if name in DIFFERENCES:
        expected = DIFFERENCES[name][0]
    elif name in recorded:
        expected = _without_constants(recorded[name])
    else:
        pytest.skip("not recorded with 0.7.2 yet: run record_072.py")
    assert _without_constants(rule_checks.op_types(after)) == expected
