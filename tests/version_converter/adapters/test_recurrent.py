"""RNN/GRU/LSTM layout=1 (batch first) written as Transposes for opsets before 14.
onnxruntime has no batch-first kernel: onnx's reference evaluator runs the original."""

from __future__ import annotations

import numpy as np
import pytest

from tests.version_converter.conversion import (
    FLOAT,
    assert_same,
    attrs,
    convert,
    info,
    make,
    node,
    ops,
    out,
    rand,
    reference,
    run,
    tensor,
    the,
)

GATES = {"RNN": 1, "GRU": 3, "LSTM": 4}


@pytest.mark.parametrize("op", sorted(GATES))
def test_batch_first_layout(op: str):
    batch, seq, size, hidden = 2, 5, 3, 4
    gates = GATES[op]
    rng = np.random.default_rng(0)
    weights = [
        tensor("w", rng.standard_normal((1, gates * hidden, size)), np.float32),
        tensor("r", rng.standard_normal((1, gates * hidden, hidden)), np.float32),
    ]
    outputs = ["y", "y_h", "y_c"] if op == "LSTM" else ["y", "y_h"]
    model = make(
        [node(op, ["x", "w", "r"], outputs, hidden_size=hidden, layout=1)],
        [info("x", FLOAT, [batch, seq, size])],
        [out("y", 4), *(out(name, 3) for name in outputs[1:])],
        14,
        weights,
    )
    down = convert(model, 13)
    assert ops(down).count("Transpose") == 1 + len(outputs)
    assert "layout" not in attrs(the(down, op))
    feeds = {"x": rand(batch, seq, size)}
    for expected, actual in zip(reference(model, feeds), run(down, feeds)):
        np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)
    assert_same(down, convert(down, 14), feeds)
