"""Representative script functions for ``bench/compile.py``.

The functions here are plain Python functions (not decorated), so that the benchmark can
time ``script()(fn)`` itself. The module imports only the public API shared by our package
and onnxscript 0.7.2, so that the same file runs under both.

``COMMON`` lists the functions that both packages accept with the same meaning; ``OURS_ONLY``
lists constructs that 0.7.2 rejects and that we accept (timed separately, no baseline).
Each entry also carries a factory of numpy inputs, used to check that both packages compute
the same outputs.
"""

# ruff: noqa: F821, B007, SIM108
# (string dims in tensor types are not forward references; the loops and if/else blocks are
# the constructs under test, written the way users write them)

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from onnxscript import BOOL, FLOAT, INT64, graph, script
from onnxscript import opset18 as op

# ---------------------------------------------------------------------------------------
# Helper script functions, decorated once at import: called by ``calls_script_functions``.
# ---------------------------------------------------------------------------------------


@script()
def scaled_tanh(x: FLOAT["N"], scale: float = 2.0) -> FLOAT["N"]:
    return op.Tanh(x) * scale


@script()
def squared_error(a: FLOAT["N"], b: FLOAT["N"]) -> FLOAT["N"]:
    diff = op.Sub(a, b)
    return op.Mul(diff, diff)


# ---------------------------------------------------------------------------------------
# Functions both packages accept.
# ---------------------------------------------------------------------------------------


def straight_line_ops(x: FLOAT["B", 16], w: FLOAT[16], b: FLOAT[16]) -> FLOAT["B", 16]:
    """Layer normalization written with plain op calls."""
    axes = op.Constant(value_ints=[-1])
    mean = op.ReduceMean(x, axes)
    centered = op.Sub(x, mean)
    squared = op.Mul(centered, centered)
    variance = op.ReduceMean(squared, axes)
    eps = op.Constant(value_float=1e-5)
    denom = op.Sqrt(op.Add(variance, eps))
    normalized = op.Div(centered, denom)
    scaled = op.Mul(normalized, w)
    return op.Add(scaled, b)


def python_operators(x: FLOAT["N"]) -> FLOAT["N"]:
    """GELU (tanh approximation) with Python operators and float literals."""
    inner = 0.7978845608 * (x + 0.044715 * x * x * x)
    return 0.5 * x * (1.0 + op.Tanh(inner))


def attributes_with_defaults(
    x: FLOAT["N", 8], alpha: float = 0.2, axis: int = -1, keepdims: int = 1
) -> FLOAT["N", 8]:
    """Attribute parameters with defaults, passed on to op attributes and used as a value."""
    activated = op.LeakyRelu(x, alpha=alpha)
    probs = op.Softmax(activated, axis=axis)
    largest = op.ReduceMax(probs, op.Constant(value_ints=[-1]), keepdims=keepdims)
    return op.Div(probs, largest)


def slicing(x: FLOAT[6, 8]) -> FLOAT[2, 4]:
    """Slices with steps and negative bounds, and integer indexing."""
    block = x[1:5, ::2]
    last_row = x[-1]
    first_col = x[:, 0]
    total = op.ReduceSum(last_row) + op.ReduceSum(first_col)
    return block[1:3, 0:4] * total


def if_else(x: FLOAT["N"], threshold: FLOAT) -> FLOAT["N"]:
    """An if/else on a tensor condition, with a value defined on both branches."""
    total = op.ReduceSum(x, keepdims=0)
    if total > threshold:
        y = op.Relu(x)
        z = y * 2.0
    else:
        y = op.Neg(x)
        z = y + 1.0
    return z - y


def for_range(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
    """A for loop over range with loop-carried values and use of the loop index."""
    acc = op.Identity(x)
    power = op.Identity(x)
    for i in range(n):
        power = power * x
        step = op.CastLike(i, x)
        acc = acc + power + step
    return acc


def while_loop(x: FLOAT["N"], limit: FLOAT) -> FLOAT["N"]:
    """A while loop whose condition is a name assigned in the loop body."""
    y = op.Identity(x)
    cond = op.ReduceSum(y, keepdims=0) < limit
    while cond:
        y = y * 2.0 + 1.0
        cond = op.ReduceSum(y, keepdims=0) < limit
    return y


def calls_script_functions(a: FLOAT["N"], b: FLOAT["N"]) -> FLOAT["N"]:
    """Calls to other script functions, with and without an attribute."""
    ta = scaled_tanh(a)
    tb = scaled_tanh(b, scale=3.0)
    return squared_error(ta, tb)


def scan_graph(x: FLOAT[5, 3]) -> FLOAT[5, 3]:
    """A cumulative sum written as a Scan with a nested @graph() body."""

    @graph()
    def cumulative(state: FLOAT[3], row: FLOAT[3]):
        total = op.Add(state, row)
        return total, total

    zeros = op.ConstantOfShape(op.Constant(value_ints=[3]))
    _last, running = op.Scan(zeros, x, body=cumulative, num_scan_inputs=1)
    return running


def mixed_block(
    x: FLOAT["B", 8], w: FLOAT[8, 8], bias: FLOAT[8], steps: INT64, gain: float = 0.5
) -> FLOAT["B", 8]:
    """A larger function mixing op calls, operators, slicing, if/else and a loop."""
    h = op.MatMul(x, w) + bias
    h = op.Relu(h) * gain
    head = h[:, 0:4]
    tail = h[:, 4:8]
    merged = op.Concat(tail, head, axis=-1)
    norm = op.ReduceL2(merged, op.Constant(value_ints=[-1]), keepdims=1)
    if op.ReduceMax(norm, keepdims=0) > 1.0:
        merged = merged / (norm + 1e-6)
    else:
        merged = merged * 1.0
    for i in range(steps):
        merged = op.Tanh(op.MatMul(merged, w) + bias) + merged
    return merged


# ---------------------------------------------------------------------------------------
# Constructs onnxscript 0.7.2 rejects and we accept.
# ---------------------------------------------------------------------------------------


def ours_return_inside_if(x: FLOAT["N"]) -> FLOAT["N"]:
    """A return inside an if branch (0.7.2: return must be the last statement)."""
    if op.ReduceSum(x, keepdims=0) > 0.0:
        return op.Relu(x)
    return op.Neg(x)


def ours_break_not_last(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
    """A break that is not the last statement of the loop body."""
    y = op.Identity(x)
    for i in range(n):
        if op.ReduceSum(y, keepdims=0) > 100.0:
            break
        y = y * 2.0
    return y


def ours_continue(x: FLOAT["N"], n: INT64) -> FLOAT["N"]:
    """A continue in a for loop."""
    y = op.Identity(x)
    for i in range(n):
        if i % 2 == 0:
            continue
        y = y + x
    return y


def ours_chained_comparison(x: FLOAT["N"]) -> BOOL["N"]:
    """A chained comparison a < b < c."""
    return 0.0 < x < 1.0


# ---------------------------------------------------------------------------------------
# Registry.
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchFunction:
    """One representative function: the Python function and a factory of its inputs."""

    function: Callable[..., Any]
    inputs: Callable[[], list[np.ndarray]]
    construct: str

    @property
    def name(self) -> str:
        return self.function.__name__


def _rng() -> np.random.Generator:
    return np.random.default_rng(1234)


def _f32(*shape: int) -> np.ndarray:
    return _rng().standard_normal(shape).astype(np.float32)


COMMON: list[BenchFunction] = [
    BenchFunction(
        straight_line_ops,
        lambda: [_f32(4, 16), _f32(16), _f32(16)],
        "straight-line op calls",
    ),
    BenchFunction(python_operators, lambda: [_f32(10)], "Python operators with literals"),
    BenchFunction(attributes_with_defaults, lambda: [_f32(3, 8)], "attributes with defaults"),
    BenchFunction(slicing, lambda: [_f32(6, 8)], "slicing and indexing"),
    BenchFunction(
        if_else, lambda: [_f32(7), np.array(0.0, dtype=np.float32)], "if/else on a tensor"
    ),
    BenchFunction(
        for_range, lambda: [_f32(5) * 0.5, np.array(3, dtype=np.int64)], "for over range"
    ),
    BenchFunction(
        while_loop,
        lambda: [np.abs(_f32(4)), np.array(50.0, dtype=np.float32)],
        "while on a name set in the body",
    ),
    BenchFunction(calls_script_functions, lambda: [_f32(6), _f32(6)], "calls to script functions"),
    BenchFunction(scan_graph, lambda: [_f32(5, 3)], "nested @graph() Scan body"),
    BenchFunction(
        mixed_block,
        lambda: [_f32(2, 8), _f32(8, 8) * 0.3, _f32(8), np.array(2, dtype=np.int64)],
        "mixed (ops, slicing, if, for)",
    ),
]

OURS_ONLY: list[BenchFunction] = [
    BenchFunction(ours_return_inside_if, lambda: [_f32(5)], "return inside if"),
    BenchFunction(
        ours_break_not_last,
        lambda: [np.abs(_f32(5)), np.array(10, dtype=np.int64)],
        "break not last in the loop",
    ),
    BenchFunction(
        ours_continue, lambda: [_f32(5), np.array(5, dtype=np.int64)], "continue in a loop"
    ),
    BenchFunction(ours_chained_comparison, lambda: [_f32(6)], "chained comparison"),
]

ALL: list[BenchFunction] = COMMON + OURS_ONLY
