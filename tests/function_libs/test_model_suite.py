"""torch.onnx.export(dynamo=True) with our onnxscript on a suite of torch.nn models:
each exported model passes the full checker, runs on onnxruntime and matches torch within
1e-4 of the output's scale, with and without optimize(); torch's 18 -> 20 conversion never
serializes the model, and torch's metadata survives it and optimize() (export_checks)."""

from __future__ import annotations

import logging

import numpy as np
import onnx
import pytest

torch = pytest.importorskip("torch")
ort = pytest.importorskip("onnxruntime")

from tests.function_libs.export_checks import (  # noqa: E402
    assert_metadata_kept,
    metadata_snapshot,
    no_proto_conversion,
)
from tests.function_libs.models import suite  # noqa: E402

MODELS = suite()


def _run(model: onnx.ModelProto, args: tuple) -> np.ndarray:
    session = ort.InferenceSession(model.SerializeToString())
    feeds = {i.name: a.numpy() for i, a in zip(session.get_inputs(), args)}
    return session.run(None, feeds)[0]


@pytest.mark.parametrize("name", sorted(MODELS))
def test_export_matches_torch(name: str, monkeypatch: pytest.MonkeyPatch):
    module, args = MODELS[name]
    logging.disable(logging.WARNING)
    try:
        with no_proto_conversion(monkeypatch) as conversions:
            program = torch.onnx.export(module, args, dynamo=True, optimize=False, verbose=False)
    finally:
        logging.disable(logging.NOTSET)
    assert conversions == [(18, 20)]
    metadata = metadata_snapshot(program.model)
    expected = module(*args).detach().numpy()
    scale = max(float(np.abs(expected).max()), 1e-6)
    for optimized in (False, True):
        if optimized:
            before = len(program.model.graph)
            program.optimize()
            assert len(program.model.graph) <= before
            assert_metadata_kept(program, metadata)
        proto = program.model_proto
        onnx.checker.check_model(proto, full_check=True)
        got = _run(proto, args)
        assert got.shape == expected.shape
        assert float(np.abs(got - expected).max()) / scale < 1e-4, (name, optimized)
