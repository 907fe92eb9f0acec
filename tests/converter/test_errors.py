"""Bad scripts get a ScriptError at decoration time with file, line, column, source and hint."""

from __future__ import annotations

import textwrap

import pytest

from onnxscript import FLOAT, INT64, Opset, ScriptError, script
from onnxscript import opset18 as op
from tests.helpers import define

NAMESPACE = {"script": script, "FLOAT": FLOAT, "INT64": INT64, "op": op, "Opset": Opset}


def expect_error(body: str, match: str, **namespace) -> ScriptError:
    """Compile ``body`` (a function ``f``, decorated here with ``@script()``) from a
    registered in-memory file; it must raise a ScriptError whose message contains
    ``match`` and, when a line is marked ``# ERR``, which points at that line."""
    source = "@script()\n" + textwrap.dedent(body)
    lines = source.splitlines()
    marker = next((i + 1 for i, line in enumerate(lines) if "# ERR" in line), None)
    with pytest.raises(ScriptError) as info:
        define(source, {**NAMESPACE, **namespace})
    err = info.value
    assert err.filename.startswith("<test-source-")
    text = str(err)
    assert match in text, text
    if marker is not None:
        assert err.lineno == marker, (err.lineno, marker, text)
        assert err.source_line.strip() == lines[marker - 1].strip()
        assert "^" in text
    return err


@pytest.mark.parametrize(
    ("body", "match"),
    [
        ("def f(x):\n    return y  # ERR\n", "Unbound name: y"),
        ("def f(x):\n    z = x\n    del z\n    return z  # ERR\n", "Unbound name: z"),
        ("def f(x):\n    return op.Add(x)  # ERR\n", "missing required input 'B'"),
        ("def f(x):\n    return op.Relu(x, x)  # ERR\n", "at most 1 positional"),
        (
            "def f(x):\n    return op.Relu(x, alpha=1.0)  # ERR\n",
            "unexpected keyword argument 'alpha'",
        ),
        (
            "def f(x):\n    return op.Concat(x, x, axis='a')  # ERR\n",
            "expected a value of type int",
        ),
        ("def f(x):\n    return op.Concat(x, x)  # ERR\n", "missing required attribute 'axis'"),
        (
            "def f(x):\n    return op.Concat(x, x, axis=x)  # ERR\n",
            "must be known when the script is compiled",
        ),
        (
            "def f(x, k: int):\n    return op.RandomUniformLike(x, seed=k)  # ERR\n",
            "is float, but parameter 'k' is int",
        ),
        (
            "def f(x):\n    return [i for i in x]  # ERR\n",
            "unsupported Python expression (ListComp)",
        ),
        ("def f(x):\n    return lambda: x  # ERR\n", "Lambda"),
        ("def f(x):\n    return {'a': x}  # ERR\n", "Dict"),
        (
            "def f(x):\n    try:  # ERR\n        y = x\n    except Exception:\n        y = x\n    return y\n",
            "unsupported Python statement (Try)",
        ),
        ("def f(x):\n    assert x  # ERR\n    return x\n", "Assert"),
        ("def f(x):\n    raise ValueError()  # ERR\n", "Raise"),
        ("def f(x):\n    with x:  # ERR\n        pass\n    return x\n", "With"),
        ("def f(x):\n    global g  # ERR\n    return x\n", "Global"),
        ("def f(x):\n    x[0] = 1  # ERR\n    return x\n", "tensors are immutable"),
        ("def f(x):\n    a, b = x  # ERR\n    return a\n", "cannot unpack"),
        (
            "def f(x):\n    a, b = op.TopK(x, [1]), x, x  # ERR\n    return a\n",
            "cannot unpack 3 values into 2",
        ),
        ("def f(x):\n    a, b, c = op.TopK(x, [1])  # ERR\n    return a\n", "at most 2 output(s)"),
        ("def f(x):\n    return x is x  # ERR\n", "`is` cannot be used with tensors"),
        ("def f(x):\n    return x.shape  # ERR\n", "op.Shape(x)"),
        ("def f(x):\n    return print  # ERR\n", "is a builtin_function_or_method, not a tensor"),
        (
            "def f(x):\n    for i in 3:  # ERR\n        x = x + 1\n    return x\n",
            "cannot loop over 3",
        ),
        (
            "def f(x):\n    for i in (1, 2):  # ERR\n        if x > i:\n            break\n    return x\n",
            "inside a loop over a Python tuple",
        ),
        (
            "def f(x):\n    for i in range(1, 2, 3, 4):  # ERR\n        x = x + 1\n    return x\n",
            "range() takes 1 to 3",
        ),
        (
            "def f(x):\n    for i, j in range(3):  # ERR\n        x = x + 1\n    return x\n",
            "loop variable must be a plain name",
        ),
        ("def f(x):\n    if x > 0:\n        return x\n    y = x  # ERR\n", "ends without `return`"),
        ("def f(x):\n    y = x\n", "does not return anything"),
        ("def f(x):\n    return  # ERR\n", "`return` without a value"),
        (
            "def f(x):\n    if x > 0:  # ERR\n        y = x\n    return y\n",
            "has no value in the else branch",
        ),
        ("def f(x):\n    return len(x)  # ERR\n", "cannot be applied to tensors"),
        ("def f(x):\n    return x[1.5]  # ERR\n", "cannot index a tensor with float"),
        ("def f(x):\n    return x[::0]  # ERR\n", "slice step cannot be zero"),
        ("def f(x):\n    return x[..., ...]  # ERR\n", "only have one `...`"),
        ("def f(x: INT64):\n    return x + 0.5  # ERR\n", "would be truncated"),
        ("def f(x: INT64, y: FLOAT):\n    return x + y  # ERR\n", "does not promote types"),
        ("def f(x):\n    return x // 2  # ERR\n", "integers or floats"),
        ("def f(x: FLOAT):\n    return not x  # ERR\n", "needs BOOL tensors"),
        ("def f(x):\n    return 1 / 0  # ERR\n", "division by zero"),
        ("def f(x):\n    return f'{x}'  # ERR\n", "JoinedStr"),
        ("def f(x, *rest):  # ERR\n    return x\n", "*rest parameters are not supported"),
        (
            "def f(x: FLOAT = op.Constant(value_int=1)):  # ERR\n    return x\n",
            "has element type INT64, but its annotation declares FLOAT",
        ),
        ("def f(x: dict):  # ERR\n    return x\n", "unsupported annotation"),
        (
            "def f(x):\n    @staticmethod  # ERR\n    def g(y):\n        return y\n    return x\n",
            "can only be decorated",
        ),
    ],
)
def test_error_messages_and_locations(body, match):
    expect_error(body, match)


def test_opset_version_mixing_is_an_error():
    from onnxscript import opset17, opset18

    expect_error(
        "def f(x):\n    y = op17.Abs(x)\n    return op18.Neg(y)  # ERR\n",
        "opset 17 elsewhere",
        op17=opset17,
        op18=opset18,
    )


def test_nested_graph_called_directly_is_an_error():
    expect_error(
        "def f(x):\n    @graph()\n    def g(y):\n        return y\n    return g(x)  # ERR\n",
        "cannot be called directly",
        graph=__import__("onnxscript").graph,
    )


def test_error_in_indented_function_has_absolute_line_and_column():
    with pytest.raises(ScriptError) as info:

        @script()
        def f(x):
            return op.Add(x, nope)

    err = info.value
    assert err.filename == __file__
    import inspect

    assert err.lineno == inspect.currentframe().f_lineno - 6
    assert err.col == 29
    assert "op.Add(x, nope)" in str(err)


def test_non_ascii_source_gets_character_columns():
    err = expect_error("def f(x):\n    é = x\n    return é + ü  # ERR\n", "Unbound name: ü")
    assert err.col == len("    return é + ")


def test_decorator_misuse_is_a_type_error():
    def f(x):
        return x

    with pytest.raises(TypeError, match=r"@script\(\)"):
        script(f)
    with pytest.raises(TypeError, match="Opset"):
        script("this")
    with pytest.raises(TypeError, match="Python function"):
        script()(len)
    with pytest.raises(TypeError, match="default_opset"):
        script(default_opset=18)


def test_lambda_or_missing_source_is_a_script_error():
    fn = eval("lambda x: x")
    with pytest.raises(ScriptError, match=r"plain `def`|cannot read the source"):
        script()(fn)
