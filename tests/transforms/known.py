"""What the differential test knows to go wrong today, in one place.

``KNOWN_BUGS``: bugs of ours that issue 34 lists (``item`` is the case number of the
issue's "Shrunk" list), each with a shrunk reproducer (a model in onnx's text format, the
transform, the outcome it has today). ``test_differential.py`` runs each reproducer as a
strict expected failure: when the bug is fixed the test fails until the entry is removed.
Corpus cases the same bug breaks are matched by ``cases`` (a pattern of case names) and
``detail`` (a pattern of the outcome's message) and reported as that bug instead of as a
new failure; removing the entry makes them plain failures again.

``ORT_DEVIATIONS``: node tests where onnxruntime 1.32 (CPU) itself computes something else
than the test's expected outputs, before any transform, with the evidence (how far off,
and why where known). A transformed model there is right if it matches onnxruntime's
result before the transform or the expected output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class KnownBug:
    item: str
    """The case number in issue 34's list of shrunk failures, or ``new`` for one this
    test found."""
    name: str
    transform: str
    model: str
    """The shrunk reproducer, in onnx's text format; or ``node:<name>`` (an onnx node
    test), or ``mutant:<base>~m<seed>/<chains>/<probes>`` (a mutant of a corpus case
    with its first chains and probes only, where a hand-written model does not show
    it)."""
    kind: str
    """Its outcome today."""
    inputs: dict[str, Any] = field(default_factory=dict)
    """Input values that matter (the rest random)."""
    cases: str = "$^"
    """A pattern of the corpus case names the same bug breaks."""
    detail: str = ""
    """A pattern the outcome's message must contain for a corpus case to match."""
    transforms: str = ".*"
    """A pattern of the transforms through which it shows."""


KNOWN_BUGS: tuple[KnownBug, ...] = ()


def known_bug_of(case: str, transform: str, kind: str, detail: str = "") -> KnownBug | None:
    """The known bug that explains a corpus failure (None when no entry does)."""
    for bug in KNOWN_BUGS:
        if (
            re.search(bug.cases, case)
            and re.fullmatch(bug.transforms, transform)
            and re.search(bug.detail, detail)
            and kind != "ok"
        ):
            return bug
    return None


_DFT = (
    "onnxruntime 1.32's DFT/STFT kernel is less accurate than the test's tolerance on "
    "its smallest outputs: {n} elements off by up to {d} (rtol 1e-3, atol 1e-5)"
)
_RESIZE = (
    "onnxruntime 1.32's Resize with coordinate_transformation_mode=align_corners, "
    "downsampling by scales, gives {what}: its output size rounds the scaled size and its "
    "align_corners mapping uses that size (the test's expected values use the spec's)"
)
_TRAINING_BN = (
    "BatchNormalization with training_mode=1: onnxruntime's running {stat} output differs "
    "from the spec's (momentum-weighted input {stat} and batch {stat}) by up to {d}, and "
    "differs between two runs of one session (it reads memory it does not initialize)"
)
_DROPOUT = (
    "Dropout in training mode draws its mask at random: the test's expected output is one "
    "draw (numpy's), onnxruntime draws another; not comparable"
)
ORT_DEVIATIONS: dict[str, str] = {
    "test_attention_4d_with_past_and_present_qk_matmul_bias_3d_mask_causal": (
        "Attention-23 with is_causal=1, a 3-D mask and qk_matmul_output_mode=1 (QK+bias): "
        "onnxruntime's 4th output (the QK product after the bias) has -inf in the 84 "
        "positions the causal mask hides, where the spec's is the finite QK+bias value "
        "(onnxruntime applies the causal mask before writing that output)"
    ),
    "test_attention_4d_with_past_and_present_qk_matmul_bias_4d_mask_causal": (
        "as the 3-D-mask case: the 4th output has -inf in the 84 causally masked positions"
    ),
    "test_batchnorm_epsilon_training_mode": _TRAINING_BN.format(stat="mean", d="0.23"),
    "test_batchnorm_example_training_mode": _TRAINING_BN.format(stat="variance", d="0.21"),
    "test_dft": _DFT.format(n=20, d="1.6e-4"),
    "test_dft_axis": _DFT.format(n=20, d="2.4e-4"),
    "test_dft_axis_opset19": _DFT.format(n=20, d="2.4e-4"),
    "test_dft_inverse": _DFT.format(n=10, d="1.7e-5"),
    "test_dft_inverse_opset19": _DFT.format(n=10, d="1.7e-5"),
    "test_dft_irfft": _DFT.format(n=1, d="1.1e-5"),
    "test_dft_irfft_opset19": _DFT.format(n=1, d="1.1e-5"),
    "test_dft_opset19": _DFT.format(n=20, d="1.6e-4"),
    "test_dft_rfft": _DFT.format(n=20, d="1.6e-4"),
    "test_dft_rfft_opset19": _DFT.format(n=20, d="1.6e-4"),
    "test_stft": _DFT.format(n=14, d="8.4e-5"),
    "test_stft_with_window": _DFT.format(n=12, d="4.2e-5"),
    "test_maxunpool_export_with_output_shape": (
        "MaxUnpool with an output_shape input larger than the default: onnxruntime places "
        "8 of the 25 values at other positions than the spec (it computes the flat indices "
        "against the default shape), largest difference 8.0"
    ),
    "test_resize_downsample_scales_cubic_align_corners": _RESIZE.format(
        what="8 of 9 cubic values off by up to 1.05"
    ),
    "test_resize_downsample_scales_linear_align_corners": _RESIZE.format(
        what="1 of 2 linear values off by 0.857"
    ),
    "test_training_dropout": _DROPOUT,
    "test_training_dropout_default": _DROPOUT,
    "test_training_dropout_default_mask": _DROPOUT,
    "test_training_dropout_mask": _DROPOUT,
}
"""Node tests where onnxruntime (1.32, CPU) computes something else than the expected
outputs, before any transform, each with the evidence (measured by
``harness.reference``; ``test_onnxruntime_deviations_are_the_recorded_ones`` keeps the
list exact)."""


ORT_DEVIATIONS_NOT_REPEATABLE = frozenset(
    {"test_batchnorm_epsilon_training_mode", "test_batchnorm_example_training_mode"}
)
"""Recorded deviations that come and go between runs (onnxruntime's kernel is not
repeatable there): not required to occur on every run."""


ORT_FAILURES: dict[str, str] = {
    r"Missing Input: ": (
        "onnxruntime 1.32 fails to run a valid model whose Loop body reads an outer value "
        "made by two Casts (bool -> int64 -> bool), optimizations on or off: "
        "'OpKernelContext::Input ... Missing Input: b' in SequenceInsert. Reproducer "
        "(checker-clean): x1: bool[2,2]; a = Cast<to=7>(x1); b = Cast<to=9>(a); "
        "loop10 = Loop(c9 = 1, '', SequenceEmpty<dtype=9>()) with body "
        "so6 = SequenceInsert(s4, b). With b = Identity(x1) or Not(x1) it runs"
    ),
    r"does not match expected type \(optional\(tensor\(float\)\)\)": (
        "onnxruntime 1.32 at opset 28 types Optional as optional(tensor(float)) whatever its "
        "input (float16 refused with this Type Error) and has no kernel of Optional(28) for "
        "float: Optional(x); OptionalGetElement at opset 27 runs, at 28 fails to load"
    ),
}
"""onnxruntime failures on valid models (the full checker passes) that are onnxruntime's
bugs, by a pattern of its message, with the evidence: a transform whose result onnxruntime
fails on this way is not counted as the transform's failure (``ort-bug``)."""


__all__ = [
    "KNOWN_BUGS",
    "ORT_DEVIATIONS",
    "ORT_DEVIATIONS_NOT_REPEATABLE",
    "ORT_FAILURES",
    "KnownBug",
    "known_bug_of",
]
