"""Every hint the compiler gives, triggered by a real script, checked word for word: it
says what to write instead, names the user's own operands rather than a made-up variable,
and reads correctly. (The hints of op input types are in test_type_checks.py.)"""

from __future__ import annotations

import math
import textwrap

import numpy as np
import pytest

import onnxscript
from onnxscript import BOOL, FLOAT, INT32, INT64, Opset, ScriptError, graph, script
from onnxscript import opset18 as op
from onnxscript.dtypes import dtype_name_with_article
from tests.helpers import define


@script(trace_only=True)
def traced(x):
    return x


def helper(v):
    return v


class Scale:
    def __call__(self, v):
        return v


@graph()
def outer_body(s, v):
    return s, v


NAMESPACE = {
    "script": script,
    "graph": graph,
    "FLOAT": FLOAT,
    "INT64": INT64,
    "INT32": INT32,
    "BOOL": BOOL,
    "op": op,
    "op13": onnxscript.opset13,
    "op15": onnxscript.opset15,
    "np": np,
    "math": math,
    "traced": traced,
    "helper": helper,
    "Scale": Scale,
    "custom": Opset("com.example", 1),
    "outer_body": outer_body,
    "bounds": (0, 3),
}


def hint_of(body: str, **namespace) -> str:
    """The hint of the ScriptError that compiling ``body`` (a function ``f``, decorated
    here with ``@script()``) raises."""
    source = "@script()\n" + textwrap.dedent(body)
    with pytest.raises(ScriptError) as info:
        define(source, {**NAMESPACE, **namespace})
    return info.value.hint


CASES: dict[str, tuple[str, str]] = {
    # -- calls -------------------------------------------------------------------------------
    "numpy function": ("def f(x):\n    return np.exp(x)\n", "write op.Exp(x)"),
    "math function": ("def f(x):\n    return math.sqrt(x)\n", "write op.Sqrt(x)"),
    "numpy reduction": (
        "def f(x):\n    return np.sum(x)\n",
        "write op.ReduceSum(x, keepdims=0)",
    ),
    "len": ("def f(x):\n    return len(x)\n", "write op.Shape(x, start=0, end=1)"),
    "int": ("def f(x):\n    return int(x)\n", "write op.Cast(x, to=INT64)"),
    "max of two": ("def f(x, y):\n    return max(x, y)\n", "write op.Max(x, y)"),
    "library function without an op": (
        "def f(x):\n    return np.linalg.norm(x)\n",
        "compute it with ONNX ops (op.Add, op.ReduceSum, ...: see docs/language.md)",
    ),
    "numpy function named like another op": (
        "def f(x):\n    return np.identity(x)\n",
        "compute it with ONNX ops (op.Add, op.ReduceSum, ...: see docs/language.md)",
    ),
    "user python function": (
        "def f(x):\n    return helper(x)\n",
        "decorate helper with @script() to call it as a script function, or compute it with "
        "ONNX ops",
    ),
    "other callable": (
        "def f(x):\n    return Scale()(x)\n",
        "compute it with ONNX ops (op.Add, op.ReduceSum, ...: see docs/language.md)",
    ),
    "traced function called": (
        "def f(x):\n    return traced(x)\n",
        "call traced from Python or from another traced function, or compile it with "
        "@script() (without trace_only) if its body is a script",
    ),
    "graph function called": (
        "def f(x):\n    @graph()\n    def body(s, v):\n        return s, v\n    return body(x, x)\n",
        "pass it as a graph attribute, e.g. op.Scan(..., body=body)",
    ),
    "output count with num_outputs": (
        "def f(x):\n    return op.Split(x)\n",
        "unpack them, e.g. `a, b = op.Split(...)`, or give their number, e.g. "
        "op.Split(..., num_outputs=2)",
    ),
    "output count without num_outputs": (
        "def f(x):\n    return op13.Split(x)\n",
        "unpack them, e.g. `a, b = op13.Split(...)`",
    ),
    "attribute kind": (
        "def f(x, k: int):\n    return op.RandomUniformLike(x, seed=k)\n",
        "declare the parameter with the type the op expects",
    ),
    "run-time attribute": (
        "def f(x):\n    return op.Concat(x, x, axis=x)\n",
        "attributes take Python constants or attribute parameters; pass run-time values as inputs",
    ),
    "attribute type unknown": (
        "def f(x):\n    return custom.MyOp(x, a=[])\n",
        "give a non-empty list, a number, a string or a numpy array",
    ),
    "missing input": (
        "def f(x):\n    return op.Add(x)\n",
        "Add takes inputs (A, B) and attributes (none)",
    ),
    "missing input of an op with optional inputs": (
        "def f(x):\n    return op.Pad()\n",
        "Pad takes inputs (data, pads, constant_value?, axes?) and attributes (mode); "
        "? marks optional inputs",
    ),
    "two opset versions": (
        "def f(x):\n    y = op.Abs(x)\n    return op15.Abs(y)\n",
        "use one opset version per domain in a function (for example import `opset18 as op` "
        "once and use `op` everywhere)",
    ),
    # -- control flow ------------------------------------------------------------------------
    "multi-output call in a branch": (
        "def f(x, c: BOOL):\n    y = x\n    if c:\n        y = op.TopK(x, [1])\n    return y\n",
        "unpack the call into separate variables, e.g. `a, b = op.TopK(...)`",
    ),
    "assigned in one branch": (
        "def f(x, c: BOOL):\n    if c:\n        y = x\n    return y\n",
        "give 'y' a value before the if, or assign it in both branches",
    ),
    "range with keywords": (
        "def f(x):\n    for i in range(start=0, stop=3):\n        x = x + 1.0\n    return x\n",
        "the loop must be `for i in range(n)`, `range(start, stop)` or `range(start, stop, step)`",
    ),
    "range unpacked": (
        "def f(x):\n    for i in range(*bounds):\n        x = x + 1.0\n    return x\n",
        "the loop must be `for i in range(n)`, `range(start, stop)` or `range(start, stop, step)`",
    ),
    "range of a float": (
        "def f(x):\n    for i in range(2.5):\n        x = x + 1.0\n    return x\n",
        "the loop must be `for i in range(n)`, `range(start, stop)` or `range(start, stop, step)`",
    ),
    "range loop target": (
        "def f(x):\n    for i, j in range(3):\n        x = x + 1.0\n    return x\n",
        "write `for i in range(n):`",
    ),
    "loop over a number": (
        "def f(x):\n    for i in 3:\n        x = x + 1.0\n    return x\n",
        "loop over range(...), a tensor (its first axis), or a tuple or list known when the "
        "script is compiled",
    ),
    "break in an unrolled loop": (
        "def f(x):\n    for v in (1, 2):\n        x = x + v\n        if x:\n            break\n"
        "    return x\n",
        "loop over range(len(...)) with an index, or restructure without the jump",
    ),
    "first assigned in a loop": (
        "def f(n: INT64):\n    for i in range(n):\n        y = custom.MyOp(n)\n    return y\n",
        "give 'y' a value before the loop, or annotate the function's inputs and return type",
    ),
    "graph defined outside": (
        "def f(x):\n    return op.Scan(x, body=outer_body, num_scan_inputs=1)\n",
        "define graph functions (such as a Scan body) inside the script that uses them",
    ),
    "branch types differ": (
        "def f(x: FLOAT, c: BOOL):\n    if c:\n        y = x\n    else:\n"
        "        y = op.Cast(x, to=7)\n    return y\n",
        "ONNX If branches must produce values of the same type; add a Cast",
    ),
    "loop types differ": (
        "def f(x: FLOAT, n: INT64):\n    y = x\n    for i in range(n):\n"
        "        y = op.Cast(y, to=7)\n    return y\n",
        "a loop-carried value keeps one element type; add a Cast",
    ),
    # -- names -------------------------------------------------------------------------------
    "deleted attribute parameter": (
        "def f(x, k: int = 1):\n    del k\n    return op.Add(x, k)\n",
        "the attribute parameter 'k' was deleted with `del` before this line",
    ),
    "deleted variable": (
        "def f(x):\n    y = x\n    del y\n    return y\n",
        "'y' was deleted with `del` before this line (on some path that reaches it); assign "
        "it again before reading it",
    ),
    "read before assigned": (
        "def f(x):\n    z = y\n    y = x\n    return z\n",
        "'y' is assigned in this function but has no value here; assign it before this line "
        "(on every path that reaches it)",
    ),
    "unknown name": (
        "def f(x):\n    return undefined_name\n",
        "'undefined_name' is not a variable of the function, a global or a closure variable; "
        "check the spelling or define it before use",
    ),
    # -- expressions -------------------------------------------------------------------------
    "lambda": (
        "def f(x):\n    return lambda: x\n",
        "define a nested function with `def` and pass it as a graph attribute",
    ),
    "list comprehension": (
        "def f(x):\n    return [i for i in x]\n",
        "write the loop explicitly with `for i in range(n)`",
    ),
    "generator": (
        "def f(x):\n    return op.Concat(*(i for i in x), axis=0)\n",
        "write the loop explicitly with `for i in range(n)`",
    ),
    "dict comprehension": (
        "def f(x):\n    return {i: i for i in x}\n",
        "dictionaries are not tensors; compute values with ops",
    ),
    "set comprehension": (
        "def f(x):\n    return {i for i in x}\n",
        "sets are not tensors; compute values with ops",
    ),
    "dict": (
        "def f(x):\n    return {'a': x}\n",
        "dictionaries are not tensors; pass attributes as keyword arguments",
    ),
    "set": ("def f(x):\n    return {x}\n", "sets are not tensors; use a list of constants"),
    "f-string": (
        "def f(x):\n    return f'{x}'\n",
        "build strings outside the script and use them as constants",
    ),
    "walrus": (
        "def f(x):\n    return (y := x)\n",
        "assign the value in a separate statement",
    ),
    "starred index": (
        "def f(x, i):\n    return x[*i]\n",
        "unpacking with * is only allowed in call arguments",
    ),
    "nested function as a tensor": (
        "def f(x):\n    def inner(v):\n        return v\n    return op.Add(x, inner)\n",
        "pass it as a graph attribute, e.g. op.Scan(..., body=inner)",
    ),
    "None as a tensor": (
        "def f(x):\n    return x + None\n",
        "None only stands for an omitted optional input of an op call",
    ),
    "not tensor data": (
        "def f(x):\n    return op.Add(x, op)\n",
        "only numbers, strings, lists of them, numpy arrays and tensors can be used as tensor "
        "values",
    ),
    "complex literal": (
        "def f(x):\n    return op.Add(x, [1j, x])\n",
        "use numpy arrays for complex values",
    ),
    "tensor .shape": ("def f(y):\n    return y.shape\n", "use op.Shape(y)"),
    "tensor .dtype": (
        "def f(x):\n    return x.dtype\n",
        "element types are static; annotate the input",
    ),
    "tensor .T": ("def f(y):\n    return op.Abs(y).T\n", "use op.Transpose(op.Abs(y))"),
    "tensor .ndim": ("def f(y):\n    return y.ndim\n", "use op.Size(op.Shape(y))"),
    "tensor other attribute": ("def f(x):\n    return x.sum\n", "call an op instead"),
    "float index": (
        "def f(x):\n    return x[1.5]\n",
        "indices are integers, slices, `...`, None, or INT64 tensors",
    ),
    "tensor step without bounds": (
        "def f(x, s: INT64):\n    return x[::s]\n",
        "write x[start:stop:step]; the default bounds depend on the step's sign",
    ),
    "new axis after a tensor index": (
        "def f(x, i: INT64['N']):\n    return x[i, None]\n",
        "index first, then add the axis with op.Unsqueeze",
    ),
    # -- operators: the operand's own text where the expression shows which it is -----------
    "operand types differ": (
        "def f(x: FLOAT, i: INT64):\n    return x + i\n",
        "ONNX does not promote types: cast one operand to the other's type, e.g. "
        "op.Cast(i, to=FLOAT)",
    ),
    "operand types differ, an expression": (
        "def f(n: INT64, y: FLOAT):\n    return op.Abs(y) * (n + 1)\n",
        "ONNX does not promote types: cast one operand to the other's type, e.g. "
        "op.Cast(n + 1, to=FLOAT)",
    ),
    "compared types differ": (
        "def f(i: INT64, x: FLOAT):\n    return i < x\n",
        "ONNX does not promote types: cast one operand to the other's type, e.g. "
        "op.Cast(x, to=INT64)",
    ),
    "augmented assignment types differ": (
        "def f(x: FLOAT, k: INT64):\n    x += k\n    return x\n",
        "ONNX does not promote types: cast one operand to the other's type, e.g. "
        "op.Cast(k, to=FLOAT)",
    ),
    "not on a float": (
        "def f(y: FLOAT):\n    return not op.Abs(y)\n",
        "compare first, e.g. `op.Abs(y) > 0`, or cast with op.Cast(op.Abs(y), to=BOOL)",
    ),
    "and on a float: no one operand": (
        "def f(y: FLOAT, c: BOOL):\n    return c and y\n",
        "compare first, e.g. `... > 0`, or cast with op.Cast(..., to=BOOL)",
    ),
    "floor division of unknown types": (
        "def f(x, y):\n    return x // y\n",
        "annotate the inputs with their tensor types (a parameter `x: INT64`), or "
        "write op.Floor(op.Div(..., ...)) for floats",
    ),
    "is": (
        "def f(x, y):\n    return x is y\n",
        "use ==, !=, <, <=, >, >= (they compare element-wise)",
    ),
    "in": (
        "def f(x, y):\n    return x in y\n",
        "use ==, !=, <, <=, >, >= (they compare element-wise)",
    ),
    "~ on a float": (
        "def f(x: FLOAT):\n    return ~x\n",
        "compare first to get BOOL, e.g. `(... > 0)`, or cast with op.Cast(..., to=INT64)",
    ),
    "<< on a signed integer": (
        "def f(x: INT64):\n    return x << 1\n",
        "cast with op.Cast(..., to=UINT64) first, or multiply/divide by a power of two",
    ),
    "integer too large for the tensor": (
        "def f(x: INT32):\n    return x + 3000000000\n",
        "cast the tensor to a wider type first, e.g. op.Cast(..., to=INT64)",
    ),
    "integer too large for INT64": (
        "def f(x: INT64):\n    return x + 2**64\n",
        "cast the tensor to a wider type first, e.g. op.Cast(..., to=DOUBLE)",
    ),
    "float with an integer tensor": (
        "def f(x: INT64):\n    return x + 0.5\n",
        "ONNX ops need operands of one type: cast the tensor first, e.g. op.Cast(..., to=FLOAT)",
    ),
    # -- functions and parameters ------------------------------------------------------------
    "no return": (
        "def f(x):\n    y = x\n",
        "a script function must return one or more tensors",
    ),
    "returns None": (
        "def f(x):\n    return None\n",
        "return a tensor; None on some branches only makes the output optional",
    ),
    "bare return": (
        "def f(x):\n    return\n",
        "a script must return tensors",
    ),
    "bare early return": (
        "def f(x, c: BOOL):\n    if c:\n        return\n    return x\n",
        "a script function must return tensors",
    ),
    "returns of different lengths": (
        "def f(x, c: BOOL):\n    if c:\n        return x, x\n    return x, x, x\n",
        "every return of a script function must give the same number of values",
    ),
    "path without return": (
        "def f(x, c: BOOL):\n    if c:\n        return x\n    y = x\n",
        "every path of a script function must return a value",
    ),
    "optional element type unknown": (
        "def f(x, c: BOOL):\n    if c:\n        y = None\n    else:\n        y = x\n    return y\n",
        "annotate the function's inputs, or Cast the value given to 'y'",
    ),
    "optional loop-carried": (
        "def f(x, n: INT64):\n    y = None\n    for i in range(n):\n        y = x\n    return y\n",
        "give 'y' a tensor value before the loop",
    ),
    "unsupported annotation": (
        "def f(x: dict):\n    return x\n",
        "annotate inputs with tensor types (FLOAT, INT64[...], ...) and attributes with int, "
        "float, str, bool or list[int]/list[float]/list[str]",
    ),
    "input default": (
        "def f(x: FLOAT = object()):\n    return x\n",
        "a tensor input takes None (optional) or tensor data (an array, a number, "
        "op.Constant(...)) of its annotated element type as its default",
    ),
    "*args": ("def f(*xs):\n    return xs\n", "list the inputs one by one"),
    "attribute compared with None": (
        "def f(x, k: int = None):\n    if k is None:\n        return x\n    return x\n",
        "give 'k' a default value and compare it with that value",
    ),
    # -- statements --------------------------------------------------------------------------
    "try": (
        "def f(x):\n    try:\n        y = x\n    except Exception:\n        y = x\n    return y\n",
        "exceptions do not exist in ONNX; remove the try/except",
    ),
    "raise": (
        "def f(x):\n    raise ValueError()\n",
        "exceptions do not exist in ONNX; validate inputs before calling the model",
    ),
    "assert": (
        "def f(x):\n    assert x\n    return x\n",
        "assertions do not exist in ONNX; check values in eager mode instead",
    ),
    "with": (
        "def f(x):\n    with x:\n        pass\n    return x\n",
        "context managers are not supported in scripts",
    ),
    "import": (
        "def f(x):\n    import os\n    return x\n",
        "import modules at the top of the file, outside the script",
    ),
    "from import": (
        "def f(x):\n    from os import path\n    return x\n",
        "import modules at the top of the file, outside the script",
    ),
    "global": ("def f(x):\n    global g\n    return x\n", "scripts cannot modify globals"),
    "class": (
        "def f(x):\n    class C:\n        pass\n    return x\n",
        "define classes outside the script",
    ),
    "match": (
        "def f(x):\n    match x:\n        case _:\n            pass\n    return x\n",
        "use if/elif/else",
    ),
    "async def": (
        "def f(x):\n    async def g():\n        pass\n    return x\n",
        "scripts are not asynchronous",
    ),
    "unpack a tensor": (
        "def f(x):\n    a, b = x\n    return a\n",
        "the right-hand side must be a tuple or a multi-output op call",
    ),
    "assign to an element": (
        "def f(x):\n    x[0] = 1\n    return x\n",
        "compute a new tensor, e.g. with op.ScatterND or op.Where",
    ),
    "annotation without a value": (
        "def f(x):\n    y: FLOAT[3]\n    return x\n",
        "write `x: FLOAT[3] = ...`",
    ),
    "augmented assignment to an element": (
        "def f(x):\n    x[0] += 1\n    return x\n",
        "tensors are immutable; compute a new tensor",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_hint_text(name: str):
    body, expected = CASES[name]
    assert hint_of(body) == expected


def test_optional_value_needs_opset_15():
    body = (
        "def f(x: FLOAT, c: BOOL):\n    if c:\n        y = None\n    else:\n"
        "        y = op.Abs(x)\n    return y\n"
    )
    expected = "import opset15 (or newer) as op, or give 'y' a tensor on every path"
    assert hint_of(body, op=onnxscript.opset14) == expected


def test_presence_test_needs_opset_18():
    body = "def f(x: FLOAT = None):\n    return op.OptionalHasElement(x)\n"
    assert hint_of(body, op=onnxscript.opset15) == "import opset18 (or newer) as op"


def test_nesting_too_deep():
    """Early returns become nested if/else; 40 of them nest deeper than ONNX can load."""
    branches = "".join(f"    if c{i}:\n        return x\n" for i in range(40))
    params = ", ".join(f"c{i}: BOOL" for i in range(40))
    assert hint_of(f"def f(x, {params}):\n{branches}    return x\n") == (
        "ONNX models cannot nest that many If/Loop subgraphs; combine conditions, compute "
        "candidates and pick one with op.Where, or split the function"
    )


def test_nonlocal():
    source = (
        "def outer():\n    y = 1\n\n    @script()\n    def f(x):\n        nonlocal y\n"
        "        return x\n\n    return f\n"
    )
    make = define(source, NAMESPACE, name="outer")
    with pytest.raises(ScriptError) as info:
        make()
    assert info.value.hint == "scripts cannot modify enclosing variables"


def test_unreadable_source():
    namespace = dict(NAMESPACE)
    exec("def never_registered(x):\n    return x\n", namespace)
    with pytest.raises(ScriptError) as info:
        script()(namespace["never_registered"])
    assert info.value.hint == (
        "define script functions in a file or notebook cell; for code run with exec, call "
        "onnxscript.register_source(source) before exec(source)"
    )


def test_unparsable_source():
    """The registered text is not the text that ran (a broken copy)."""
    filename = "<test-hints-unparsable>"
    onnxscript.register_source("def unparsable(x):\n    return (x\n", filename)
    namespace: dict = {}
    exec(compile("def unparsable(x):\n    return x\n", filename, "exec"), namespace)
    with pytest.raises(ScriptError) as info:
        script()(namespace["unparsable"])
    assert info.value.hint == (
        "the whole function must be readable from its file; lambdas and functions defined "
        "on one line with other code are not supported"
    )


def test_eager_operator_hint_has_no_made_up_operand():
    """Eager mode applies the same rule on arrays and has no source text: a placeholder."""
    from onnxscript.evaluator.tensor import Tensor

    with pytest.raises(TypeError) as info:
        Tensor(np.ones(2, np.float32)) + Tensor(np.ones(2, np.int64))
    assert str(info.value) == (
        "`+` combines a FLOAT tensor with an INT64 tensor; ONNX does not promote types: cast "
        "one operand to the other's type, e.g. op.Cast(..., to=FLOAT)"
    )


@pytest.mark.parametrize(
    ("code", "text"),
    [(1, "a FLOAT"), (7, "an INT64"), (2, "a UINT8"), (9, "a BOOL"), (99, "an element type 99")],
)
def test_element_type_with_article(code: int, text: str):
    assert dtype_name_with_article(code) == text
