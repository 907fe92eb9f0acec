"""Property test: random programs in the supported subset compile to models that compute
what Python computes.

Programs use float scalars, arithmetic, comparisons, and/or/not, nested if/for/while with
break/continue/return anywhere. The oracle is the same source run by Python on numpy
float32 values; the compiled model runs in onnxruntime.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from onnxscript import FLOAT, INT64, script
from tests.helpers import assert_matches_python, define, fuzz_settings


class _Gen:
    def __init__(self, draw):
        self.draw = draw
        self.counter = 0
        self.lines: list[str] = []

    def fresh(self, prefix: str) -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def expr(self, defined: list[str], depth: int = 0) -> str:
        choice = self.draw(st.integers(0, 5 if depth < 2 else 1))
        if choice == 0:
            return self.draw(st.sampled_from(defined))
        if choice == 1:
            return repr(self.draw(st.sampled_from([0.5, 1.0, 2.0, 3.0, -1.5])))
        op = self.draw(st.sampled_from(["+", "-", "*"]))
        return f"({self.expr(defined, depth + 1)} {op} {self.expr(defined, depth + 1)})"

    def cond(self, defined: list[str], depth: int = 0) -> str:
        kind = self.draw(st.integers(0, 3 if depth == 0 else 0))
        if kind == 0:
            cmp = self.draw(st.sampled_from(["<", ">", "<=", ">=", "=="]))
            return f"{self.expr(defined, 1)} {cmp} {self.expr(defined, 1)}"
        if kind == 1:
            return f"not ({self.cond(defined, 1)})"
        if kind == 2:
            return f"({self.cond(defined, 1)}) and ({self.cond(defined, 1)})"
        return f"{self.expr(defined, 1)} < {self.expr(defined, 1)} < {self.expr(defined, 1)}"

    def block(self, indent: int, defined: list[str], depth: int, in_loop: bool) -> list[str]:
        """Emit statements; returns the variables defined on every path afterwards."""
        defined = list(defined)
        n = self.draw(st.integers(1, 3))
        for _ in range(n):
            defined = self.stmt(indent, defined, depth, in_loop)
        return defined

    def emit(self, indent: int, text: str) -> None:
        self.lines.append("    " * indent + text)

    def stmt(self, indent: int, defined: list[str], depth: int, in_loop: bool) -> list[str]:
        options = ["assign", "assign"]
        if depth < 3:
            options += ["if", "for", "while"]
        if in_loop:
            options += ["break", "continue"]
        options.append("return")
        kind = self.draw(st.sampled_from(options))
        if kind == "assign":
            writable = [v for v in defined if v.startswith(("v", "x", "y"))]
            target = self.draw(st.sampled_from([*writable, self.fresh("v")]))
            self.emit(indent, f"{target} = {self.expr(defined)}")
            return defined if target in defined else [*defined, target]
        if kind in ("break", "continue"):
            self.emit(indent, f"if {self.cond(defined)}:")
            self.emit(indent + 1, kind)
            return defined
        if kind == "return":
            self.emit(indent, f"if {self.cond(defined)}:")
            self.emit(indent + 1, f"return {self.expr(defined)}")
            return defined
        if kind == "if":
            self.emit(indent, f"if {self.cond(defined)}:")
            then_defs = self.block(indent + 1, defined, depth + 1, in_loop)
            if self.draw(st.booleans()):
                self.emit(indent, "else:")
                else_defs = self.block(indent + 1, defined, depth + 1, in_loop)
            else:
                else_defs = defined
            return [v for v in then_defs if v in else_defs]
        if kind == "for":
            index = self.fresh("i")
            bound = self.draw(st.sampled_from(["n", "3", "0", "1"]))
            self.emit(indent, f"for {index} in range({bound}):")
            self.block(indent + 1, [*defined, index], depth + 1, True)
            return defined
        counter = self.fresh("w")
        self.emit(indent, f"{counter} = 0.0")
        self.emit(indent, f"while {counter} < {self.draw(st.sampled_from(['2.0', '3.0']))}:")
        self.emit(indent + 1, f"{counter} = {counter} + 1.0")
        self.block(indent + 1, [*defined, counter], depth + 1, True)
        return [*defined, counter]


@st.composite
def programs(draw) -> str:
    gen = _Gen(draw)
    defined = gen.block(1, ["x", "y"], 0, False)
    gen.emit(1, f"return {gen.expr(defined)}")
    return "def f(x: FLOAT, y: FLOAT, n: INT64) -> FLOAT:\n" + "\n".join(gen.lines) + "\n"


INPUTS = [
    (np.float32(x), np.float32(y), np.int64(n))
    for x, y, n in [(0.5, -1.0, 0), (2.0, 3.0, 2), (-3.0, 1.5, 4)]
]


@fuzz_settings(40)
@given(programs())
def test_random_programs_match_python(source):
    fn = script()(define(source, {"FLOAT": FLOAT, "INT64": INT64}))
    with np.errstate(all="ignore"):
        assert_matches_python(fn, *[tuple(np.asarray(v) for v in inp) for inp in INPUTS])
