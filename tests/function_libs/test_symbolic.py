"""Arithmetic on symbolic sizes (``_operator::*``, ``math::*``): eagerly against Python's
own operators on ints, floats and bools (negative operands included), and in models
exported with dynamic shapes, run at other sizes than the export's."""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from onnxscript.function_libs.torch_lib.aten import symbolic

BINARY: dict[str, tuple[Callable[..., Any], Any]] = {
    "add": (operator.add, symbolic.sym_add),
    "sub": (operator.sub, symbolic.sym_sub),
    "mul": (operator.mul, symbolic.sym_mul),
    "truediv": (operator.truediv, symbolic.sym_truediv),
    "floordiv": (operator.floordiv, symbolic.sym_floordiv),
    "mod": (operator.mod, symbolic.sym_mod),
    "pow": (operator.pow, symbolic.sym_pow),
    "eq": (operator.eq, symbolic.sym_eq),
    "ne": (operator.ne, symbolic.sym_ne),
    "lt": (operator.lt, symbolic.sym_lt),
    "le": (operator.le, symbolic.sym_le),
    "gt": (operator.gt, symbolic.sym_gt),
    "ge": (operator.ge, symbolic.sym_ge),
}
OPERANDS = [7, -7, 2, -3, 2.5, -0.5, True]


def _array(value: Any) -> np.ndarray:
    """A symbolic size as eager mode holds it: a rank-0 array of torch's type for it."""
    if isinstance(value, bool):
        return np.array(value)
    return np.array(value, dtype=np.int64 if isinstance(value, int) else np.float32)


def _same(got: Any, expected: Any) -> bool:
    got = np.asarray(got)
    if isinstance(expected, bool):
        return got.dtype == np.bool_ and bool(got) == expected
    if isinstance(expected, int):
        return got.dtype == np.int64 and int(got) == expected
    return got.dtype == np.float32 and math.isclose(float(got), expected, rel_tol=1e-6)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_operators_match_python(name: str):
    python, ours = BINARY[name]
    wrong = []
    for a, b in itertools.product(OPERANDS, repeat=2):
        if name in ("truediv", "floordiv", "mod") and b == 0:
            continue
        if name == "pow" and (isinstance(b, bool) or (isinstance(b, int) and b < 0) or a < 0):
            continue  # int ** negative int is a float in Python; sizes are never that
        expected = python(a, b)  # truediv of ints is a float, as torch's SymFloat
        for left, right in ((_array(a), b), (a, _array(b)), (_array(a), _array(b))):
            got = ours(left, right)
            if not _same(got, expected):
                wrong.append((a, b, type(left).__name__, type(right).__name__, got, expected))
    assert not wrong, wrong[:5]


@pytest.mark.parametrize(
    ("python", "ours"),
    [
        (operator.neg, symbolic.sym_neg),
        (operator.abs, symbolic.sym_abs),
        (math.ceil, symbolic.sym_ceil),
        (math.floor, symbolic.sym_floor),
        (math.trunc, symbolic.sym_trunc),
    ],
)
def test_unary_functions_match_python(python: Callable[[Any], Any], ours: Any):
    for value in (7, -7, 0, 2.5, -2.5, -0.5, 3.0):
        expected = python(value)
        got = ours(_array(value))
        assert _same(got, expected), (value, got, expected)


@pytest.mark.parametrize(("a", "b"), [(13, 2), (-13, 2), (1, 0), (-1, 3), (5, 60)])
def test_shifts_match_python(a: int, b: int):
    assert _same(symbolic.sym_lshift(_array(a), _array(b)), a << b)
    assert _same(symbolic.sym_rshift(_array(a), _array(b)), a >> b)


@pytest.mark.parametrize(("a", "b"), [(True, False), (True, True), (6, 3), (-4, 5)])
def test_logical_and_bitwise(a: Any, b: Any):
    assert _same(symbolic.sym_and(_array(a), _array(b)), a & b)
    assert _same(symbolic.sym_or(_array(a), _array(b)), a | b)


def test_getitem_of_a_shape():
    shape = np.array([4, 5, 6], dtype=np.int64)
    assert _same(symbolic.sym_getitem(shape, 1), 5)
    assert _same(symbolic.sym_getitem(shape, -1), 6)


torch = pytest.importorskip("torch")

# Modules whose exported graphs do size arithmetic (each name says which operator torch
# records); x is [batch, length], both dynamic.
SIZE_ARITHMETIC: dict[str, Callable[[Any], Any]] = {
    "mul": lambda x: x.reshape(x.shape[0] * x.shape[1]),
    "floordiv": lambda x: x[:, : x.shape[1] // 2],
    "truediv_ceil": lambda x: x[:, : math.ceil(x.shape[1] / 3)],
    "truediv_floor": lambda x: x[:, : math.floor(x.shape[1] / 3)],
    "truediv_trunc": lambda x: x[:, : math.trunc(x.shape[1] / 3)],
    "mod_add": lambda x: x[:, : x.shape[1] % 3 + 1],
    "sub_arange": lambda x: torch.arange(x.shape[1] - 1) * x[0, 0],
    "neg": lambda x: x[:, -x.shape[1] + 1 :],
    "pow": lambda x: torch.zeros(x.shape[0] ** 2),
    "float_mul": lambda x: x * (x.shape[1] * 0.5),
    "gt": lambda x: x * (x.shape[1] > 3),
    "eq": lambda x: x * (x.shape[1] == x.shape[0]),
    "lshift": lambda x: torch.zeros(x.shape[0] << 1),
    "rshift": lambda x: torch.zeros(x.shape[1] >> 1),
    "abs_sub": lambda x: torch.zeros(abs(x.shape[0] - x.shape[1])),
    "and_gt": lambda x: x * ((x.shape[1] > 3) & (x.shape[0] > 1)),
}


def _n(x: Any) -> Any:
    return x.shape[1]


# Scalar arguments that are symbolic sizes, next to FLOAT (or INT64) tensors: each reaches an
# ATen overload with a rank-0 INT64 value where a number usually stands.
SYMBOLIC_SCALARS: dict[str, Callable[[Any], Any]] = {
    "add": lambda x: x + _n(x),
    "rsub": lambda x: _n(x) - x,
    "mul": lambda x: x * _n(x),
    "div": lambda x: x / _n(x),
    "pow": lambda x: x ** (_n(x) % 3),
    "int_floor_divide": lambda x: (x * 10).long() // _n(x),
    "remainder": lambda x: torch.remainder(x * 10, _n(x)),
    "clamp": lambda x: torch.clamp(x * 10, min=-_n(x), max=_n(x)),
    "masked_fill": lambda x: x.masked_fill(x > 0, _n(x)),
    "where": lambda x: torch.where(x > 0, x, _n(x)),
    "full_like": lambda x: torch.full_like(x, _n(x)),
    "scalar_tensor": lambda x: x + torch.scalar_tensor(_n(x)),
    "topk": lambda x: torch.topk(x, _n(x) // 2, dim=1).values,
    "index_by_arange": lambda x: x[torch.arange(x.shape[0]), torch.arange(x.shape[0]) % _n(x)],
}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(SYMBOLIC_SCALARS))
def test_symbolic_scalar_arguments_export_and_run_at_other_sizes(name: str):
    from tests.function_libs.dynamic_export import all_dynamic, check_at, export

    module = _Sized(SYMBOLIC_SCALARS[name])
    x = torch.randn(4, 8)
    program = export(module, (x,), all_dynamic((x,)))
    sizes = [(x,), (torch.randn(5, 13),), (torch.randn(3, 6),)]
    differences = check_at(program, module, sizes)
    assert all(d.ok for d in differences), differences


class _Sized(torch.nn.Module):
    def __init__(self, body: Callable[[Any], Any]) -> None:
        super().__init__()
        self.body = body

    def forward(self, x: Any) -> Any:
        return self.body(x)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(SIZE_ARITHMETIC))
def test_size_arithmetic_exports_and_runs_at_other_sizes(name: str):
    from tests.function_libs.dynamic_export import all_dynamic, check_at, export
    from tests.function_libs.opinfo_harness import graph_overloads

    module = _Sized(SIZE_ARITHMETIC[name])
    x = torch.randn(3, 8)
    program = export(module, (x,), all_dynamic((x,)))
    used = graph_overloads(program.exported_program.graph)
    assert any(o.startswith(("_operator::", "<built-in")) for o in used), used
    differences = check_at(program, module, [(x,), (torch.randn(5, 13),), (torch.randn(2, 4),)])
    assert all(d.ok for d in differences), differences


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_floor_division_of_sizes_is_one_div():
    """A size (non-negative) divided by a positive number needs no sign correction; a
    difference of sizes (maybe negative) gets the exact Mod-based form."""
    from tests.function_libs.dynamic_export import all_dynamic, check_at, export

    x = torch.randn(3, 8)
    halved = _Sized(lambda x: torch.zeros(x.shape[1] // 2))
    program = export(halved, (x,), all_dynamic((x,)), optimize=False)
    ops = [n.op_type for n in program.model.graph]
    assert ops.count("Div") == 1 and "Mod" not in ops, ops
    differ = _Sized(lambda x: torch.zeros((x.shape[1] - x.shape[0]) // 3 + 4))
    program = export(differ, (x,), all_dynamic((x,)), optimize=False)
    assert "Mod" in [n.op_type for n in program.model.graph]
    sizes = [(x,), (torch.randn(9, 2),), (torch.randn(2, 11),)]  # negative differences too
    assert all(d.ok for d in check_at(program, differ, sizes))
