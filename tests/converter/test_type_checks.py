"""Element types the op schemas refuse are located ScriptErrors when the script compiles
(each case below compiled to a model that onnx.checker or strict shape inference rejected
before the check), and models left without input/output types come with a warning."""

from __future__ import annotations

import warnings

import numpy as np
import onnx
import pytest

from onnxscript import BOOL, COMPLEX128, FLOAT, INT64, STRING, UINT8, ScriptError, script
from onnxscript import opset18 as op
from onnxscript.errors import ModelCheckWarning
from tests.helpers import checked_model, define, run_compiled

SCOPE = {
    "FLOAT": FLOAT,
    "BOOL": BOOL,
    "INT64": INT64,
    "STRING": STRING,
    "COMPLEX128": COMPLEX128,
    "UINT8": UINT8,
    "op": op,
}

# name: (body under `def f(x: FLOAT[2], v: BOOL[2], i: INT64[2], s: STRING[2],
#        c: COMPLEX128[2])`, words of the message, words of the hint)
CASES = {
    "~ on FLOAT": ("~x", "`~` needs BOOL or integer tensors", "compare first"),
    "- on BOOL": ("-v", "`-` (ONNX Neg) does not accept a BOOL tensor", "op.Cast"),
    "<< on FLOAT": (
        "x << x",
        "needs unsigned integer tensors, but this operand is FLOAT",
        "UINT64",
    ),
    "<< on INT64": (
        "i << i",
        "needs unsigned integer tensors, but this operand is INT64",
        "UINT64",
    ),
    "& on FLOAT": ("x & x", "`&` needs BOOL or integer tensors", "compare first"),
    "< on COMPLEX128": ("c < c", "`<` (ONNX Less) does not accept a COMPLEX128", "op.Cast"),
    "Cast to 999": ("op.Cast(x, to=999)", "to=999 is not an element type", "to=FLOAT"),
    "== on STRING at opset 18": (
        's == "abc"',
        "`==` (ONNX Equal) does not accept a STRING",
        "opset19",
    ),
    "MatMul of FLOAT and INT64": (
        "op.MatMul(x, i)",
        "MatMul needs the same element type for its inputs 'A' and 'B' (type T), but they "
        "are FLOAT and INT64",
        "op.CastLike",
    ),
    "Relu of STRING": ("op.Relu(s)", "Relu does not accept a STRING tensor for its input 'X'", ""),
    "Concat of mixed types": ("op.Concat(x, x, i, axis=0)", "Concat needs the same", ""),
    "Cast to FLOAT8 before opset 19": (
        "op.Cast(x, to=17)",
        "Cast cannot produce FLOAT8E4M3FN at this opset",
        "newer opset",
    ),
}

SIGNATURE = "def f(x: FLOAT[2], v: BOOL[2], i: INT64[2], s: STRING[2], c: COMPLEX128[2]):\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_refused_where_written(name):
    body, message, hint = CASES[name]
    f = define(SIGNATURE + f"    return {body}\n", dict(SCOPE))
    with pytest.raises(ScriptError) as caught:
        script()(f)
    error = caught.value
    assert message in error.message
    assert hint in error.hint
    assert error.lineno == 2
    assert error.source_line.strip() == f"return {body}"


def test_if_branches_of_different_types_are_refused():
    source = (
        "def f(x: FLOAT[2], c: BOOL):\n"
        "    if c:\n"
        "        y = op.Cast(x, to=7)\n"
        "    else:\n"
        "        y = op.Cast(x, to=8)\n"
        "    return y\n"
    )
    with pytest.raises(ScriptError, match="'y' is INT64 on one path and STRING on another"):
        script()(define(source, dict(SCOPE)))


def test_types_the_schemas_accept_still_compile_and_run():
    source = (
        "def f(x: FLOAT[2], v: BOOL[2], i: INT64[2], u: UINT8[2]):\n"
        "    a = ~v & (x < 1.0)\n"
        "    b = ~i | (i ^ 3)\n"
        "    w = u << u\n"
        "    return op.Where(a, -x, op.Cast(b, to=FLOAT)), w\n"
    )
    f = script()(define(source, dict(SCOPE)))
    model = checked_model(f)
    onnx.shape_inference.infer_shapes(model, check_type=True, strict_mode=True)
    x = np.array([0.5, 2.0], dtype=np.float32)
    v = np.array([True, False])
    i = np.array([1, 6], dtype=np.int64)
    u = np.array([1, 2], dtype=np.uint8)
    compiled = run_compiled(f, x, v, i, u)
    eager = f(x, v, i, u)
    for got, want in zip(compiled, eager):
        np.testing.assert_array_equal(got, want)


def test_eager_tensors_follow_the_same_rule():
    from onnxscript.errors import OperatorTypeError
    from onnxscript.evaluator.tensor import Tensor

    x = Tensor(np.array([1.0, 2.0], dtype=np.float32))
    with pytest.raises(OperatorTypeError, match="`~` needs BOOL or integer tensors"):
        ~x
    with pytest.raises(OperatorTypeError, match="needs unsigned integer tensors"):
        Tensor(np.array([1, 2], dtype=np.int64)) << 1


@pytest.mark.parametrize(
    ("source", "names", "fix"),
    [
        (
            "def f(x):\n    return op.Relu(x)\n",
            ["input 'x' has no type", "input_types=", "io_types="],
            {"io_types": FLOAT["N"]},
        ),
        (
            "def f(x: FLOAT[...]) -> FLOAT[...]:\n    return op.Relu(x)\n",
            ["input 'x' has no shape", "output 'return_val' has no shape", "output_types="],
            {"input_types": [FLOAT["N"]], "output_types": [FLOAT["N"]]},
        ),
    ],
)
def test_incomplete_models_are_warned_about(source, names, fix):
    f = script()(define(source, dict(SCOPE)))
    with pytest.warns(ModelCheckWarning) as record:
        model = f.to_model_proto()
    text = str(record[0].message)
    for name in names:
        assert name in text
    assert record[0].filename == __file__
    with pytest.raises(onnx.checker.ValidationError):
        onnx.checker.check_model(model, full_check=True)
    # The option the warning names completes the model.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fixed = f.to_model_proto(**fix)
    onnx.checker.check_model(fixed, full_check=True)


def test_complete_models_and_graphs_give_no_warning():
    f = script()(define("def f(x):\n    return op.Relu(x)\n", dict(SCOPE)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f.to_graph_proto()
        f.to_function_proto()


def test_models_the_checker_rejects_are_warned_about():
    source = "def f(x: FLOAT[2, 3]) -> FLOAT[5]:\n    return op.Relu(x)\n"
    f = script()(define(source, dict(SCOPE)))
    with pytest.warns(ModelCheckWarning, match="onnx.checker rejects the model: .*Relu"):
        model = f.to_model_proto()
    with pytest.raises(onnx.shape_inference.InferenceError):
        onnx.checker.check_model(model, full_check=True)


def test_split_makes_as_many_outputs_as_num_outputs_says():
    # onnx's shape inference aborts the whole process on such a model (found by the
    # mutation fuzz test), so the compiler must not produce it.
    source = "def f(x: FLOAT[6]):\n    a, b, c = op.Split(x, num_outputs=1)\n    return a, b, c\n"
    with pytest.raises(ScriptError, match=r"Split\(num_outputs=1\) makes 1 output\(s\), but"):
        script()(define(source, dict(SCOPE)))


def test_integral_floats_past_an_integer_type_are_refused():
    source = "def f(n: INT64):\n    return n * 1e300\n"
    with pytest.raises(ScriptError, match=r"the number 1e\+300 is combined with an INT64"):
        script()(define(source, dict(SCOPE)))


def test_external_data_not_written_yet_gives_no_warning():
    from onnxscript.model_checks import warn_if_rejected

    f = script()(define("def f(x: FLOAT[2]) -> FLOAT[2]:\n    return op.Relu(x)\n", dict(SCOPE)))
    model = f.to_model_proto()
    tensor = onnx.TensorProto(name="w", data_type=onnx.TensorProto.FLOAT, dims=[2])
    tensor.data_location = onnx.TensorProto.EXTERNAL
    entry = tensor.external_data.add()
    entry.key, entry.value = "location", "weights-not-written-yet.bin"
    model.graph.initializer.append(tensor)
    with pytest.raises(onnx.checker.ValidationError, match="should be stored in"):
        onnx.checker.check_model(model, full_check=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warn_if_rejected(model)
