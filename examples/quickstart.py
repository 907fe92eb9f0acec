"""Quickstart: compile a small model, check it, save it, and run it with onnxruntime.

The model is a linear layer followed by a hardmax over the classes: for each row of the
input it returns a one-hot vector marking the highest score.
"""

from __future__ import annotations

import pathlib
import tempfile

import numpy as np
import onnx
import onnxruntime

from onnxscript import FLOAT, script
from onnxscript import opset18 as op


@script()
def linear_hardmax(x: FLOAT["N", 4], weight: FLOAT[4, 3], bias: FLOAT[3]) -> FLOAT["N", 3]:
    """Scores each row of x with a linear layer and one-hot encodes the best class."""
    scores = op.MatMul(x, weight) + bias
    return op.Hardmax(scores, axis=-1)


def main() -> None:
    model = linear_hardmax.to_model_proto()
    onnx.checker.check_model(model, full_check=True)

    path = pathlib.Path(tempfile.gettempdir()) / "linear_hardmax.onnx"
    onnx.save(model, path)
    print(f"saved {path} ({path.stat().st_size} bytes)")
    print(onnx.printer.to_text(model.graph))

    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 4)).astype(np.float32)
    weight = rng.standard_normal((4, 3)).astype(np.float32)
    bias = rng.standard_normal(3).astype(np.float32)
    session = onnxruntime.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (result,) = session.run(None, {"x": x, "weight": weight, "bias": bias})
    print("input:\n", x)
    print("one-hot best class per row:\n", result)

    expected = np.eye(3, dtype=np.float32)[np.argmax(x @ weight + bias, axis=-1)]
    assert np.array_equal(result, expected), "onnxruntime disagrees with numpy"
    print("matches numpy: yes")


if __name__ == "__main__":
    main()
