"""Data-dependent control flow through ``torch.onnx.export(dynamo=True)``: torch.cond
(on data, on a symbolic size, nested, with operands and parameters), while_loop and scan.
torch.onnx puts the branch and loop bodies in model-local functions that the If, Loop and
Scan subgraphs call; the models must be checker-clean, keep (or inline) those functions,
and compute what torch does on both branches and at other sizes than the export's, with
``optimize`` on and off."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from onnx import helper

torch = pytest.importorskip("torch")

from torch._higher_order_ops import scan, while_loop  # noqa: E402

from onnxscript._framework_apis import torch_2_11  # noqa: E402
from tests.function_libs.dynamic_export import all_dynamic, check_at, export  # noqa: E402
from tests.helpers import run_unoptimized  # noqa: E402


class CondOnData(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        return torch.cond(x.sum() > 0, lambda x: x.sin(), lambda x: x.cos(), (x,))


class CondOnSize(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        return torch.cond(x.shape[0] > 4, lambda x: x * 2, lambda x: x - 1, (x,))


class NestedCond(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        def positive(x: Any) -> Any:
            return torch.cond(x.mean() > 0.5, lambda y: y * 2, lambda y: y + 1, (x,))

        return torch.cond(x.sum() > 0, positive, lambda x: x.cos(), (x,))


class CondWithParameters(torch.nn.Module):
    """Branches over two operands that close over a Linear and a buffer."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = torch.nn.Linear(3, 3)
        self.register_buffer("offset", torch.tensor([1.0, -2.0, 0.5]))

    def forward(self, x: Any, y: Any) -> Any:
        def larger(x: Any, y: Any) -> Any:
            return self.linear(x) + self.offset + y

        def smaller(x: Any, y: Any) -> Any:
            return x * self.offset - y

        return torch.cond(x.sum() > y.sum(), larger, smaller, (x, y))


class CondReturningACopy(torch.nn.Module):
    """A branch that returns (a copy of) its operand, a computed value that is also an
    output: the branch must still compute its output itself."""

    def forward(self, x: Any) -> Any:
        y = x * 2
        return torch.cond(y.sum() > 0, lambda y: y.clone(), lambda y: y + 1, (y,)), y


class CondWithTwoOutputs(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        return torch.cond(
            x.sum() > 0, lambda x: (x.sin(), x.sum()), lambda x: (x.cos(), x.mean()), (x,)
        )


class WhileCounting(torch.nn.Module):
    """A counter and an accumulator carried."""

    def forward(self, x: Any) -> Any:
        def more(i: Any, total: Any) -> Any:
            return i < 3

        def step(i: Any, total: Any) -> Any:
            return i + 1, total + x * i

        return while_loop(more, step, (torch.tensor(0), torch.zeros_like(x)))


class WhileOnData(torch.nn.Module):
    """As many rounds as the data asks."""

    def forward(self, x: Any) -> Any:
        def more(i: Any, total: Any) -> Any:
            return total.sum() < 10

        def step(i: Any, total: Any) -> Any:
            return i + 1, total + x.abs() + 0.5

        return while_loop(more, step, (torch.tensor(0), torch.zeros_like(x)))


class CondInWhile(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        def more(i: Any, total: Any) -> Any:
            return i < 4

        def step(i: Any, total: Any) -> Any:
            updated = torch.cond(
                total.sum() > 1, lambda t: t - 0.5, lambda t: t + x.abs(), (total,)
            )
            return i + 1, updated

        return while_loop(more, step, (torch.tensor(0), torch.zeros_like(x)))


class ScanOperator(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        def combine(carry: Any, item: Any) -> Any:
            total = carry + item
            return total, total * 2

        init = [torch.zeros_like(x[0])]
        return torch.ops.higher_order.scan(combine, init, [x], additional_inputs=[])


class ScanFunction(torch.nn.Module):
    def forward(self, x: Any) -> Any:
        def combine(carry: Any, item: Any) -> Any:
            total = carry * 0.5 + item
            return total, total.sin()

        return scan(combine, torch.zeros_like(x[0]), x)


@dataclass
class Case:
    """A module, the arguments it is exported with, other arguments it must match torch
    at (other sizes, the other branch), and the op the control flow becomes."""

    module: Callable[[], Any]
    args: Callable[[], tuple[Any, ...]]
    others: Callable[[], list[tuple[Any, ...]]]
    op: str
    dynamic: Callable[[tuple[Any, ...]], Any] = all_dynamic


def _rows_dynamic(args: tuple[Any, ...]) -> Any:
    return tuple({0: torch.export.Dim.DYNAMIC} for _ in args)


def _positive(*shape: int) -> Any:
    return torch.rand(*shape) + 0.1


def _negative(*shape: int) -> Any:
    return -torch.rand(*shape) - 0.1


CASES = {
    "cond_on_data": Case(
        CondOnData,
        lambda: (torch.randn(4, 3),),
        lambda: [(_positive(6, 3),), (_negative(2, 5),)],
        "If",
    ),
    "cond_on_symbolic_size": Case(
        CondOnSize,
        lambda: (torch.randn(6, 3),),
        lambda: [(torch.randn(8, 2),), (torch.randn(3, 3),)],
        "If",
    ),
    "nested_cond": Case(
        NestedCond,
        lambda: (torch.randn(4, 3),),
        lambda: [(_positive(6, 3) + 0.5,), (_positive(5, 3) * 0.1,), (_negative(2, 3),)],
        "If",
    ),
    "cond_with_parameters": Case(
        CondWithParameters,
        lambda: (torch.randn(4, 3), torch.randn(4, 3)),
        lambda: [(_positive(6, 3), _negative(6, 3)), (_negative(2, 3), _positive(2, 3))],
        "If",
        _rows_dynamic,
    ),
    "cond_returning_a_copy": Case(
        CondReturningACopy,
        lambda: (torch.randn(4, 3),),
        lambda: [(_positive(6, 3),), (_negative(2, 5),)],
        "If",
    ),
    "cond_with_two_outputs": Case(
        CondWithTwoOutputs,
        lambda: (torch.randn(4, 3),),
        lambda: [(_positive(6, 3),), (_negative(2, 5),)],
        "If",
    ),
    "while_loop_counting": Case(
        WhileCounting,
        lambda: (torch.randn(4, 3),),
        lambda: [(torch.randn(6, 3),), (torch.randn(2, 5),)],
        "Loop",
    ),
    "while_loop_on_data": Case(
        WhileOnData,
        lambda: (torch.randn(4, 3),),
        lambda: [(torch.randn(6, 3),), (torch.randn(2, 5) * 3,)],
        "Loop",
    ),
    "cond_in_while_loop": Case(
        CondInWhile,
        lambda: (torch.randn(4, 3),),
        lambda: [(_positive(6, 3),), (_negative(2, 3) * 0.01,)],
        "Loop",
    ),
    "scan_operator": Case(
        ScanOperator,
        lambda: (torch.randn(4, 3),),
        lambda: [(torch.randn(6, 3),), (torch.randn(2, 5),)],
        "Scan",
    ),
    "scan_function": Case(
        ScanFunction,
        lambda: (torch.randn(4, 3),),
        lambda: [(torch.randn(6, 3),), (torch.randn(2, 5),)],
        "Scan",
    ),
}


def _all_nodes(model: onnx.ModelProto) -> list[onnx.NodeProto]:
    found: list[onnx.NodeProto] = []

    def visit(nodes: Any) -> None:
        for node in nodes:
            found.append(node)
            for attr in node.attribute:
                for graph in [attr.g] if attr.HasField("g") else list(attr.graphs):
                    visit(graph.node)

    visit(model.graph.node)
    for function in model.functions:
        visit(function.node)
    return found


def _assert_calls_resolve(model: onnx.ModelProto) -> None:
    """Every call of a model-local function (in subgraphs and function bodies too) has
    its function in the model."""
    defined = {(f.domain, f.name) for f in model.functions}
    local_domains = {domain for domain, _ in defined} | {"pkg.torch.__subgraph__"}
    calls = {(n.domain, n.op_type) for n in _all_nodes(model) if n.domain in local_domains}
    assert calls <= defined, f"calls without a function: {sorted(calls - defined)}"


@pytest.mark.parametrize("optimize", [True, False], ids=["optimized", "unoptimized"])
@pytest.mark.parametrize("name", CASES)
def test_control_flow_exports_and_matches_torch(name: str, optimize: bool) -> None:
    torch.manual_seed(0)
    case = CASES[name]
    module, args = case.module().eval(), case.args()
    program = export(module, args, case.dynamic(args), optimize=optimize)
    model = program.model_proto
    onnx.checker.check_model(model, full_check=True)
    _assert_calls_resolve(model)
    assert case.op in {n.op_type for n in _all_nodes(model)}
    if optimize:
        assert not model.functions
    differences = check_at(program, module, [args, *case.others()])
    assert all(d.ok for d in differences), differences


# -- convert_version with model-local functions ---------------------------------------------


def _model_with_functions(opset: int) -> ir.Model:
    """``y = If(sum(x) > 0, then: local.wave(x), else: local.total(x, axes))``: ``wave``
    is a Sin (unchanged since opset 7), ``total`` a ReduceSum written for ``opset`` (axes
    an attribute before 13, an input since)."""
    imports = [helper.make_opsetid("", opset), helper.make_opsetid("local", 1)]
    float_ = onnx.TensorProto.FLOAT
    if opset < 13:
        reduce = helper.make_node("ReduceSum", ["v"], ["w"], axes=[0], keepdims=1)
    else:
        reduce = helper.make_node("ReduceSum", ["v", "a"], ["w"], keepdims=1)
    total = helper.make_function("local", "total", ["v", "a"], ["w"], [reduce], imports)
    sine = helper.make_node("Sin", ["v"], ["w"])
    wave = helper.make_function("local", "wave", ["v"], ["w"], [sine], imports)

    def branch(name: str, call: onnx.NodeProto) -> onnx.GraphProto:
        outputs = [helper.make_tensor_value_info(name, float_, None)]
        return helper.make_graph([call], name, [], outputs)

    then = branch("waved", helper.make_node("wave", ["x"], ["waved"], domain="local"))
    other = branch("summed", helper.make_node("total", ["x", "axes"], ["summed"], domain="local"))
    nodes = [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        helper.make_node("Greater", ["s", "zero"], ["c"]),
        helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other),
    ]
    graph = helper.make_graph(
        nodes,
        "main",
        [helper.make_tensor_value_info("x", float_, [3])],
        [helper.make_tensor_value_info("y", float_, ["n"])],
        [
            helper.make_tensor("zero", float_, [], [0.0]),
            helper.make_tensor("axes", onnx.TensorProto.INT64, [1], [0]),
        ],
    )
    proto = helper.make_model(graph, opset_imports=imports, functions=[total, wave])
    proto.ir_version = 8
    onnx.checker.check_model(proto, full_check=True)
    return ir.serde.deserialize_model(proto)


@pytest.mark.parametrize("source", [12, 18])
def test_convert_version_converts_model_local_functions_in_place(source: int) -> None:
    """convert_version converts the model-local functions themselves (onnx's version
    converter dropped them, so they used to be inlined): every call in the If branches
    still finds its function, and ``total``'s ReduceSum takes its axes as an input."""
    model = _model_with_functions(source)
    before = ir.serde.serialize_model(model)
    converted = ir.serde.serialize_model(torch_2_11.convert_version(model, 20))
    onnx.checker.check_model(converted, full_check=True)
    _assert_calls_resolve(converted)
    assert {o.domain: o.version for o in converted.opset_import}[""] == 20
    kept = {f.name for f in converted.functions}
    assert kept == {"wave", "total"}
    (total,) = [f for f in converted.functions if f.name == "total"]
    assert [n.op_type for n in total.node] == (
        ["Constant", "ReduceSum"] if source < 13 else ["ReduceSum"]
    )
    assert all({o.domain: o.version for o in f.opset_import}[""] == 20 for f in converted.functions)
    for x in ([1.0, 2.0, 0.5], [-1.0, -3.0, 0.5]):
        feeds = {"x": np.array(x, np.float32)}
        np.testing.assert_allclose(
            run_unoptimized(converted, feeds)[0], run_unoptimized(before, feeds)[0], rtol=1e-6
        )
