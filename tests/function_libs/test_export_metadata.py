"""The metadata torch.onnx writes on an export survives version conversion and
``optimize()`` (see export_checks) for the exports the model suites do not make: a model
torch converts across a changed op (GridSample changed meaning at opset 20, so its node
is rewritten by our version converter) and models with torch.cond, while_loop and scan
(their bodies are model-local functions the optimizer inlines). The real architectures
and the torch.nn suite are checked on their own exports in test_real_models and
test_model_suite.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

torch = pytest.importorskip("torch")

from tests.function_libs import test_control_flow_export as control_flow  # noqa: E402
from tests.function_libs.dynamic_export import export  # noqa: E402
from tests.function_libs.export_checks import (  # noqa: E402
    assert_metadata_kept,
    metadata_snapshot,
)


class GridSample(torch.nn.Module):
    """GridSample-16 is not GridSample-20: the 18 -> 20 conversion rewrites its node."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = torch.nn.Parameter(torch.tensor(0.5))

    def forward(self, x: Any, grid: Any) -> Any:
        sampled = torch.nn.functional.grid_sample(x, grid, align_corners=False)
        return (sampled * self.scale).relu()


Exported = Callable[[], Any]
"""Makes the ONNXProgram (exported with optimize=False)."""


def _control_flow(name: str) -> Exported:
    def make() -> Any:
        case = control_flow.CASES[name]
        args = case.args()
        return export(case.module(), args, case.dynamic(args), optimize=False)

    return make


def _grid_sample() -> Any:
    torch.manual_seed(0)
    args = (torch.randn(2, 3, 6, 6), torch.rand(2, 4, 4, 2) * 2 - 1)
    return export(GridSample().eval(), args, optimize=False)


MODELS: dict[str, Exported] = {
    "grid_sample": _grid_sample,
    "cond_with_parameters": _control_flow("cond_with_parameters"),
    "cond_returning_a_copy": _control_flow("cond_returning_a_copy"),
    "cond_in_while_loop": _control_flow("cond_in_while_loop"),
    "scan_function": _control_flow("scan_function"),
}


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
@pytest.mark.parametrize("name", sorted(MODELS))
def test_torch_metadata_survives_conversion_and_optimize(name: str) -> None:
    program = MODELS[name]()
    assert program.model.opset_imports[""] == 20  # torch converted it from 18
    before = metadata_snapshot(program.model)
    program.optimize()
    assert_metadata_kept(program, before)
