"""Our ATen functions on torch's OpInfo samples exported with dynamic shapes, against torch.

Each sample is captured with as many dims dynamic as torch allows, exported and run in
onnxruntime at the sample's sizes and at grown ones (see ``dynamic_harness``). Every such
sample passes, or its failure is one of the known gaps below (each with its reason;
"pending:" when the fix belongs to a module another change is reworking). Samples torch
keeps static are recorded, not failed (docs/torch_lib_ops.md lists them).

CI time: 2 samples per entry with a dim torch can keep dynamic (about 7 minutes of CPU);
``TORCHLIB_DYNAMIC_SAMPLES=3`` (or more) runs as many as the static regime.
"""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("expecttest")  # torch's OpInfo database needs it

from tests.function_libs.dynamic_harness import run_all_dynamic  # noqa: E402
from tests.function_libs.opinfo_harness import ALL_ENTRIES  # noqa: E402

pytestmark = [
    pytest.mark.filterwarnings("ignore::UserWarning"),
    pytest.mark.filterwarnings("ignore::FutureWarning"),
    pytest.mark.filterwarnings("default::onnxscript.errors.ModelCheckWarning"),
]

PENDING: dict[str, tuple[str, tuple[str, ...]]] = {
    "split of a dynamic dim is not supported": (
        "pending: ops/shape.py: aten::split.Tensor (split, chunk, unsafe_split) of a dim whose "
        "size is symbolic raises NotImplementedError; the split points need computing at run "
        "time",
        (
            "split",
            "chunk",
            "unsafe_chunk",
            "unsafe_split",
            "split@complex64",
            "chunk@complex64",
            "nn.functional.multi_head_attention_forward",
        ),
    ),
    "diagonal needs static sizes of the two dims": (
        "pending: ops/shape.py: aten::diagonal raises NotImplementedError when either dim is "
        "symbolic (the diagonal's length and the flat positions need run-time sizes)",
        ("diagonal", "diagonal_copy", "diag", "trace", "linalg.diagonal"),
    ),
    "replication padding that crops needs a static size": (
        "pending: ops/shape.py: replication pad with negative pads (crops) on a dim with a "
        "symbolic size raises NotImplementedError",
        ("nn.functional.pad.replicate_negative",),
    ),
    "unfold of a dynamic dim is not supported": (
        "pending: ops/shape.py: aten::unfold (stft's and istft's frames) of a dim with a "
        "symbolic size raises NotImplementedError",
        ("stft", "istft"),
    ),
    "Product cannot be 0 in combination with": (
        "pending: ops/shape.py: aten::view to a size with a static 0 and a -1 (im2col's "
        "[0, C*k*k, -1] for an empty batch) is a Reshape without allowzero, which copies the "
        "0 and onnxruntime refuses with -1",
        ("nn.functional.unfold",),
    ),
    "Unsupported attribute type": (
        "pending: ops/creation.py: aten::rand (bernoulli's decomposition) puts a size list "
        "with a symbolic element into RandomUniform's shape attribute",
        ("bernoulli",),
    ),
}
"""Failures at dims whose functions another change is reworking: marker in the failure ->
(the pending fix, the entries it shows in). They pass with those changes."""

KNOWN_GAPS: dict[tuple[str, str], str] = {
    ("abs@complex64", "max difference inf"): (
        "as with static shapes: torch.onnx translates complex abs with its own function "
        "(ReduceL2), which overflows for parts near 1e30"
    ),
    ("resize_", "Cannot call storage_offset() on tensor with symbolic sizes"): (
        "torch: torch.onnx's decomposition pass re-traces aten::resize_, whose fake kernel "
        "reads the storage offset of an input with symbolic sizes (before our function is "
        "called)"
    ),
    **{
        (entry, marker): reason
        for marker, (reason, entries) in PENDING.items()
        for entry in entries
    },
}
"""(entry, marker in the failure) -> why the sample fails with dynamic shapes."""


def known_dynamic(op: str, result: str) -> str | None:
    for (gap_op, marker), reason in KNOWN_GAPS.items():
        if gap_op == op and marker in result:
            return reason
    return None


@pytest.mark.parametrize("name", ALL_ENTRIES)
def test_dynamic_samples_match_torch(name: str):
    outcomes = run_all_dynamic([name])
    assert outcomes, f"no samples for {name}"
    unexplained = [
        o for o in outcomes if o.result.startswith("fail") and known_dynamic(name, o.result) is None
    ]
    assert not unexplained, unexplained


class _Branching(torch.nn.Module):
    """Sums of ``x`` and of ``y``'s rows, which branch on y's second dim: torch keeps
    every dim dynamic but that one."""

    def forward(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        rows = y.sum(1) if y.shape[1] == 3 else y.mean(1)
        return x.sum() + rows


def test_capture_keeps_the_dims_torch_allows_and_grows_them():
    from tests.function_libs import dynamic_export

    x, y = torch.randn(4, 6), torch.randn(2, 3)
    capture = dynamic_export.capture_dynamic(_Branching(), (x, y))
    assert capture.dynamic == {(0, 0), (0, 1), (1, 0)}, capture
    assert set(capture.fixed) == {(1, 1)}, capture
    other = dynamic_export.other_inputs(capture.program, _Branching(), (x, y), capture.dynamic)
    assert other is not None and other[0] == "+1", other
    grown_x, grown_y = other[1]
    assert grown_x.shape == (5, 7) and grown_y.shape == (3, 3)
    assert torch.equal(grown_x[:4, :6], x)  # the sample's values kept


class _Varargs(torch.nn.Module):
    def forward(self, first: torch.Tensor, *rest: torch.Tensor) -> torch.Tensor:
        return first


def test_named_dims_reads_every_spelling():
    from tests.function_libs.dynamic_export import named_dims

    error = RuntimeError(
        "L['rest'][1].size()[2], L['first'].size()[0] and inputs[1].shape[1] specialized"
    )
    assert named_dims(error, _Varargs()) == {(2, 2), (0, 0), (1, 1)}
