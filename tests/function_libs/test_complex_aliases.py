"""The complex variants registered for 0.7's names beyond the OpInfo entries: torch keeps
``divide``, ``multiply`` and ``subtract`` whole (the library registers them), so complex
operands reach their complex variants; exported and run against torch."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

torch = pytest.importorskip("torch")

CASES: dict[str, tuple[str, Callable[[torch.Tensor, torch.Tensor], torch.Tensor]]] = {
    "divide": ("aten.divide.Tensor", torch.divide),
    "divide by a number": ("aten.divide.Tensor", lambda a, b: torch.divide(a, 2.5)),
    "true_divide": ("aten.true_divide.Tensor", torch.true_divide),
    "multiply": ("aten.multiply.Tensor", torch.multiply),
    "multiply by a number": ("aten.multiply.Tensor", lambda a, b: torch.multiply(a, 3.0)),
    "subtract": ("aten.subtract.Tensor", lambda a, b: torch.subtract(a, b, alpha=2)),
    "subtract a number": ("aten.subtract.Tensor", lambda a, b: torch.subtract(a, 1.5)),
}
"""Case -> (the overload torch.onnx translates, the operation)."""


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(CASES))
def test_complex_alias_matches_torch(name: str):
    import onnxruntime as ort

    overload, operation = CASES[name]

    class Model(torch.nn.Module):
        def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
            return operation(a, b)

    generator = torch.Generator().manual_seed(0)
    a = torch.randn(3, 4, dtype=torch.complex64, generator=generator)
    b = torch.randn(3, 4, dtype=torch.complex64, generator=generator) + 0.5
    program = torch.onnx.export(Model().eval(), (a, b), dynamo=True, verbose=False)
    assert program.exported_program is not None
    calls = [str(n.target) for n in program.exported_program.graph.nodes if n.op == "call_function"]
    assert calls == [overload]
    session = ort.InferenceSession(program.model_proto.SerializeToString())
    feeds = {i.name: torch.view_as_real(t).numpy() for i, t in zip(session.get_inputs(), (a, b))}
    (got,) = session.run(None, feeds)
    np.testing.assert_allclose(got, torch.view_as_real(operation(a, b)).numpy(), rtol=1e-5)
