"""Python scalars become constants of their partner's element type while tracing: the
exported graph (before optimize()) has no CastLike, nor a Cast of a constant, where the
ATen functions knew the type; and it computes what torch does."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from tests.function_libs.dynamic_export import check_at, export  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


class Arange(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        return x + torch.arange(1, 5, dtype=x.dtype)


class Baddbmm(torch.nn.Module):
    def forward(self, x: Any, a: Any, b: Any) -> Any:
        return torch.baddbmm(x, a, b, beta=0.5, alpha=2.0)


def _casts_of_constants(model: Any) -> Counter[str]:
    found: Counter[str] = Counter()
    for node in model.graph:
        source = node.inputs[0] if node.inputs else None
        producer = source.producer() if source is not None else None
        if producer is not None:
            constant = producer.op_type == "Constant"
        else:  # an initializer (a buffer)
            constant = source is not None and source.const_value is not None
        if node.op_type == "CastLike" or (node.op_type == "Cast" and constant):
            found[node.op_type] += 1
    return found


CASES = {
    "batch_norm_double": (
        torch.nn.BatchNorm2d(3).eval().double(),
        (torch.randn(2, 3, 4, 4, dtype=torch.float64),),
    ),
    "group_norm_half_of_channels": (
        torch.nn.GroupNorm(2, 4).eval(),
        (torch.randn(2, 4, 5),),
    ),
    "arange_as_float": (Arange(), (torch.randn(3, 4),)),
    "baddbmm_scaled": (
        Baddbmm(),
        (torch.randn(2, 3, 5), torch.randn(2, 3, 4), torch.randn(2, 4, 5)),
    ),
}


class IndexConstant(torch.nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.register_buffer("where", torch.tensor([3, 0, 1]))

    def forward(self, x: Any) -> Any:
        return x[self.where]


CASES["index_with_a_constant"] = (IndexConstant().eval(), (torch.randn(4, 5),))


@pytest.mark.parametrize("name", list(CASES))
def test_no_cast_of_a_known_scalar(name: str):
    module, args = CASES[name]
    program = export(module, args, optimize=False)
    assert not _casts_of_constants(program.model), name
    assert all(d.ok for d in check_at(program, module, [args]))
