"""Every Python construct the converter accepts is handled by the three places a construct
must be: compiled (the converter's dispatch tables), run eagerly (eager mode), and written
back from the compiled model (the reverse translator, whose output compiles to the same
model). A construct added to the converter without a sample here fails
``test_every_construct_has_a_sample``; see docs/internals.md, "Adding a Python
construct"."""

from __future__ import annotations

import ast

import numpy as np
import pytest

from onnxscript import script
from onnxscript.converter.expressions import _EXPR_METHODS
from onnxscript.converter.statements import _STMT_METHODS
from onnxscript.reverse import proto2python
from onnxscript.reverse.roundtrip import check
from onnxscript.testing.eager_vs_compiled import assert_eager_matches_compiled
from tests.helpers import define

HEADER = "from onnxscript import BOOL, FLOAT, INT64, opset18 as op, graph\n"

SAMPLES: dict[type, str] = {
    ast.Attribute: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    return op.Relu(x)\n",
    ast.BinOp: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    return x * 2.0 + x\n",
    ast.BoolOp: (
        "def f(x: FLOAT[3]) -> FLOAT[3]:\n"
        "    a = op.ReduceSum(x) > 0.0\n"
        "    b = op.ReduceMax(x) < 10.0\n"
        "    return op.Where(a and b, x, -x)\n"
    ),
    ast.Compare: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    return op.Where(x > 0.5, x, 0.0)\n",
    ast.Constant: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    return op.Add(x, 1.5)\n",
    ast.IfExp: ("def f(x: FLOAT[3]) -> FLOAT[3]:\n    return x if op.ReduceSum(x) > 0.0 else -x\n"),
    ast.List: "def f(x: FLOAT[3]) -> FLOAT[3, 1]:\n    return op.Reshape(x, [3, 1])\n",
    ast.Name: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    y = x\n    return y\n",
    ast.Subscript: "def f(x: FLOAT[3]) -> FLOAT[2]:\n    return x[1:]\n",
    ast.Tuple: (
        "def f(x: FLOAT[3]) -> tuple[FLOAT[3], FLOAT[3]]:\n    a, b = x, -x\n    return a, b\n"
    ),
    ast.UnaryOp: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    return -x\n",
    ast.AnnAssign: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    y: FLOAT[3] = x + 1.0\n    return y\n",
    ast.Assign: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    y = op.Abs(x)\n    return y\n",
    ast.AugAssign: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    y = x\n    y += 1.0\n    return y\n",
    ast.Delete: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    y = x + 1.0\n    del x\n    return y\n",
    ast.Expr: ('def f(x: FLOAT[3]) -> FLOAT[3]:\n    """Doubles x."""\n    return x + x\n'),
    ast.For: (
        "def f(x: FLOAT[3]) -> FLOAT[3]:\n"
        "    y = x\n"
        "    for i in range(3):\n"
        "        y = y + x\n"
        "    return y\n"
    ),
    ast.FunctionDef: (
        "def f(x: FLOAT[3]) -> FLOAT[3]:\n"
        "    @graph()\n"
        "    def body(i: INT64, cond: BOOL, y: FLOAT[3]):\n"
        "        return cond, y + x\n"
        "    return op.Loop(3, True, x, body=body)\n"
    ),
    ast.If: (
        "def f(x: FLOAT[3]) -> FLOAT[3]:\n"
        "    if op.ReduceSum(x) > 0.0:\n"
        "        y = x\n"
        "    else:\n"
        "        y = -x\n"
        "    return y\n"
    ),
    ast.Pass: (
        "def f(x: FLOAT[3]) -> FLOAT[3]:\n"
        "    y = x\n"
        "    if op.ReduceSum(x) > 0.0:\n"
        "        y = x + 1.0\n"
        "    else:\n"
        "        pass\n"
        "    return y\n"
    ),
    ast.Return: "def f(x: FLOAT[3]) -> FLOAT[3]:\n    return op.Neg(x)\n",
    ast.While: (
        "def f(x: FLOAT[3]) -> FLOAT[3]:\n"
        "    y = x\n"
        "    while op.ReduceSum(y) < 20.0:\n"
        "        y = y + 1.0\n"
        "    return y\n"
    ),
}
"""One script function per construct kind, using it; each compiles to a model."""

INPUT = np.array([1.0, 2.0, 3.0], dtype=np.float32)


def test_every_construct_has_a_sample() -> None:
    accepted = set(_EXPR_METHODS) | set(_STMT_METHODS)
    missing = sorted(kind.__name__ for kind in accepted - set(SAMPLES))
    assert not missing, f"constructs the converter accepts without a sample here: {missing}"


@pytest.mark.parametrize(
    "kind", sorted(SAMPLES, key=lambda k: k.__name__), ids=lambda k: k.__name__
)
def test_construct_compiles_runs_eagerly_and_is_written_back(kind: type) -> None:
    source = HEADER + SAMPLES[kind]
    assert any(isinstance(n, kind) for n in ast.walk(ast.parse(source)))
    compiled = script()(define(source))
    assert_eager_matches_compiled(compiled, INPUT)
    model = compiled.to_model_proto()
    round_trip = check(model, proto2python(model))
    assert round_trip.ok, round_trip
    assert round_trip.results == "same"
