"""Our ATen functions on torch's OpInfo samples exported with dynamic shapes, against torch.

Each sample is captured with as many dims dynamic as torch allows, exported and run in
onnxruntime at the sample's sizes and at grown ones (see ``dynamic_harness``). Every such
sample passes, or its failure is one of the known gaps below (each with its reason;
"pending:" names the module, owned by another change, whose fix it waits for). Samples
torch keeps static are recorded, not failed (docs/torch_lib_ops.md lists them).

CI time: 1 sample per entry with a dim torch can keep dynamic, about 4 minutes of CPU
(docs/torch_lib_ops.md is made with 2; the static regime takes about 13 minutes of CPU).
``TORCHLIB_DYNAMIC_SAMPLES=4`` is the full mode (about 12 minutes of CPU), which also meets
the gaps of later samples listed in LATER_SAMPLES.
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

LATER_SAMPLES: dict[tuple[str, str], str] = {
    ("gather", "tensor(uint8)"): (
        "pending: aten/shape.py: aten::gather with a uint8 index (an empty one, which torch "
        "accepts) gives GatherElements a uint8 index"
    ),
    ("masked_scatter", "ScatterND node. Name:'node_masked_scatter'"): (
        "pending: aten/shape.py: aten::masked_scatter with a mask of higher rank than self "
        "(self broadcast to the mask) builds ScatterND indices of the mask's rank"
    ),
    ("as_strided.partial_views", "indices element out of"): (
        "the input is a view into a larger storage that as_strided reads past (the static "
        "gap; with a symbolic size the bound is checked at run time)"
    ),
    ("_upsample_bilinear2d_aa", "antialiased interpolation with align_corners=True"): (
        "pending: aten/upsample.py: antialiased bilinear with align_corners=True is refused "
        "(ONNX Resize has no such sampling)"
    ),
}
"""Failures seen only with ``TORCHLIB_DYNAMIC_SAMPLES`` above 2, in samples the static regime
does not run, that fail with static shapes too."""

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
        (f"nn.functional.max_unpool{n}d.grad", "(at sizes"): (
            "the grown indices repeat the sample's (new positions copy old ones), and "
            "max_unpool with duplicate indices keeps an unspecified one of the values: torch "
            "and onnxruntime may keep different ones (at the sample's sizes it passes)"
        )
        for n in (1, 2, 3)
    },
    **{
        (entry, marker): f"also with static shapes (a sample past the static regime's 3): {why}"
        for (entry, marker), why in LATER_SAMPLES.items()
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
