"""The benchmark's generated models translate and compile back (small sizes, for CI)."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from onnxscript.testing import run_model
from tests.helpers import load_module
from tests.reverse.common import assert_roundtrip


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_module("bench_reverse", "bench/reverse.py")


@pytest.mark.parametrize("mix", ["mixed", "dense", "straight"])
def test_bench_models_round_trip(bench, mix):
    model = bench.make_model(150, mix)
    assert bench._count(list(model.graph.node)) >= 150
    source, back = assert_roundtrip(model)
    if mix != "straight":
        assert "    if " in source and "for " in source
    x = np.linspace(-1, 1, 4).astype(np.float32)
    np.testing.assert_allclose(run_model(back, [x])[0], run_model(model, [x])[0], rtol=1e-6)
