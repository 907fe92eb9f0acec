"""Mutants of real scripts for the robustness fuzz test.

Seeds are the ``@script()`` functions written in the package's tests, benchmarks, examples
and docs. A mutant changes one or two things a user could get wrong: an operator, an
element type or shape in an annotation, a literal, the op called, an attribute value, a
statement left out, arguments swapped. Everything is driven by one ``random.Random`` so a
case number always gives the same mutant.
"""

from __future__ import annotations

import ast
import copy
import random
import re
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SEED_FILES = (
    "bench/functions.py",
    "examples/quickstart.py",
    "tests/converter/determinism_cases.py",
    "tests/converter/test_control_flow.py",
    "tests/converter/test_straight_line.py",
    "tests/converter/test_indexing.py",
    "tests/converter/test_optional_io.py",
    "tests/converter/test_del.py",
)
DOC_FILES = ("README.md", "docs/getting-started.md", "docs/language.md", "docs/eager.md")

ELEMENT_TYPES = ("FLOAT", "DOUBLE", "INT64", "INT32", "UINT8", "BOOL", "STRING", "COMPLEX128")
UNARY_OPS = ("Relu", "Abs", "Neg", "Not", "Sqrt", "Exp", "Sign", "BitwiseNot", "IsNaN", "Floor")
BINARY_OPS = ("Add", "MatMul", "And", "Equal", "Less", "Mod", "BitShift", "Pow", "Max", "Where")
LITERALS: tuple[object, ...] = (0, -1, 2.5, 2**63, 2**70, 1e300, True, "s", -(2**63) - 1)
BIN_OPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow, ast.MatMult,
           ast.BitAnd, ast.BitOr, ast.BitXor, ast.LShift, ast.RShift)  # fmt: skip
UNARY_AST = (ast.USub, ast.UAdd, ast.Not, ast.Invert)
COMPARE_AST = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)


@dataclass(frozen=True)
class Seed:
    """One scripted function's source (decorators removed, dedented) and where it is from."""

    origin: str
    source: str
    name: str


def _is_script_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return isinstance(target, ast.Name) and target.id == "script"


def _functions(text: str, origin: str) -> Iterator[Seed]:
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(
            _is_script_decorator(d) for d in node.decorator_list
        ):
            fn = copy.deepcopy(node)
            fn.decorator_list = []
            source = ast.unparse(ast.fix_missing_locations(fn)) + "\n"
            yield Seed(f"{origin}:{node.lineno}", textwrap.dedent(source), node.name)


def seeds() -> list[Seed]:
    """Every ``@script()`` function of the seed files and of the docs' Python blocks."""
    found: list[Seed] = []
    for name in SEED_FILES:
        found.extend(_functions((ROOT / name).read_text(encoding="utf-8"), name))
    for name in DOC_FILES:
        path = ROOT / name
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8")
        for i, block in enumerate(re.findall(r"```python\n(.*?)```", text, flags=re.S)):
            found.extend(_functions(block, f"{name}#{i}"))
    return found


# -- mutations: each returns True when it changed the tree -----------------------------------


def _nodes(tree: ast.AST, kind: type | tuple[type, ...]) -> list[ast.AST]:
    return [n for n in ast.walk(tree) if isinstance(n, kind)]


def _annotations(tree: ast.FunctionDef) -> list[ast.expr]:
    found = [a.annotation for a in tree.args.args if a.annotation is not None]
    if tree.returns is not None:
        found.append(tree.returns)
    return found


def _swap_operator(tree: ast.FunctionDef, rng: random.Random) -> bool:
    nodes = _nodes(tree, (ast.BinOp, ast.UnaryOp, ast.Compare))
    if not nodes:
        return False
    node = rng.choice(nodes)
    if isinstance(node, ast.BinOp):
        node.op = rng.choice(BIN_OPS)()
    elif isinstance(node, ast.UnaryOp):
        node.op = rng.choice(UNARY_AST)()
    else:
        assert isinstance(node, ast.Compare)
        node.ops[0] = rng.choice(COMPARE_AST)()
    return True


def _element_type(tree: ast.FunctionDef, rng: random.Random) -> bool:
    names = [
        n
        for a in _annotations(tree)
        for n in ast.walk(a)
        if isinstance(n, ast.Name) and n.id in ELEMENT_TYPES
    ]
    if not names:
        return False
    node = rng.choice(names)
    assert isinstance(node, ast.Name)
    node.id = rng.choice(ELEMENT_TYPES)
    return True


def _shape(tree: ast.FunctionDef, rng: random.Random) -> bool:
    subscripts = [
        n for a in _annotations(tree) for n in ast.walk(a) if isinstance(n, ast.Subscript)
    ]
    if not subscripts:
        return False
    node = rng.choice(subscripts)
    assert isinstance(node, ast.Subscript)
    choice = rng.choice(("ellipsis", "number", "name", "rank"))
    if choice == "ellipsis":
        node.slice = ast.Constant(...)
    elif choice == "number":
        node.slice = ast.Constant(rng.choice((1, 3, 7, 0)))
    elif choice == "name":
        node.slice = ast.Constant("M")
    else:
        node.slice = ast.Tuple([ast.Constant(2), ast.Constant(5)], ast.Load())
    return True


def _drop_annotation(tree: ast.FunctionDef, rng: random.Random) -> bool:
    annotated = [a for a in tree.args.args if a.annotation is not None]
    if not annotated:
        return False
    rng.choice(annotated).annotation = None
    return True


def _literal(tree: ast.FunctionDef, rng: random.Random) -> bool:
    constants = [
        n
        for n in _nodes(tree, ast.Constant)
        if isinstance(n, ast.Constant) and isinstance(n.value, (int, float)) and n.value is not ...
    ]
    if not constants:
        return False
    node = rng.choice(constants)
    assert isinstance(node, ast.Constant)
    node.value = rng.choice(LITERALS)
    return True


def _op_name(tree: ast.FunctionDef, rng: random.Random) -> bool:
    calls = [
        n
        for n in _nodes(tree, ast.Call)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "op"
    ]
    if not calls:
        return False
    node = rng.choice(calls)
    assert isinstance(node.func, ast.Attribute)
    node.func.attr = rng.choice(UNARY_OPS if len(node.args) <= 1 else BINARY_OPS)
    return True


def _attribute(tree: ast.FunctionDef, rng: random.Random) -> bool:
    keywords = [k for c in _nodes(tree, ast.Call) for k in c.keywords]  # type: ignore[attr-defined]
    if not keywords:
        return False
    keyword = rng.choice(keywords)
    keyword.value = ast.Constant(rng.choice((0, 1, 7, 8, 17, 999, -5, 2.5, "x")))
    return True


def _drop_statement(tree: ast.FunctionDef, rng: random.Random) -> bool:
    bodies = [n.body for n in ast.walk(tree) if hasattr(n, "body") and isinstance(n.body, list)]
    bodies = [b for b in bodies if len(b) > 1]
    if not bodies:
        return False
    body = rng.choice(bodies)
    del body[rng.randrange(len(body) - 1)]
    return True


def _swap_arguments(tree: ast.FunctionDef, rng: random.Random) -> bool:
    calls = [n for n in _nodes(tree, ast.Call) if len(n.args) >= 2]  # type: ignore[attr-defined]
    if not calls:
        return False
    node = rng.choice(calls)
    assert isinstance(node, ast.Call)
    node.args[0], node.args[1] = node.args[1], node.args[0]
    return True


MUTATIONS: dict[str, Callable[[ast.FunctionDef, random.Random], bool]] = {
    "operator": _swap_operator,
    "element type": _element_type,
    "shape": _shape,
    "no annotation": _drop_annotation,
    "literal": _literal,
    "op name": _op_name,
    "attribute": _attribute,
    "statement": _drop_statement,
    "arguments": _swap_arguments,
}


@dataclass(frozen=True)
class Mutant:
    seed: Seed
    kinds: tuple[str, ...]
    source: str


def mutant(seed: Seed, case: int) -> Mutant | None:
    """The mutant number ``case`` of ``seed`` (one or two mutations), or None when the
    chosen mutations found nothing to change."""
    rng = random.Random(case)
    tree = ast.parse(seed.source).body[0]
    assert isinstance(tree, ast.FunctionDef)
    kinds = rng.sample(sorted(MUTATIONS), rng.choice((1, 1, 2)))
    applied = tuple(kind for kind in kinds if MUTATIONS[kind](tree, rng))
    if not applied:
        return None
    return Mutant(seed, applied, ast.unparse(ast.fix_missing_locations(tree)) + "\n")
