"""Shape and creation ATen functions with symbolic sizes, bounds, indices and fill values:
each model is exported with every input dim dynamic, run by onnxruntime at the export's
sizes and at two others, and compared with torch; the overload under test must be in the
graph torch translated. A size list mixing numbers and symbolic sizes is one Concat whose
static runs are single constants."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("onnxruntime")

from onnxscript.function_libs.torch_lib.aten import creation, masks, shape  # noqa: E402
from tests.function_libs.dynamic_export import (  # noqa: E402
    Difference,
    all_dynamic,
    check_at,
    compare,
    export,
    flat_tensors,
    numpy_of,
    run_onnx,
)
from tests.function_libs.opinfo_harness import graph_overloads  # noqa: E402

F = torch.nn.functional

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def _randn(*shape: int) -> Any:
    return torch.randn(*shape, generator=torch.Generator().manual_seed(sum(shape)))


@dataclass
class Case:
    """``body`` on one float tensor, exported at the first shape and run at all three;
    ``overload`` is what torch's graph must call."""

    body: Callable[[Any], Any]
    overload: str
    shapes: tuple[tuple[int, ...], ...] = ((4, 10), (6, 12), (3, 8))


def _causal(x: Any) -> Any:
    n = x.shape[1]
    return torch.full((n, n), float("-inf")).triu(1) + x[0, 0]


def _complex(x: Any) -> Any:
    return torch.complex(x, -2 * x)


CASES: dict[str, Case] = {
    # view / reshape / expand
    "view": Case(lambda x: x.view(x.shape[0], 2, -1), "aten::view"),
    "view_mixed": Case(lambda x: x.reshape(1, x.shape[0], 1, x.shape[1]), "aten::view"),
    "unsafe_view": Case(
        lambda x: torch.ops.aten._unsafe_view(x * 1, [x.shape[1], x.shape[0]]), "aten::_unsafe_view"
    ),
    "expand": Case(lambda x: x[:, :1].expand(-1, x.shape[1] * 2), "aten::expand"),
    "expand_new_dim": Case(lambda x: x[:, None, :].expand(-1, x.shape[0], -1), "aten::expand"),
    # full / zeros / ones and their forms
    "full_symint": Case(lambda x: torch.full((x.shape[0], 2), x.shape[1]), "aten::full"),
    "full_symfloat": Case(lambda x: torch.full(x.shape, x.shape[1] / 4), "aten::full"),
    "full_int_fill": Case(lambda x: torch.full((x.shape[0],), 7), "aten::full"),
    "full_bool": Case(lambda x: torch.full((x.shape[0], 2), True), "aten::full"),
    "full_like_symbolic": Case(lambda x: torch.full_like(x, x.shape[0] * 0.5), "aten::full_like"),
    "zeros_like_dtype": Case(lambda x: torch.zeros_like(x, dtype=torch.int64), "aten::zeros_like"),
    "ones_like": Case(lambda x: torch.ones_like(x) + x, "aten::ones_like"),
    "empty_like": Case(lambda x: torch.empty_like(x).fill_(1.5), "aten::empty_like"),
    "zeros": Case(lambda x: torch.zeros(x.shape[0], 3, x.shape[1] + 1), "aten::zeros"),
    "ones_int": Case(lambda x: torch.ones(x.shape[1], dtype=torch.int64), "aten::ones"),
    "new_zeros": Case(lambda x: x.new_zeros(x.shape[1], 3), "aten::new_zeros"),
    "new_ones": Case(lambda x: x.new_ones((x.shape[1], x.shape[0])), "aten::new_ones"),
    "new_full": Case(lambda x: x.new_full((x.shape[1], 2), x.shape[0]), "aten::new_full"),
    "new_full_dtype": Case(
        lambda x: x.new_full((x.shape[0],), 3, dtype=torch.int32), "aten::new_full"
    ),
    "new_empty": Case(lambda x: x.new_empty((x.shape[1], 2)).fill_(2.0), "aten::new_empty"),
    "new_empty_strided": Case(
        lambda x: torch.ops.aten.new_empty_strided(x, [x.shape[0], 2], [2, 1]).fill_(1.0),
        "aten::new_empty_strided",
    ),
    "empty": Case(
        lambda x: torch.empty(x.shape[0], x.shape[1]).fill_(1.0), "aten::empty.memory_format"
    ),
    "empty_strided": Case(
        lambda x: torch.empty_strided((x.shape[0], 2), (2, 1)).fill_(1.0), "aten::empty_strided"
    ),
    "fill_tensor": Case(lambda x: x.clone().fill_(x[0, 0]), "aten::fill.Tensor"),
    "scalar_tensor": Case(lambda x: x * torch.scalar_tensor(x.shape[0]), "aten::scalar_tensor"),
    "linspace": Case(lambda x: torch.linspace(0, x.shape[1], 5) * x[0, 0], "aten::linspace"),
    "linspace_bounds": Case(lambda x: torch.linspace(x.shape[0], x.shape[1], 7), "aten::linspace"),
    "linspace_int": Case(
        lambda x: torch.linspace(-1, x.shape[1], 6, dtype=torch.int64), "aten::linspace"
    ),
    # random tensors: their values are compared through tests that always hold
    "rand": Case(lambda x: (torch.rand(x.shape[0], x.shape[1]) < 1).float() * x, "aten::rand"),
    "randn": Case(
        lambda x: (torch.randn(x.shape[1], x.shape[0]).abs() >= 0).float() * x.t(), "aten::randn"
    ),
    "randperm": Case(
        lambda x: torch.randperm(x.shape[1]).sort().values * x[0, 0], "aten::randperm"
    ),
    # slice / select / split
    "slice": Case(lambda x: x[:, 1 : x.shape[1] - 1], "aten::slice.Tensor"),
    "slice_from_symbolic": Case(lambda x: x[:, x.shape[1] // 2 :], "aten::slice.Tensor"),
    "select": Case(lambda x: x[:, x.shape[1] - 2], "aten::select.int"),
    "split_with_sizes": Case(
        lambda x: torch.split_with_sizes(x, [2, x.shape[1] - 3, 1], 1), "aten::split_with_sizes"
    ),
    "split_dynamic_dim": Case(  # four parts at each size
        lambda x: x.split(3, 1), "aten::split.Tensor", ((4, 10), (6, 11), (3, 12))
    ),
    "chunk_dynamic_dim": Case(lambda x: x.chunk(3, 1), "aten::split.Tensor"),
    "unbind": Case(lambda x: x.reshape(x.shape[0], 2, -1).unbind(1), "aten::unbind.int"),
    "stack": Case(lambda x: torch.stack([x, x * 2], 1), "aten::stack"),
    "stack_last": Case(lambda x: torch.stack([x, x + 1, x * 2], -1), "aten::stack"),
    # repeat / tile
    "repeat": Case(lambda x: x.repeat(x.shape[0], 1), "aten::repeat"),
    "tile": Case(lambda x: x.tile((2,)), "aten::tile"),
    "tile_more_dims": Case(lambda x: x.tile((2, 1, 3)), "aten::tile"),
    # padding
    "constant_pad_nd": Case(
        lambda x: torch.constant_pad_nd(x, [0, x.shape[0]], x.shape[1] * 0.5),
        "aten::constant_pad_nd",
    ),
    "pad_constant": Case(lambda x: F.pad(x, (1, 2, x.shape[0], 0), value=2.5), "aten::pad"),
    "pad_constant_crop": Case(lambda x: F.pad(x, (-1, 2)), "aten::pad"),
    "pad_reflect": Case(lambda x: F.pad(x[None], (1, 2), mode="reflect"), "aten::pad"),
    "pad_reflect_symbolic": Case(
        lambda x: F.pad(x[None], (1, x.shape[0] - 1), mode="reflect"), "aten::pad"
    ),
    "pad_replicate": Case(lambda x: F.pad(x[None], (3, 1), mode="replicate"), "aten::pad"),
    "pad_replicate_symbolic": Case(
        lambda x: F.pad(x[None], (x.shape[0], -1), mode="replicate"), "aten::pad"
    ),
    "pad_circular": Case(lambda x: F.pad(x[None], (1, 2), mode="circular"), "aten::pad"),
    "pad_circular_symbolic": Case(
        lambda x: F.pad(x[None], (x.shape[0] - 1, 2), mode="circular"), "aten::pad"
    ),
    "pad_circular_crop": Case(lambda x: F.pad(x[None], (-1, 2)), "aten::pad"),
    # triangular masks
    "triu_causal": Case(_causal, "aten::triu"),
    "tril_bool_mask": Case(
        lambda x: torch.ones(x.shape[1], x.shape[1], dtype=torch.bool).tril(), "aten::tril"
    ),
    "triu_symbolic_diagonal": Case(lambda x: x.triu(x.shape[1] - x.shape[0]), "aten::triu"),
    "tril_int8": Case(lambda x: (x * 10).to(torch.int8).tril(-1), "aten::tril"),
    # scatter, windows, diagonals, strides
    "select_scatter": Case(
        lambda x: torch.select_scatter(x, x[:, 0] * 0, 1, x.shape[1] - 1), "aten::select_scatter"
    ),
    "slice_scatter": Case(
        lambda x: torch.slice_scatter(x, x[:, : x.shape[1] // 2] * 0, 1, 0, x.shape[1] // 2),
        "aten::slice_scatter",
    ),
    "unfold": Case(lambda x: x.unfold(1, 2, 1), "aten::unfold"),
    "unfold_step": Case(lambda x: x.unfold(1, 3, 2), "aten::unfold"),
    "diagonal": Case(lambda x: x.diagonal(), "aten::diagonal"),
    "diagonal_offset": Case(lambda x: x.diagonal(2) + 0, "aten::diagonal"),
    "diagonal_negative": Case(lambda x: torch.diagonal(x[None], -1, 1, 2), "aten::diagonal"),
    "as_strided": Case(
        lambda x: x.contiguous().as_strided((x.shape[0], 2), (x.shape[1], 1)), "aten::as_strided"
    ),
    # complex tensors (their complex variants)
    "complex_stack": Case(
        lambda x: torch.view_as_real(torch.stack([_complex(x), _complex(x)], 0)), "aten::stack"
    ),
    "complex_tile": Case(lambda x: torch.view_as_real(_complex(x).tile((2,))), "aten::tile"),
    "complex_pad": Case(
        lambda x: torch.view_as_real(F.pad(_complex(x), (1, x.shape[0]))), "aten::pad"
    ),
    "complex_triu": Case(lambda x: torch.view_as_real(_complex(x).triu(1)), "aten::triu"),
    "complex_unbind": Case(
        lambda x: [torch.view_as_real(t) for t in _complex(x)[:, :2].unbind(1)],
        "aten::unbind.int",
    ),
    "complex_new_zeros": Case(
        lambda x: torch.view_as_real(_complex(x).new_zeros(x.shape[1])), "aten::new_zeros"
    ),
}


class _Body(torch.nn.Module):
    def __init__(self, body: Callable[[Any], Any]) -> None:
        super().__init__()
        self.body = body

    def forward(self, x: Any) -> Any:
        return self.body(x)


@pytest.mark.parametrize("name", sorted(CASES))
def test_symbolic_sizes_export_and_run_at_other_sizes(name: str):
    case = CASES[name]
    module = _Body(case.body)
    inputs = [(_randn(*shape),) for shape in case.shapes]
    program = export(module, inputs[0], all_dynamic(inputs[0]))
    assert case.overload in graph_overloads(program.exported_program.graph)
    differences = check_at(program, module, inputs)
    assert all(d.ok for d in differences), differences


# torch.export decomposes the composite operators that return views (narrow, flatten,
# chunk, expand_as, ...) before torch.onnx translates a graph, so torch.onnx.export never
# calls their library functions. These are run on torch.export's captured graph instead,
# translated by torch.onnx's own function without the decomposition step.
CAPTURED: dict[str, Case] = {
    "narrow": Case(lambda x: x.narrow(1, x.shape[1] // 2, 2), "aten::narrow"),
    "narrow_symbolic_length": Case(lambda x: x.narrow(1, 1, x.shape[1] - 2), "aten::narrow"),
    "narrow_negative_start": Case(lambda x: x.narrow(1, -3, 2), "aten::narrow"),
    "flatten": Case(lambda x: x[None, :, None].flatten(1, 2), "aten::flatten.using_ints"),
    "flatten_all": Case(lambda x: x.flatten(), "aten::flatten.using_ints"),
    "unflatten": Case(lambda x: x.unflatten(1, (2, -1)), "aten::unflatten.int"),
    "unflatten_symbolic": Case(
        lambda x: x.unflatten(0, (x.shape[0] // 2, 2)),
        "aten::unflatten.int",
        ((4, 10), (6, 12), (2, 8)),
    ),
    "chunk": Case(lambda x: x.chunk(3, 1), "aten::chunk"),
    "chunk_fewer_parts": Case(lambda x: x.chunk(4, 0), "aten::chunk", ((6, 4), (5, 4), (9, 4))),
    "split_sizes": Case(
        lambda x: torch.ops.aten.split.sizes(x, [2, x.shape[1] - 2], 1), "aten::split.sizes"
    ),
    "broadcast_to": Case(lambda x: x[:1].broadcast_to(x.shape[0], -1), "aten::broadcast_to"),
    "expand_as": Case(lambda x: x[:, :1].expand_as(x), "aten::expand_as"),
    "view_as": Case(lambda x: x.t().reshape(-1).view_as(x), "aten::view_as"),
    "contiguous": Case(lambda x: x.t().contiguous(), "aten::contiguous"),
    "complex_narrow": Case(
        lambda x: torch.view_as_real(_complex(x).narrow(1, 1, x.shape[1] - 2)), "aten::narrow"
    ),
    "complex_flatten": Case(
        lambda x: torch.view_as_real(_complex(x).flatten()), "aten::flatten.using_ints"
    ),
    "complex_chunk": Case(
        lambda x: [torch.view_as_real(t) for t in _complex(x).chunk(2, 1)], "aten::chunk"
    ),
}


def _translate_captured(module: Any, args: tuple[Any, ...]) -> tuple[Any, Any]:
    """torch.export's graph (composite operators kept) translated by torch.onnx with our
    library: the graph and the ONNX model."""
    from torch.onnx._internal.exporter import _core, _fx_passes, _registration

    exported = torch.export.export(module, args, dynamic_shapes=all_dynamic(args))
    graph_module = _fx_passes.remove_assertion_nodes(exported.graph_module)
    _fx_passes.insert_type_promotion_nodes(graph_module)
    exported._graph_module = graph_module
    registry = _registration.ONNXRegistry.from_torchlib()
    logging.disable(logging.WARNING)
    try:
        program = _core._exported_program_to_onnx_program(
            exported, registry=registry, lower="at_conversion"
        )
    finally:
        logging.disable(logging.NOTSET)
    return exported.graph, program.model_proto


@pytest.mark.parametrize("name", sorted(CAPTURED))
def test_composite_views_on_the_captured_graph(name: str):
    case = CAPTURED[name]
    module = _Body(case.body)
    inputs = [(_randn(*shape),) for shape in case.shapes]
    graph, model = _translate_captured(module, inputs[0])
    assert case.overload in graph_overloads(graph)
    differences: list[Difference] = []
    for args in inputs:
        with torch.no_grad():
            expected = [numpy_of(t) for t in flat_tensors(module(*args))]
        differences.append(compare(run_onnx(model, args), expected))
    assert all(d.ok for d in differences), differences


def _producer(graph: Any, value: Any) -> Any:
    producer = value.producer()
    assert producer is not None and producer.graph is graph
    return producer


def _constant_values(node: Any) -> list[int]:
    assert node.op_type == "Constant"
    return [int(v) for v in np.asarray(node.attributes["value"].value.numpy()).ravel()]


@pytest.mark.parametrize(
    ("body", "consumer", "runs", "symbolic"),
    [
        (lambda x: x.reshape(1, 1, x.shape[0], 1, 1, x.shape[1]), "Reshape", [[1, 1], [1, 1]], 2),
        (lambda x: torch.zeros(2, 3, x.shape[0], 4, 5), "ConstantOfShape", [[2, 3], [4, 5]], 1),
        (lambda x: x[None, :, None, :1].expand(3, -1, 2, x.shape[1] * 2), "Expand", [[3, 1, 2]], 1),
    ],
)
def test_mixed_size_list_is_one_concat_of_constant_runs(
    body: Callable[[Any], Any], consumer: str, runs: list[list[int]], symbolic: int
):
    x = _randn(4, 10)
    program = export(_Body(body), (x,), all_dynamic((x,)), optimize=False)
    graph = program.model.graph
    concats = [n for n in graph if n.op_type == "Concat"]
    assert len(concats) == 1, [n.op_type for n in graph]
    (concat,) = concats
    assert [use.node.op_type for use in concat.outputs[0].uses()] == [consumer]
    kinds = [_producer(graph, v).op_type for v in concat.inputs]
    # A symbolic size is its one-dim Shape slice (a sym_size.int), or a 1-D Reshape of it.
    assert kinds.count("Constant") == len(runs)
    assert len(kinds) - len(runs) == symbolic
    assert all(k in ("Constant", "Shape", "Reshape") for k in kinds), kinds
    assert not any(a == b == "Constant" for a, b in itertools.pairwise(kinds))
    pieces = [_producer(graph, v) for v in concat.inputs]
    assert [_constant_values(p) for p in pieces if p.op_type == "Constant"] == runs


def _sizes() -> tuple[Any, Any]:
    """Eager mode's symbolic sizes: rank-0 INT64 arrays (3 and 4)."""
    return np.array(3, dtype=np.int64), np.array(4, dtype=np.int64)


EAGER: dict[str, tuple[Callable[[Any, Any, Any], Any], Callable[[Any, int, int], Any]]] = {
    "zeros": (lambda x, n, m: creation.zeros([2, n, m]), lambda x, n, m: torch.zeros(2, n, m)),
    "full": (lambda x, n, m: creation.full([n, 1], m), lambda x, n, m: torch.full((n, 1), m)),
    "new_full": (
        lambda x, n, m: creation.new_full(x, [m], 2.5),
        lambda x, n, m: x.new_full((m,), 2.5),
    ),
    "linspace": (
        lambda x, n, m: creation.linspace(n, m, 5),
        lambda x, n, m: torch.linspace(n, m, 5),
    ),
    "view": (lambda x, n, m: shape.view(x, [n, 2, -1]), lambda x, n, m: x.view(n, 2, -1)),
    "expand": (
        lambda x, n, m: shape.expand(x[:1], [n, -1]),
        lambda x, n, m: x[:1].expand(n, -1),
    ),
    "slice": (
        lambda x, n, m: shape.slice_(x, 1, 1, m - 1),
        lambda x, n, m: x[:, 1 : m - 1],
    ),
    "narrow": (lambda x, n, m: shape.narrow(x, 1, n - 5, 2), lambda x, n, m: x.narrow(1, n - 5, 2)),
    "split_with_sizes": (
        lambda x, n, m: shape.split_with_sizes(x, [1, n], 1),
        lambda x, n, m: x.split_with_sizes([1, n], 1),
    ),
    "pad_reflect": (
        lambda x, n, m: shape.pad(x[None], [n - 1, 1], "reflect"),
        lambda x, n, m: F.pad(x[None], (n - 1, 1), mode="reflect"),
    ),
    "pad_circular": (
        lambda x, n, m: shape.pad(x[None], [n - 1, -1], "circular"),
        lambda x, n, m: F.pad(x[None], (n - 1, -1), mode="circular"),
    ),
    "triu": (lambda x, n, m: masks.triu(x, m - n), lambda x, n, m: x.triu(m - n)),
    "unfold": (lambda x, n, m: shape.unfold(x, 1, 2, 1), lambda x, n, m: x.unfold(1, 2, 1)),
    "as_strided": (
        lambda x, n, m: shape.as_strided(x, [n, 2], [m, 1], 1),
        lambda x, n, m: x.as_strided((n, 2), (m, 1), 1),
    ),
}


@pytest.mark.parametrize("name", sorted(EAGER))
def test_eager_mode_takes_symbolic_sizes_as_arrays(name: str):
    ours, theirs = EAGER[name]
    x = _randn(3, 4)
    n, m = _sizes()
    got = ours(x.numpy(), n, m)
    expected = [numpy_of(t) for t in flat_tensors(theirs(x, int(n), int(m)))]
    assert compare([np.asarray(g) for g in (got if isinstance(got, list) else [got])], expected).ok
