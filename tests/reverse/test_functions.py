"""Models with local functions, attribute parameters and custom domains; FunctionProtos."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh

from onnxscript.reverse import proto2python
from onnxscript.testing import run_model
from onnxscript.testing.isomorphism import differences
from tests.reverse.common import (
    FLOAT,
    assert_roundtrip,
    calling_model,
    compiled,
    function_proto,
    make_model,
    script_model,
    vi,
)

SOURCE = """
from onnxscript import script, FLOAT, Opset, opset18 as op
dom = Opset("my.domain.com", 1)

@script(dom)
def scaled(x, alpha: float = 0.5, dtype: int = 1):
    c = op.Constant(value_float=alpha)
    y = op.Mul(x, c)
    z = op.Cast(y, to=dtype)
    return z

@script(dom)
def twice(x, beta: float, names: list[str] = ["a"]):
    a = scaled(x, alpha=beta)
    b = op.Add(a, op.Constant(value_float=beta))
    c = op.Mul(b, op.Constant(value_float=beta))
    return c

@script()
def main(x: FLOAT[3]) -> FLOAT[3]:
    y = twice(x, beta=2.0)
    return y
"""


def _model() -> onnx.ModelProto:
    return script_model(SOURCE, "main")


def test_functions_with_attribute_parameters_round_trip():
    model = _model()
    source = assert_roundtrip(model).source
    assert 'my_domain_com = Opset("my.domain.com", 1)' in source
    assert "@script(my_domain_com)\ndef scaled(x, alpha: float = 0.5, dtype: int = 1):" in source
    assert '@script(my_domain_com)\ndef twice(x, beta: float, names: list[str] = ["a"]):' in source
    # Attribute references: a Constant of an attribute (twice) and Cast(to=<attribute>).
    assert "op.Constant(value_float=beta)" in source
    assert "op.Cast(y, to=dtype)" in source
    # Callees are defined before their callers, calls use the Python functions.
    assert source.index("def scaled(") < source.index("def twice(") < source.index("def main(")
    assert "a = scaled(x, alpha=beta)" in source
    assert "y = twice(x, beta=2.0)" in source


def test_function_results_match():
    model = _model()
    back = compiled(proto2python(model))
    x = np.array([1.0, 2.0, 3.0], np.float32)
    np.testing.assert_allclose(run_model(back, [x])[0], run_model(model, [x])[0])
    np.testing.assert_allclose(run_model(back, [x])[0], ((x * 2.0) + 2.0) * 2.0)


def test_function_proto_alone():
    fn = _model().functions
    scaled = next(f for f in fn if f.name == "scaled")
    source, back = assert_roundtrip(scaled)
    assert "def make_model" not in source
    assert isinstance(back, onnx.FunctionProto)
    assert back.domain == "my.domain.com"
    assert [a.name for a in back.attribute_proto] == ["alpha", "dtype"]


def test_attribute_without_type_information_and_unused_attribute():
    leaky = oh.make_node("LeakyRelu", ["x"], ["y"], alpha=0.2)
    model = calling_model(function_proto("local", "f", [leaky], ["unused"]), unused=3)
    source = assert_roundtrip(model).source
    assert "def f(x, unused: int):" in source


def test_reference_kind_comes_from_the_schema_when_the_proto_omits_it():
    ref = onnx.AttributeProto()
    ref.name = "alpha"
    ref.ref_attr_name = "a"  # no type set
    node = oh.make_node("LeakyRelu", ["x"], ["y"])
    node.attribute.append(ref)
    model = calling_model(function_proto("local", "f", [node], ["a"]), a=0.3)
    source = proto2python(model)
    assert "def f(x, a: float):" in source
    x = np.array([-1.0, 1.0], np.float32)
    np.testing.assert_allclose(run_model(compiled(source), [x])[0], [-0.3, 1.0], rtol=1e-6)


def test_custom_op_without_function_and_odd_op_names():
    model = make_model(
        [
            oh.make_node("Weird-Op", ["x"], ["a"], domain="com.example", k=1),
            oh.make_node("class", ["a"], ["a2"], domain="com.example"),
            oh.make_node("domain", ["a2"], ["b"], domain="com.example"),
            oh.make_node("Relu", ["b"], ["y"]),
        ],
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [2])],
        extra_opsets={"com.example": 2},
    )
    source = proto2python(model)
    assert 'com_example = Opset("com.example", 2)' in source
    assert 'a = com_example["Weird-Op"](x, k=1)' in source
    assert 'a2 = com_example["class"](a)' in source
    assert 'b = com_example["domain"](a2)' in source
    assert not differences(model, compiled(source), canonical=True)


def test_functions_calling_functions_in_any_order():
    inner = function_proto("d", "inner", [oh.make_node("Neg", ["x"], ["y"])])
    outer = function_proto(
        "d",
        "outer",
        [oh.make_node("inner", ["x"], ["t"], domain="d"), oh.make_node("Abs", ["t"], ["y"])],
        opsets={"d": 1},
    )
    model = calling_model(outer, inner)
    source = assert_roundtrip(model).source
    assert source.index("def inner(") < source.index("def outer(")


def test_custom_only_model_with_initializers_keeps_its_opset_imports():
    import onnx.numpy_helper as nh

    model = onnx.helper.make_model(
        oh.make_graph(
            [oh.make_node("Foo", ["x", "w"], ["y"], domain="custom")],
            "g",
            [vi("x", FLOAT, [2])],
            [vi("y", FLOAT, [2])],
            initializer=[nh.from_array(np.ones(2, np.float32), "w")],
        ),
        opset_imports=[oh.make_opsetid("custom", 1)],
        ir_version=8,
    )
    source = proto2python(model)
    assert "from onnxscript import opset1\n" not in source
    back = compiled(source)
    # The initializer's Constant statement becomes the initializer again: no ai.onnx node.
    assert {o.domain: o.version for o in back.opset_import} == {"custom": 1}
    assert [t.name for t in back.graph.initializer] == ["w"]
    assert not differences(model, back)
