"""The metadata torch.onnx writes on an export survives version conversion and
``optimize()``: the five keys on every node (``namespace`` and torch's class hierarchy,
name scopes, fx node and stack trace), the exported program's graph signature and range
constraints on the main graph, the ``InputSpec``/``OutputSpec`` kinds of inputs, outputs
and initializers.

Real architectures of tests/function_libs/real_models.py and models.py (random weights,
dynamic shapes), a model torch converts to opset 20 through onnx's version converter
(GridSample changed meaning at 20) and models with torch.cond, while_loop and scan (their
bodies are model-local functions the optimizer inlines). Each is exported with
``optimize=False``; every node then carries the five keys (but the calls of torch's
subgraph functions, which torch leaves bare), and after ``ONNXProgram.optimize()`` every
node of every graph does: nodes made by folding, fusion and inlining carry their sources'
metadata (onnxscript.optimizer.metadata). (A pass could make a node from no node with
metadata only where inlining adds an Identity for a function returning its input and the
call is bare; torch's branches return copies made by a node of theirs, so none here.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import onnx_ir as ir
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("torchvision")

from onnxscript.optimizer.metadata import FOLDED_FROM  # noqa: E402
from tests.function_libs import models as small_models  # noqa: E402
from tests.function_libs import test_control_flow_export as control_flow  # noqa: E402
from tests.function_libs.dynamic_export import export  # noqa: E402
from tests.function_libs.real_models import suite  # noqa: E402

NODE_KEYS = (
    "namespace",
    "pkg.torch.onnx.class_hierarchy",
    "pkg.torch.onnx.name_scopes",
    "pkg.torch.onnx.fx_node",
    "pkg.torch.onnx.stack_trace",
)
GRAPH_KEYS = (
    "pkg.torch.export.ExportedProgram.graph_signature",
    "pkg.torch.export.ExportedProgram.range_constraints",
)
INPUT_KIND = "pkg.torch.export.graph_signature.InputSpec.kind"
OUTPUT_KIND = "pkg.torch.export.graph_signature.OutputSpec.kind"
SUBGRAPH_DOMAIN = "pkg.torch.__subgraph__"
"""The domain of the functions torch.onnx makes of cond branches and loop bodies."""


class GridSample(torch.nn.Module):
    """GridSample-16 is not GridSample-20: torch's 18 -> 20 conversion goes through onnx's
    converter, which drops every metadata_props (our convert_version puts them back)."""

    def __init__(self) -> None:
        super().__init__()
        self.scale = torch.nn.Parameter(torch.tensor(0.5))

    def forward(self, x: Any, grid: Any) -> Any:
        sampled = torch.nn.functional.grid_sample(x, grid, align_corners=False)
        return (sampled * self.scale).relu()


Exported = Callable[[], Any]
"""Makes the ONNXProgram (exported with optimize=False)."""


def _real(name: str) -> Exported:
    def make() -> Any:
        model = suite()[name]
        module = model.module()
        return export(module, model.inputs(0), model.dynamic_shapes(module), optimize=False)

    return make


def _small(name: str) -> Exported:
    def make() -> Any:
        module, args = small_models.suite()[name]
        return export(module, args, optimize=False)

    return make


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
    "llama": _real("llama"),
    "bert": _real("bert"),
    "tv_resnet18": _real("tv_resnet18"),
    "tv_mobilenet_v3_small": _real("tv_mobilenet_v3_small"),
    "cnn": _small("cnn"),
    "attention": _small("attention"),
    "lstm": _small("lstm"),
    "grid_sample": _grid_sample,
    "cond_with_parameters": _control_flow("cond_with_parameters"),
    "cond_returning_a_copy": _control_flow("cond_returning_a_copy"),
    "cond_in_while_loop": _control_flow("cond_in_while_loop"),
    "scan_function": _control_flow("scan_function"),
}


def _nodes(model: ir.Model) -> Iterator[ir.Node]:
    """Every node: main graph, function bodies, subgraphs at any depth."""
    yield from ir.traversal.RecursiveGraphIterator(model.graph)
    for function in model.functions.values():
        yield from ir.traversal.RecursiveGraphIterator(function)


def _has_keys(node: ir.Node) -> bool:
    return all(node.metadata_props.get(key) is not None for key in NODE_KEYS)


def _values(values: Any) -> list[dict[str, str]]:
    return [dict(v.metadata_props) for v in values]


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
@pytest.mark.parametrize("name", sorted(MODELS))
def test_torch_metadata_survives_conversion_and_optimize(name: str) -> None:
    program = MODELS[name]()
    model: ir.Model = program.model
    assert model.opset_imports[""] == 20  # torch converted it from 18

    # As exported and converted: torch's metadata everywhere torch writes it.
    bare = [n for n in _nodes(model) if not _has_keys(n)]
    assert all(n.domain == SUBGRAPH_DOMAIN for n in bare), [n.op_type for n in bare]
    assert all(key in model.graph.metadata_props for key in GRAPH_KEYS)
    assert all(INPUT_KIND in v.metadata_props for v in model.graph.inputs)
    assert all(OUTPUT_KIND in v.metadata_props for v in model.graph.outputs)
    assert all(INPUT_KIND in v.metadata_props for v in model.graph.initializers.values())
    graph_metadata = dict(model.graph.metadata_props)
    inputs, outputs = _values(model.graph.inputs), _values(model.graph.outputs)
    initializers = {k: dict(v.metadata_props) for k, v in model.graph.initializers.items()}
    count_before = sum(1 for _ in _nodes(model))

    program.optimize()
    model = program.model
    nodes = list(_nodes(model))
    assert 0 < len(nodes) <= count_before
    assert [n for n in nodes if not _has_keys(n)] == []
    assert dict(model.graph.metadata_props) == graph_metadata
    assert _values(model.graph.inputs) == inputs
    assert _values(model.graph.outputs) == outputs
    for key, value in model.graph.initializers.items():
        if key in initializers:
            assert dict(value.metadata_props) == initializers[key], key
    if name in ("tv_resnet18", "tv_mobilenet_v3_small", "cnn"):
        # BatchNormalization fused into the Conv before it: the Conv carries the batch
        # norm's fx node first, its new weight and bias say what they came from.
        fused = [
            n
            for n in nodes
            if n.op_type == "Conv" and "batch_norm" in n.metadata_props[NODE_KEYS[3]]
        ]
        assert fused
        for conv in fused:
            assert all(FOLDED_FROM in v.metadata_props for v in conv.inputs[1:] if v), conv

    # What is handed out (and saved) as a proto says the same.
    proto = program.model_proto
    for node in proto.graph.node:
        keys = {entry.key for entry in node.metadata_props}
        assert set(NODE_KEYS) <= keys, node.op_type
    assert {e.key for e in proto.graph.metadata_props} >= set(GRAPH_KEYS)
