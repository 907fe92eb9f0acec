"""Source capture finds the whole function, however its last statement is written."""

from __future__ import annotations

import inspect
import uuid

import numpy as np
import pytest

from onnxscript import FLOAT, graph, register_source, script
from onnxscript import opset18 as op
from onnxscript.source import parse_function
from tests.helpers import assert_close, run_compiled


def identity(fn):
    return fn


def test_multiline_last_statement():
    @script()
    def f(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.Add(
            x,
            x,
        )  # closing bracket on its own line

    x = np.array([1.0], np.float32)
    assert_close(run_compiled(f, x), [x + x])


def test_trailing_else_pass_and_comments():
    @script()
    def f(x: FLOAT) -> FLOAT:
        y = x
        if x > 0:
            y = x * 2
        else:
            pass
        # a comment
        return y

    x = np.array(2.0, np.float32)
    assert_close(run_compiled(f, x), [x * 2])


def test_several_decorators_and_nested_graph_last():
    @identity
    @script()
    @identity
    def f(x: FLOAT[2, 3]) -> FLOAT[2, 3]:
        @graph()
        def body(s: FLOAT[3], r: FLOAT[3]):
            t = s + r
            return t, t

        a, b = op.Scan(op.ConstantOfShape(op.Constant(value=[3])), x, body=body, num_scan_inputs=1)
        return b

    x = np.ones((2, 3), np.float32)
    assert_close(run_compiled(f, x), [np.cumsum(x, axis=0)])


def test_same_lines_as_inspect():
    def g(x):
        y = x + [  # noqa: RUF005  (a statement over several lines)
            1,
        ]
        return y

    fdef, source = parse_function(g)
    lines, start = inspect.getsourcelines(g)
    assert source.text() == "".join(lines)
    assert source.line_offset + 2 == start  # the synthetic "if 1:" line for indented code


def test_exec_source_needs_registration():
    # A function name nothing registered before (this test may run twice in a process): a
    # registered source with the same code would be found.
    name = f"unregistered_{uuid.uuid4().hex}"
    source = f"def {name}(x):\n    return x\n"
    namespace: dict = {}
    exec(compile(source, "<not-registered>", "exec"), namespace)
    from onnxscript import ScriptError

    with pytest.raises(ScriptError, match=r"register_source\(source\) before exec\(source\)"):
        script()(namespace[name])
    register_source(source, "<registered>")
    exec(compile(source, "<registered>", "exec"), namespace)
    compiled = script()(namespace[name])
    assert compiled.to_function_proto().node[0].op_type == "Identity"


def _exec(source: str, filename: str = "<string>") -> dict:
    namespace = {"script": script, "FLOAT": FLOAT, "op": op}
    exec(compile(source, filename, "exec"), namespace)
    return namespace


def _op_types(fn) -> list[str]:
    return [n.op_type for n in fn.to_function_proto().node]


def test_plain_exec_of_a_registered_source():
    source = "@script()\ndef plain_exec_f(x: FLOAT['N']) -> FLOAT['N']:\n    return op.Abs(x)\n"
    register_source(source)  # no file name: one is made up
    assert _op_types(_exec(source)["plain_exec_f"]) == ["Abs"]


def test_exec_under_another_name_than_the_registered_one():
    source = "@script()\ndef renamed_f(x: FLOAT['N']) -> FLOAT['N']:\n    return op.Neg(x)\n"
    register_source(source, "model_code.py")
    assert _op_types(_exec(source, "something_else.py")["renamed_f"]) == ["Neg"]


def test_errors_name_the_registered_file():
    source = "@script()\ndef bad_f(x: FLOAT['N']) -> FLOAT['N']:\n    return len(x)\n"
    register_source(source, "my_model.py")
    from onnxscript import ScriptError

    with pytest.raises(ScriptError) as info:
        _exec(source)
    assert (info.value.filename, info.value.lineno) == ("my_model.py", 3)
    assert info.value.source_line.strip() == "return len(x)"


def test_registered_sources_with_the_same_function_name_are_told_apart():
    """The source is the one whose compiled code equals the function's, not the first one
    that defines a function of that name."""
    template = "@script()\ndef twin_f(x: FLOAT['N']) -> FLOAT['N']:\n    return op.{}(x)\n"
    first, second = template.format("Abs"), template.format("Neg")
    register_source(first)
    register_source(second)
    assert _op_types(_exec(second)["twin_f"]) == ["Neg"]
    assert _op_types(_exec(first)["twin_f"]) == ["Abs"]


def test_reloaded_module_compiles_its_new_body(tmp_path):
    """After the file is edited and the module reloaded, the new body is compiled (not the
    one linecache read before)."""
    import importlib
    import sys

    path = tmp_path / "edited_module.py"
    template = (
        "from onnxscript import FLOAT, script\n"
        "from onnxscript import opset18 as op\n\n\n"
        "@script()\n"
        "def f(x: FLOAT[2]) -> FLOAT[2]:\n"
        "    return op.{}(x, x)\n"
    )
    path.write_text(template.format("Add"))
    sys.path.insert(0, str(tmp_path))
    try:
        module = importlib.import_module("edited_module")
        x = np.array([2.0, 3.0], np.float32)
        assert_close(run_compiled(module.f, x), [x + x])
        path.write_text(template.format("Mul") + "# the file is now longer\n")
        module = importlib.reload(module)
        assert [n.op_type for n in module.f.to_function_proto().node] == ["Mul"]
        assert_close(run_compiled(module.f, x), [x * x])
        assert_close(module.f(x), x * x)
    finally:
        sys.modules.pop("edited_module", None)
        sys.path.remove(str(tmp_path))
