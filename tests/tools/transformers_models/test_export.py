"""``export_to_onnx``: a small model exported with torch.onnx, optimized, and run in
onnxruntime to the model's own results."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from onnxscript.testing import run_model  # noqa: E402
from onnxscript.tools.transformers_models import export_to_onnx  # noqa: E402
from onnxscript.tools.transformers_models.llama import get_llama_model  # noqa: E402


@pytest.mark.parametrize("optimize", [True, False])
def test_exported_llama_computes_what_the_model_does(optimize):
    torch.manual_seed(0)
    model, inputs, _ = get_llama_model(input_dims=((2, 8),))
    proto = export_to_onnx(model, *inputs[0], optimize=optimize, no_grad=True)
    onnx.checker.check_model(proto, full_check=True)
    assert [i.name for i in proto.graph.input] == ["input_ids", "attention_mask"]
    assert not proto.functions  # inlined
    with torch.no_grad():
        (expected,) = model(*inputs[0])
    (got,) = run_model(proto, [t.numpy() for t in inputs[0]])
    np.testing.assert_allclose(got, expected.numpy(), rtol=1e-4, atol=1e-5)
