"""Untrusted names, strings and doc strings never become code.

Every test checks the emitted module with ``ast``: it parses, it reads no name that it
does not define or import (besides a few harmless builtins), and compiling it back gives a
model equivalent to the original.
"""

from __future__ import annotations

import ast
import builtins
import os

import numpy as np
import onnx
import onnx.helper as oh
import pytest

from onnxscript.reverse import proto2python
from onnxscript.reverse.identifiers import NameAllocator, sanitize
from onnxscript.testing import run_model
from onnxscript.testing.isomorphism import differences
from tests.reverse.common import (
    FLOAT,
    assert_roundtrip,
    compiled,
    function_proto,
    make_model,
    vi,
)

_ALLOWED_BUILTINS = {"range", "float", "bytes", "complex", "tuple", "list"}

EVIL = [
    "x\nimport os\nos.system('touch /tmp/pwned')",
    "__import__('os').system('touch /tmp/pwned')",
    "a'); __import__('os'); ('",
    'b"""; exec("1"); """',
    "class",
    "None",
    "True",
    "def",
    "lambda",
    "123abc",
    "0",
    "",
    "é",
    "中文",
    "ﬁle",  # NFKC turns the ligature into "fi"
    "a.b",
    "a-b",
    "a b",
    "a_b",
    "\x00nul",
    "line\u2028sep",
    "op",
    "np",
    "script",
    "FLOAT",
    "range",
    "_",
    "__class__",
]


def _names_read(tree: ast.Module) -> set[str]:
    return {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _names_defined(tree: ast.Module) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.add(node.name)
            found.update(a.arg for a in node.args.args + node.args.kwonlyargs)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            found.update((a.asname or a.name).split(".")[0] for a in node.names)
    return found


def assert_safe(source: str) -> ast.Module:
    tree = ast.parse(source)
    unknown = _names_read(tree) - _names_defined(tree) - _ALLOWED_BUILTINS
    assert not unknown, f"reads undefined names {unknown}:\n{source}"
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            module = node.module if isinstance(node, ast.ImportFrom) else node.names[0].name
            assert module in ("numpy", "onnx", "onnxscript", "onnxscript.reverse.runtime"), module
    return tree


def _evil_model() -> onnx.ModelProto:
    """A chain of Relu nodes whose values carry every evil name (plus all string places)."""
    nodes = []
    prev = "input"
    names = [n for n in EVIL if n]
    for i, name in enumerate(names):
        node = oh.make_node("Relu", [prev], [name], doc_string=EVIL[i % len(EVIL)])
        nodes.append(node)
        prev = name
    nodes.append(oh.make_node("Identity", [prev], ["output\n'\""]))
    nodes.append(oh.make_node("Constant", [], ["s"], value_string="'''\"\"\"\n\\x\x00"))
    model = make_model(
        nodes,
        [vi("input", FLOAT, ["n\"'\n", 2])],
        [
            vi("output\n'\"", FLOAT, ["n\"'\n", 2]),
            oh.make_tensor_value_info("s", onnx.TensorProto.STRING, []),
        ],
        name='evil""" + __import__(\'os\')',
        doc_string='model doc """ \\ \n import os',
        producer_name="p'\n\"",
    )
    model.graph.doc_string = 'graph doc\n"""\nimport os  # \\\x00 \u2028'
    oh.set_model_props(model, {"k'\n": 'v"""\n'})
    return model


def test_evil_names_and_strings_are_escaped():
    model = _evil_model()
    source = proto2python(model)
    assert_safe(source)
    assert not os.path.exists("/tmp/pwned")
    back = compiled(source)
    assert not os.path.exists("/tmp/pwned")
    assert not differences(model, back, canonical=True)
    assert back.producer_name == model.producer_name
    assert back.doc_string == model.doc_string
    assert {p.key: p.value for p in back.metadata_props} == {"k'\n": 'v"""\n'}
    value = next(n for n in back.graph.node if n.op_type == "Constant").attribute[0].s
    assert value == b"'''\"\"\"\n\\x\x00"
    x = np.array([[1.0, -2.0]], np.float32)
    np.testing.assert_array_equal(run_model(back, [x])[0], run_model(model, [x])[0])
    assert proto2python(back) == proto2python(compiled(proto2python(back)))


def test_names_that_collide_after_sanitizing_stay_distinct():
    names = ["a.b", "a-b", "a b", "a_b", "a_b_1"]
    ops = ["Relu", "Neg", "Abs", "Exp", "Sigmoid"]
    nodes = [oh.make_node(o, ["x"], [n]) for o, n in zip(ops, names, strict=True)]
    nodes.append(oh.make_node("Sum", names, ["total"]))
    model = make_model(nodes, [vi("x", FLOAT, [2])], [vi("total", FLOAT, [2])])
    source, back = assert_roundtrip(model)
    tree = assert_safe(source)
    targets = [
        t.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name) and t.id.startswith("a_b")
    ]
    assert len(targets) == 5 and len(set(targets)) == 5, source
    x = np.array([1.0, -2.0], np.float32)
    np.testing.assert_allclose(run_model(back, [x])[0], run_model(model, [x])[0])


@pytest.mark.parametrize("name", EVIL)
def test_sanitized_names_are_plain_identifiers(name):
    clean = sanitize(name)
    assert clean.isidentifier()
    assert not clean.startswith("__")
    import keyword
    import unicodedata

    assert not keyword.iskeyword(clean)
    assert unicodedata.normalize("NFKC", clean) == clean


def test_allocator_never_hands_out_reserved_or_taken_names():
    names = NameAllocator({"op"})
    got = [names.take(n) for n in ["op", "op", "range", "x", "x", "x_1"]]
    assert got == ["op_1", "op_2", "range_1", "x", "x_1", "x_1_1"]
    assert len(set(got)) == len(got)


def test_evil_function_domain_attribute_and_op_names():
    fn = function_proto("dom'\n\"", "f\n()", [oh.make_node("LeakyRelu", ["x"], ["y"])], ["class"])
    ref = onnx.AttributeProto()
    ref.name, ref.ref_attr_name, ref.type = "alpha", "class", onnx.AttributeProto.FLOAT
    fn.node[0].attribute.append(ref)
    model = make_model(
        [
            oh.make_node("f\n()", ["x"], ["y"], domain="dom'\n\"", **{"class": 0.5}),
            oh.make_node("evil'op\n", ["y"], ["z"], domain='other"domain'),
        ],
        [vi("x", FLOAT, [2])],
        [vi("z", FLOAT, [2])],
        functions=[fn],
        extra_opsets={"dom'\n\"": 1, 'other"domain': 1},
    )
    source = proto2python(model)
    assert_safe(source)
    # The custom op has no implementation: compile only, do not run.
    back = compiled(source)
    ops = [(n.domain, n.op_type) for n in back.graph.node]
    assert ('other"domain', "evil'op\n") in ops


def test_doc_strings_with_every_kind_of_quote_round_trip():
    for doc in [
        '"""',
        "'''",
        'ends with "',
        "back\\slash",
        "tab\there",
        "\r\n",
        "\x0b\x0c",
        "plain text\nsecond line",
    ]:
        model = make_model(
            [oh.make_node("Relu", ["x"], ["y"])],
            [vi("x", FLOAT, [2])],
            [vi("y", FLOAT, [2])],
            doc_string=doc,
        )
        model.graph.doc_string = doc
        source = proto2python(model)
        assert_safe(source)
        back = compiled(source)
        assert back.doc_string == doc
        # The graph's doc string is the function's docstring, which Python's
        # inspect.cleandoc normalizes (tabs, leading and trailing blank lines).
        import inspect

        assert back.graph.doc_string == inspect.cleandoc(doc)


def test_names_are_not_looked_up_as_builtins_or_globals():
    # Values named like things scripts use must not shadow them.
    nodes = [
        oh.make_node("Relu", ["x"], ["range"]),
        oh.make_node("Neg", ["range"], ["op"]),
        oh.make_node("Abs", ["op"], ["np"]),
        oh.make_node("Exp", ["np"], ["float"]),
    ]
    model = make_model(nodes, [vi("x", FLOAT, [2])], [vi("float", FLOAT, [2])])
    source = proto2python(model)
    assert_safe(source)
    assert "op_1 = op.Neg(range_1)" in source
    assert set(dir(builtins)) >= _ALLOWED_BUILTINS
    x = np.array([1.0, -2.0], np.float32)
    np.testing.assert_allclose(run_model(compiled(source), [x])[0], run_model(model, [x])[0])


@pytest.mark.parametrize("name", EVIL)
def test_evil_graph_attribute_names_are_refused(name):
    """A graph attribute's name is written as a keyword: one that is no identifier (found
    by tests/reverse/test_cli_fuzz.py; it was written verbatim) is a TranslationError."""
    from onnxscript.errors import TranslationError

    body = oh.make_graph(
        [oh.make_node("Add", ["a", "b"], ["c"])],
        "body",
        [vi("a", FLOAT, ["N"]), vi("b", FLOAT, ["N"])],
        [vi("c", FLOAT, ["N"])],
    )
    # An op of another domain: a standard op has no attribute of such a name.
    node = oh.make_node("Map", ["s", "x"], ["y"], domain="my.dom")
    node.attribute.append(oh.make_attribute(name, body))
    model = make_model(
        [node],
        [oh.make_tensor_sequence_value_info("s", FLOAT, ["N"]), vi("x", FLOAT, ["N"])],
        [oh.make_tensor_sequence_value_info("y", FLOAT, ["N"])],
        extra_opsets={"my.dom": 1},
    )
    # An identifier Python reads as itself (not "\ufb01le", which NFKC makes "file").
    stable = __import__("unicodedata").normalize("NFKC", name) == name
    if name.isidentifier() and not __import__("keyword").iskeyword(name) and stable:
        ast.parse(proto2python(model))
        return
    with pytest.raises(TranslationError, match="is not an identifier"):
        proto2python(model)
