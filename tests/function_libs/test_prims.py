"""torch's primitive ops (``prims::``) against ``torch.ops.prims`` itself.

The elementwise prims and ``device_put`` are exported through torch.onnx (static, and with a
dynamic first dim checked at another size). The view prims (``broadcast_in_dim``,
``reshape``, ``squeeze``, ``transpose``, and ``resize``) cannot pass torch.export's
functionalization (their schemas alias the input), so they are traced with the
GraphBuilder on inputs with a symbolic dim and run by onnxruntime, and run eagerly."""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import onnx_ir as ir  # noqa: E402

import onnxscript  # noqa: E402
from onnxscript.evaluator import default_as  # noqa: E402
from onnxscript.function_libs.torch_lib.aten import prims  # noqa: E402
from tests.function_libs import dynamic_export  # noqa: E402

UNARY = {
    "abs": lambda x: x,
    "acos": torch.tanh,
    "acosh": lambda x: x.abs() + 1.0,
    "asin": torch.tanh,
    "asinh": lambda x: x,
    "atan": lambda x: x,
    "atanh": lambda x: torch.tanh(x) * 0.9,
    "ceil": lambda x: x * 3,
    "cos": lambda x: x,
    "cosh": lambda x: x,
    "erf": lambda x: x,
    "exp": lambda x: x,
    "floor": lambda x: x * 3,
    "log": lambda x: x.abs() + 0.1,
    "neg": lambda x: x,
    "round": lambda x: torch.round(x * 4) / 2,  # halves: ties to even
    "sin": lambda x: x,
    "sinh": lambda x: x,
    "sqrt": lambda x: x.abs(),
    "tan": lambda x: x,
    "tanh": lambda x: x,
}
"""Each unary prim and how its input is made from a standard normal sample (its domain)."""

BINARY = ["add", "sub", "mul", "div", "remainder", "pow", "lt", "le", "gt", "ge"]


class _Elementwise(torch.nn.Module):
    """Every elementwise prim (and device_put, where) on inputs of one shape."""

    def forward(self, x: Any, y: Any, i: Any, j: Any) -> tuple[Any, ...]:
        p = torch.ops.prims
        unary = [getattr(p, name)(make(x)) for name, make in UNARY.items()]
        positive = x.abs() + 0.5
        binary = [getattr(p, name)(positive if name == "pow" else x, y) for name in BINARY]
        integer = [p.div(i, j), p.remainder(i, j), p.add(i, j), p.mul(i, j)]
        other = [p.where(p.gt(x, y), x, y), p.device_put(x, torch.device("cpu"))]
        return (*unary, *binary, *integer, *other)


def _inputs(rows: int) -> tuple[Any, ...]:
    generator = torch.Generator().manual_seed(rows)
    shape = (rows, rows + 2)
    x = torch.randn(shape, generator=generator)
    y = torch.randn(shape, generator=generator).abs() + 0.5
    i = torch.randint(-20, 20, shape, generator=generator)
    sign = torch.where(torch.rand(shape, generator=generator) < 0.5, -1, 1)
    j = torch.randint(1, 7, shape, generator=generator) * sign
    return x, y, i, j


OUTPUT_NAMES = [
    *UNARY,
    *BINARY,
    "div (int)",
    "remainder (int)",
    "add (int)",
    "mul (int)",
    "where",
    "device_put",
]


def test_elementwise_prims_exported_with_dynamic_dims() -> None:
    """Checked at the export's size and at another."""
    module = _Elementwise().eval()
    args = _inputs(3)
    spec = tuple({0: torch.export.Dim.DYNAMIC, 1: torch.export.Dim.DYNAMIC} for _ in args)
    program = dynamic_export.export(module, args, dynamic_shapes=spec)
    called = {n.op_type for n in program.model.graph}
    assert {"Round", "Erf", "Acosh", "Mod", "Where"} <= called
    for inputs in (args, _inputs(6)):
        with torch.no_grad():
            expected = [dynamic_export.numpy_of(t) for t in module(*inputs)]
        got = dynamic_export.run_onnx(program.model_proto, inputs)
        assert len(got) == len(OUTPUT_NAMES)
        for name, g, e in zip(OUTPUT_NAMES, got, expected):
            difference = dynamic_export.compare([g], [e])
            assert difference.ok, f"prims::{name}: {difference}"


def _traced(
    build: Callable[[Any, Any], list[Any]], feeds: dict[str, np.ndarray]
) -> list[np.ndarray]:
    """``build(builder, x)`` traced on an input ``x`` of shape ``["N", 3, 4]`` (a symbolic
    batch whose size ``build`` may read as torch's ``sym_size``); the model run on
    ``feeds``."""
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 18}, name="prims")
    builder = onnxscript.GraphBuilder(graph)
    x = builder.input("x", ir.DataType.FLOAT, ["N", 3, 4])
    with default_as(builder):
        for output in build(builder, x):
            builder.add_output(output)
    proto = ir.serde.serialize_model(ir.Model(graph, ir_version=10))
    session = dynamic_export.onnx_session(proto)
    return list(session.run(None, feeds))


def _batch(builder: Any, x: Any) -> Any:
    """Dim 0 of ``x`` as torch.onnx hands a ``SymInt`` over: a rank-0 INT64 value."""
    return builder.op.Squeeze(builder.op.Shape(x, start=0, end=1))


EAGER = SimpleNamespace(op=onnxscript.opset18)
"""Stands for the builder when the calls run eagerly (``b.op`` is opset 18)."""

VIEW_CASES: dict[str, tuple[Callable[..., Any], Callable[..., Any]]] = {
    # name: (our call on (builder, x, n), torch's call on (x, n))
    "transpose": (
        lambda b, x, n: prims.prims_transpose(x, [2, 0, 1]),
        lambda x, n: torch.ops.prims.transpose(x, [2, 0, 1]),
    ),
    "squeeze": (
        lambda b, x, n: prims.prims_squeeze(b.op.Unsqueeze(x, [1, 3]), [1, 3]),
        lambda x, n: torch.ops.prims.squeeze(x[:, None, :, None], [1, 3]),
    ),
    "squeeze none": (
        lambda b, x, n: prims.prims_squeeze(x, []),
        lambda x, n: torch.ops.prims.squeeze(x, []),
    ),
    "reshape": (
        lambda b, x, n: prims.prims_reshape(x, [n, 2, 6]),
        lambda x, n: torch.ops.prims.reshape(x, [n, 2, 6]),
    ),
    "broadcast_in_dim": (
        lambda b, x, n: prims.prims_broadcast_in_dim(
            b.op.Slice(x, [0], [1], [0]), [2, n, 3, 5, 4], [1, 2, 4]
        ),
        lambda x, n: torch.ops.prims.broadcast_in_dim(x[:1], [2, n, 3, 5, 4], [1, 2, 4]),
    ),
    "resize (fewer)": (
        lambda b, x, n: prims.prims_resize(x, [n, 2, 5]),
        lambda x, n: torch.ops.prims.resize(x.clone(), [n, 2, 5]),
    ),
}


@pytest.mark.parametrize("name", list(VIEW_CASES))
def test_view_prims_traced_and_eager(name: str) -> None:
    ours, theirs = VIEW_CASES[name]
    for batch in (2, 5):
        x = np.random.default_rng(batch).standard_normal((batch, 3, 4)).astype(np.float32)
        expected = theirs(torch.from_numpy(x), batch).numpy()
        (got,) = _traced(lambda b, v: [ours(b, v, _batch(b, v))], {"x": x})
        np.testing.assert_array_equal(got, expected)
        eager = ours(EAGER, x, batch)
        np.testing.assert_array_equal(np.asarray(eager), expected)


def test_resize_grows_with_zeros() -> None:
    """torch leaves the new elements uninitialized: the old ones come first, in order."""
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    (got,) = _traced(lambda b, v: [prims.prims_resize(v, [_batch(b, v), 20])], {"x": x})
    expected = torch.ops.prims.resize(torch.from_numpy(x).clone(), [2, 20]).numpy()
    assert got.shape == expected.shape == (2, 20)
    np.testing.assert_array_equal(got.reshape(-1)[:24], expected.reshape(-1)[:24])
    np.testing.assert_array_equal(got.reshape(-1)[24:], 0)
