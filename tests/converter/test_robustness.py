"""Fuzz: arbitrary Python (valid syntax, mostly invalid scripts) never raises anything but
ScriptError from @script(): no internal traceback reaches the user for bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from onnxscript import BOOL, FLOAT, INT64, ScriptError, graph, script
from onnxscript import opset18 as op
from tests.helpers import define, fuzz_settings

NAMES = [
    "x",
    "y",
    "n",
    "z",
    "undefined_name",
    "op",
    "np",
    "FLOAT",
    "print",
    "range",
    "len",
    "graph",
]
OPS = ["Add", "Relu", "Concat", "Resize", "TopK", "Split", "If", "Loop", "Scan", "Cast",
       "Constant", "Gather", "Slice", "NoSuchOp", "CastLike", "Where", "Reshape"]  # fmt: skip
ATOMS = ["1", "2.5", "-3", "True", "None", "'s'", "b'b'", "1j", "[1, 2]", "[]", "()", "(1, 'a')",
         "{}", "{'k': 1}", "...", "[x, y]", "(x,)", "FLOAT", "INT64.dtype", "np.ones(2)"]  # fmt: skip


@st.composite
def expressions(draw, depth=0):
    if depth > 2:
        return draw(st.sampled_from(NAMES + ATOMS))
    kind = draw(st.integers(0, 11))
    sub = lambda: draw(expressions(depth + 1))
    if kind == 0:
        return draw(st.sampled_from(NAMES + ATOMS))
    if kind == 1:
        args = ", ".join(sub() for _ in range(draw(st.integers(0, 3))))
        kws = ", ".join(
            f"{draw(st.sampled_from(['axis', 'to', 'mode', 'sizes', 'body', 'k', 'zz']))}={sub()}"
            for _ in range(draw(st.integers(0, 2)))
        )
        sep = ", " if args and kws else ""
        return f"op.{draw(st.sampled_from(OPS))}({args}{sep}{kws})"
    if kind == 2:
        return f"({sub()} {draw(st.sampled_from(['+', '-', '*', '/', '//', '%', '**', '@', '&', '|', '^', '<<']))} {sub()})"
    if kind == 3:
        return f"({sub()} {draw(st.sampled_from(['<', '==', '!=', 'is', 'in', '<=']))} {sub()})"
    if kind == 4:
        return f"({draw(st.sampled_from(['not ', '-', '~', '+']))}{sub()})"
    if kind == 5:
        return f"{sub()}[{draw(st.sampled_from(['0', '1:2', '::-1', '..., 0', 'None', 'x', 'y:n', '1.5', ':, 0', 'undefined_name']))}]"
    if kind == 6:
        return f"({sub()} if {sub()} else {sub()})"
    if kind == 7:
        return f"({sub()} {draw(st.sampled_from(['and', 'or']))} {sub()})"
    if kind == 8:
        return f"{sub()}.{draw(st.sampled_from(['shape', 'dtype', 'T', 'Add', 'attr']))}"
    if kind == 9:
        return draw(
            st.sampled_from([f"[v for v in {sub()}]", f"lambda: {sub()}", f"f'{{{sub()}}}'"])
        )
    if kind == 10:
        return f"{draw(st.sampled_from(['len', 'print', 'range', 'int', 'float', 'abs']))}({sub()})"
    return f"({sub()}, {sub()})"


@st.composite
def statements(draw, depth=0, indent=1):
    pad = "    " * indent
    kind = draw(st.integers(0, 12 if depth < 2 else 4))
    e = lambda: draw(expressions())
    if kind in (0, 1):
        target = draw(st.sampled_from(["z", "x", "a, b", "x[0]", "(c,)", "z.attr"]))
        return f"{pad}{target} = {e()}\n"
    if kind == 2:
        return f"{pad}{draw(st.sampled_from(['z', 'x']))} {draw(st.sampled_from(['+=', '*=', '//=', '@=']))} {e()}\n"
    if kind == 3:
        return f"{pad}{draw(st.sampled_from(['return ' + e(), 'return', 'pass', 'del z', 'del undefined_name', 'break', 'continue']))}\n"
    if kind == 4:
        return f"{pad}{e()}\n"
    block = lambda: "".join(
        draw(statements(depth + 1, indent + 1)) for _ in range(draw(st.integers(1, 3)))
    )
    if kind in (5, 6):
        text = f"{pad}if {e()}:\n{block()}"
        if draw(st.booleans()):
            text += f"{pad}else:\n{block()}"
        return text
    if kind == 7:
        return f"{pad}for {draw(st.sampled_from(['i', 'i, j', 'x[0]']))} in {draw(st.sampled_from(['range(n)', 'range(1, n, 2)', 'x', '(1, 2)', 'range()', 'range(1.5)', e()]))}:\n{block()}"
    if kind == 8:
        return f"{pad}while {e()}:\n{block()}"
    if kind == 9:
        return f"{pad}@graph()\n{pad}def g(s, r):\n{block()}"
    if kind == 10:
        return f"{pad}{draw(st.sampled_from(['assert x', 'raise ValueError()', 'global q', 'import math', 'with x:' + chr(10) + pad + '    pass', 'try:' + chr(10) + pad + '    pass' + chr(10) + pad + 'except Exception:' + chr(10) + pad + '    pass']))}\n"
    if kind == 11:
        return f"{pad}t: {draw(st.sampled_from(['FLOAT[3]', 'int', 'FLOAT', 'x']))} = {e()}\n"
    return f"{pad}for i in range(n):\n{block()}"


@st.composite
def programs(draw):
    header = draw(st.sampled_from([
        "def f(x, y, n):\n",
        "def f(x: FLOAT['N'], y: FLOAT['N'], n: INT64):\n",
        "def f(x: FLOAT, y: BOOL, n: INT64, k: int = 2, a: float = 1.0, s: str = 'v'):\n",
    ]))  # fmt: skip
    body = "".join(draw(statements()) for _ in range(draw(st.integers(1, 5))))
    return header + body + "    return x\n"


@pytest.mark.filterwarnings("ignore::SyntaxWarning")
@fuzz_settings(150)
@given(programs())
def test_bad_scripts_raise_only_script_errors(source):
    import numpy as np

    namespace = {"FLOAT": FLOAT, "INT64": INT64, "BOOL": BOOL, "op": op, "np": np, "graph": graph}
    try:
        f = define(source, namespace)
    except SyntaxError:
        return  # not Python: the decorator never sees it
    try:
        fn = script()(f)
    except ScriptError as err:
        assert err.filename == f.__code__.co_filename and err.lineno >= 1
        return
    # Compiled: lowering must not fail either.
    fn.to_function_proto()
