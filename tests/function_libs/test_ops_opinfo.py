"""Our ATen functions on torch's OpInfo samples, exported and eager, against torch.

Every sample of every listed op passes, or its failure is one of the known gaps below
(each with its reason; docs/torch_lib_ops.md lists them with counts)."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("expecttest")  # torch's OpInfo database needs it

from tests.function_libs.opinfo_harness import ALL_ENTRIES, run_all  # noqa: E402

KNOWN_GAPS: dict[tuple[str, str], str] = {
    ("nn.functional.dropout", "training mode"): (
        "dropout in training mode (random masks) is not exported; eval-mode dropout is"
    ),
}


def _known(op: str, result: str) -> str | None:
    for (gap_op, marker), reason in KNOWN_GAPS.items():
        if gap_op == op and marker in result:
            return reason
    return None


@pytest.mark.parametrize("name", ALL_ENTRIES)
def test_opinfo_samples_match_torch(name: str):
    outcomes = run_all([name])
    assert outcomes, f"no samples for {name}"
    unexplained = [
        o for o in outcomes if o.result.startswith("fail") and _known(name, o.result) is None
    ]
    assert not unexplained, unexplained
