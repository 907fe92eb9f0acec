"""onnx's backend node tests converted across opsets (see ``backend_sweep``): a fixed
sample by default, every case at every reachable opset with
``ONNXSCRIPT_FULL_VERSION_SWEEP=1``."""

from __future__ import annotations

import json
import os

import pytest

from tests.version_converter import backend_sweep

FULL = os.environ.get("ONNXSCRIPT_FULL_VERSION_SWEEP") == "1"


@pytest.fixture(scope="module")
def cases() -> list[backend_sweep.Case]:
    return backend_sweep.load_cases()


def test_backend_node_tests_convert(
    cases: list[backend_sweep.Case], request: pytest.FixtureRequest
):
    distances = backend_sweep.FULL_DISTANCES if FULL else backend_sweep.SAMPLE_DISTANCES
    outcomes = backend_sweep.sweep(cases, distances, sample=1 if FULL else 6)
    counts = backend_sweep.counts(outcomes)
    cache = getattr(request.config, "cache", None)  # absent with -p no:cacheprovider
    if cache is not None:
        cache.set("version_converter/backend_sweep", counts)
    failures = [o for o in outcomes if o.result.startswith("fail")]
    assert not failures, json.dumps([vars(o) for o in failures[:20]], indent=1)
    assert counts.get("pass", 0) > (10000 if FULL else 1000), counts
    assert counts.get("refused", 0) < counts["pass"] / 5, counts
