"""The structured rewrite of return/break/continue keeps Python semantics.

The rewritten body is still Python, so both versions run on the same inputs and must agree.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from onnxscript.analysis.names import all_identifiers
from onnxscript.converter.normalize import normalize
from onnxscript.source import SourceText
from onnxscript.unique_names import UniqueNames

PROGRAMS = [
    """
    def f(x, n):
        if x > 0:
            return x * 2
        y = x - 1
        if y < -3:
            return y
        return y * 3
    """,
    """
    def f(x, n):
        s = 0
        for i in range(n):
            if i == 3:
                continue
            s = s + i
            if s > x:
                break
            s = s * 2
        return s
    """,
    """
    def f(x, n):
        for i in range(n):
            for j in range(n):
                if i * j > x:
                    return i, j
                if j > i:
                    break
        return -1, -1
    """,
    """
    def f(x, n):
        k = 0
        while k < n:
            k = k + 1
            if k == x:
                continue
            if k * 2 > x + n:
                break
            x = x + 1
        else:
            x = -x
        return x + k
    """,
    """
    def f(x, n):
        for i in range(n):
            if i > x:
                break
        else:
            return 100
        return i
    """,
]


def run(src: str, x: int, n: int):
    ns: dict = {}
    exec(src, ns)
    try:
        return ("ok", ns["f"](x, n))
    except Exception as exc:
        return ("error", type(exc).__name__)


def normalized_source(src: str) -> str:
    tree = ast.parse(textwrap.dedent(src))
    fdef = tree.body[0]
    source = SourceText("<test>", tuple(textwrap.dedent(src).splitlines(True)), 0)
    fdef.body = normalize(fdef.body, source, UniqueNames(all_identifiers(fdef)))
    ast.fix_missing_locations(tree)
    return ast.unparse(tree)


@pytest.mark.parametrize("src", PROGRAMS)
def test_normalized_program_computes_the_same(src):
    new_src = normalized_source(src)
    new_tree = ast.parse(new_src)
    for node in ast.walk(new_tree.body[0]):
        assert not isinstance(node, ast.Continue)
        if isinstance(node, (ast.For, ast.While)):
            assert not node.orelse
    returns = [n for n in ast.walk(new_tree.body[0]) if isinstance(n, ast.Return)]
    assert len(returns) == 1 and new_tree.body[0].body[-1] is returns[0]
    for x in range(-2, 8):
        for n in range(0, 6):
            assert run(new_src, x, n) == run(textwrap.dedent(src), x, n), (x, n, new_src)


def test_structured_code_is_left_alone():
    src = "def f(x):\n    y = x\n    for i in range(3):\n        y = y + i\n    return y\n"
    assert normalized_source(src).strip() == ast.unparse(ast.parse(src)).strip()
