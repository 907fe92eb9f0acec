"""Straight-line scripts: op calls, operators, literals, attributes, calls, docstrings.

Each test compiles, checks the model with the full onnx checker, runs it with onnxruntime
and compares with the same math in numpy.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from onnxscript import BOOL, DOUBLE, FLOAT, INT64, STRING, Opset, script
from onnxscript import opset18 as op
from onnxscript.errors import ModelCheckWarning
from tests.helpers import assert_close, checked_model, define, run_compiled, run_model

rng = np.random.default_rng(0)
X = rng.standard_normal((3, 4)).astype(np.float32)
Y = rng.standard_normal((3, 4)).astype(np.float32)


def test_op_calls_positional_and_keyword_inputs():
    @script()
    def f(x: FLOAT[3, 4], y: FLOAT[3, 4]) -> FLOAT[3, 4]:
        a = op.Add(x, y)
        b = op.Mul(A=a, B=y)
        return op.Sub(B=x, A=b)

    assert_close(run_compiled(f, X, Y), [(X + Y) * Y - X])


def test_keyword_input_gives_same_node_as_positional():
    @script()
    def pos(x: FLOAT["N"], s: INT64[2]) -> FLOAT["N", "M"]:
        return op.Expand(x, s)

    @script()
    def kw(x: FLOAT["N"], s: INT64[2]) -> FLOAT["N", "M"]:
        return op.Expand(shape=s, input=x)

    a = pos.to_function_proto().node
    b = kw.to_function_proto().node
    assert [n.input for n in a] == [n.input for n in b]


def test_optional_input_by_name_lands_in_its_slot():
    @script()
    def f(x: FLOAT[1, 1, 2, 2]) -> FLOAT[1, 1, 4, 4]:
        return op.Resize(x, sizes=[1, 1, 4, 4], mode="nearest")

    model = checked_model(f)
    resize = next(n for n in model.graph.node if n.op_type == "Resize")
    assert len(resize.input) == 4 and resize.input[1] == "" and resize.input[2] == ""
    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    expected = x.repeat(2, axis=2).repeat(2, axis=3)
    assert_close(run_model(model, x), [expected])


def test_attributes_may_follow_the_inputs_positionally():
    """As onnxscript 0.7's compiler takes them: attributes in schema order after every
    input, compiled and eager alike (the same node as the keyword form)."""

    @script()
    def positional(x: FLOAT[3, 4]) -> FLOAT[3, 4]:
        fill = op.ConstantOfShape([3, 4], [-1.0])
        return op.Add(op.Softmax(x, 0), fill)

    @script()
    def keywords(x: FLOAT[3, 4]) -> FLOAT[3, 4]:
        fill = op.ConstantOfShape([3, 4], value=[-1.0])
        return op.Add(op.Softmax(x, axis=0), fill)

    compiled = checked_model(positional)
    assert [n.attribute for n in compiled.graph.node] == [
        n.attribute for n in checked_model(keywords).graph.node
    ]
    softmax = np.exp(X) / np.exp(X).sum(axis=0)
    assert_close(run_model(compiled, X), [softmax - 1])
    assert_close([positional(X)], [softmax - 1])
    assert_close([op.Softmax(X, 0)], [softmax])


def test_variadic_ops_take_attributes_by_keyword_only():
    with pytest.raises(Exception, match="axis"):

        @script()
        def f(x: FLOAT[3, 4]) -> FLOAT[3, 8]:
            return op.Concat(x, x, 1)


def test_optional_input_skipped_with_none():
    @script()
    def f(x: FLOAT[1, 1, 2, 2], scales: FLOAT[4]) -> FLOAT[1, 1, 4, 4]:
        return op.Resize(x, None, scales, mode="nearest")

    x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
    scales = np.array([1, 1, 2, 2], dtype=np.float32)
    expected = x.repeat(2, axis=2).repeat(2, axis=3)
    assert_close(run_compiled(f, x, scales), [expected])


def test_multi_output_tuple_assignment_and_return_tuple():
    @script()
    def f(x: FLOAT["N"]) -> tuple[FLOAT["K"], INT64["K"]]:
        values, indices = op.TopK(x, [2])
        return values, indices

    x = np.array([3.0, 1.0, 5.0, 2.0], dtype=np.float32)
    assert_close(run_compiled(f, x), [np.array([5.0, 3.0], np.float32), np.array([2, 0])])


def test_split_with_unpacking_count():
    @script()
    def f(x: FLOAT[6]) -> tuple[FLOAT[2], FLOAT[2], FLOAT[2]]:
        a, b, c = op.Split(x, num_outputs=3)
        return a, b, c

    x = np.arange(6, dtype=np.float32)
    assert_close(run_compiled(f, x), np.split(x, 3))


@pytest.mark.parametrize(
    ("expr", "numpy_fn"),
    [
        ("x + y", lambda x, y: x + y),
        ("x - y", lambda x, y: x - y),
        ("x * y", lambda x, y: x * y),
        ("x / y", lambda x, y: x / y),
        ("x ** 2", lambda x, y: x**2),
        ("-x", lambda x, y: -x),
        ("+x", lambda x, y: +x),
        ("x // y", lambda x, y: x // y),
    ],
)
def test_float_operators(expr, numpy_fn):
    source = f"def f(x: FLOAT[3, 4], y: FLOAT[3, 4]) -> FLOAT[3, 4]:\n    return {expr}\n"
    f = script()(define(source, {"FLOAT": FLOAT, "op": op}))
    assert_close(run_compiled(f, X, Y), [numpy_fn(X, Y)], rtol=1e-4)


def test_matmul_operator():
    @script()
    def f(x: FLOAT[3, 4], w: FLOAT[4, 2]) -> FLOAT[3, 2]:
        return x @ w

    w = rng.standard_normal((4, 2)).astype(np.float32)
    assert_close(run_compiled(f, X, w), [X @ w], rtol=1e-4)


def test_integer_floor_division_and_modulo_follow_python():
    @script()
    def f(a: INT64["N"], b: INT64["N"]) -> tuple[INT64["N"], INT64["N"]]:
        return a // b, a % b

    a = np.array([7, -7, 7, -7, 6], dtype=np.int64)
    b = np.array([2, 2, -2, -2, 3], dtype=np.int64)
    assert_close(run_compiled(f, a, b), [a // b, a % b])


def test_float_modulo_is_fmod():
    @script()
    def f(a: FLOAT["N"]) -> FLOAT["N"]:
        return a % 3.0

    a = np.array([7.5, -7.5, 1.0], dtype=np.float32)
    assert_close(run_compiled(f, a), [np.fmod(a, 3.0)])


def test_comparisons_and_boolean_operators():
    @script()
    def f(x: FLOAT[3, 4], y: FLOAT[3, 4]) -> tuple[BOOL[3, 4], BOOL[3, 4], BOOL[3, 4], BOOL[3, 4]]:
        a = x < y
        b = (x >= 0) and (y >= 0)
        c = not (x == y) or x > 1  # noqa: SIM201  (`not` is under test)
        d = x != y
        return a, b, c, d

    assert_close(
        run_compiled(f, X, Y),
        [X < Y, (X >= 0) & (Y >= 0), ~(X == Y) | (X > 1), X != Y],
    )


def test_chained_comparison():
    @script()
    def f(x: FLOAT[3, 4]) -> BOOL[3, 4]:
        return -0.5 < x <= 0.5

    assert_close(run_compiled(f, X), [(X > -0.5) & (X <= 0.5)])


def test_bitwise_operators_by_element_type():
    @script()
    def f(
        a: INT64[4], b: INT64[4], p: BOOL[4], q: BOOL[4]
    ) -> tuple[INT64[4], INT64[4], INT64[4], INT64[4], BOOL[4], BOOL[4], BOOL[4]]:
        return a & b, a | b, a ^ b, ~a, p & q, p | q, ~p

    a = np.array([1, 2, 3, 12], dtype=np.int64)
    b = np.array([3, 3, 5, 10], dtype=np.int64)
    p = np.array([True, False, True, False])
    q = np.array([True, True, False, False])
    assert_close(run_compiled(f, a, b, p, q), [a & b, a | b, a ^ b, ~a, p & q, p | q, ~p])


def test_augmented_assignment():
    @script()
    def f(x: FLOAT[3, 4], y: FLOAT[3, 4]) -> FLOAT[3, 4]:
        z = x
        z += y
        z *= 2
        z -= 1
        return z

    assert_close(run_compiled(f, X, Y), [(X + Y) * 2 - 1])


def test_python_numbers_take_the_tensor_element_type():
    @script()
    def f(x: DOUBLE["N"], n: INT64["N"]) -> tuple[DOUBLE["N"], INT64["N"], DOUBLE["N"]]:
        return 2 * x + 1, n * 3 - 1, op.Where(x > 0, x, 0.5)

    x = np.array([1.5, -2.0], dtype=np.float64)
    n = np.array([1, 2], dtype=np.int64)
    model = checked_model(f)
    assert_close(run_model(model, x, n), [2 * x + 1, n * 3 - 1, np.where(x > 0, x, 0.5)])
    constants = [n for n in model.graph.node if n.op_type == "Constant"]
    assert {c.attribute[0].t.data_type for c in constants} <= {
        onnx.TensorProto.DOUBLE,
        onnx.TensorProto.INT64,
    }


def test_untyped_input_uses_castlike_for_literals():
    @script()
    def f(x):
        return x * 2.0

    proto = f.to_function_proto()
    assert "CastLike" in [n.op_type for n in proto.node]
    model = f.to_model_proto(io_types=DOUBLE["N"])
    x = np.array([1.0, 2.0])
    assert_close(run_model(model, x), [x * 2])


def test_literal_constants_and_lists():
    @script()
    def f(x: INT64["N"]) -> tuple[INT64["N"], INT64[3], FLOAT, STRING]:
        a = x + 0
        b = op.Constant(value=[13, 17, 19])
        c = op.Constant(value=17.0)
        d = op.Constant(value="hello")
        return a, b, c, d

    x = np.array([1, 2], dtype=np.int64)
    result = run_compiled(f, x)
    assert_close(result[:3], [x, np.array([13, 17, 19]), np.array(17.0, dtype=np.float32)])
    assert result[3] == "hello"


def test_constant_value_ints_and_empty_lists():
    @script()
    def f(x: FLOAT["N"]) -> tuple[INT64[0], FLOAT[0], INT64[2]]:
        return (
            op.Constant(value_ints=[]),
            op.Constant(value_floats=[]),
            op.Constant(value_ints=[1, 2]),
        )

    out = run_compiled(f, np.ones(1, np.float32))
    assert out[0].shape == (0,) and out[1].shape == (0,)
    assert_close([out[2]], [np.array([1, 2])])


SCALE = np.array([1.0, 2.0, 3.0], dtype=np.float32)
PI = 3.14159


def test_module_constants_and_captured_arrays():
    import math

    offset = np.array([10.0, 20.0, 30.0], dtype=np.float32)

    @script()
    def f(x: FLOAT[3]) -> FLOAT[3]:
        return x * SCALE + offset + PI + math.sqrt(4.0)

    model = checked_model(f)
    names = {o for n in model.graph.node for o in n.output}
    assert "SCALE" in names and "offset" in names
    x = np.array([1.0, 1.0, 1.0], dtype=np.float32)
    assert_close(run_model(model, x), [x * SCALE + offset + np.float32(PI) + 2.0])


def test_attribute_parameters_with_defaults_and_bindings():
    @script()
    def leaky(x: FLOAT["N"], alpha: float = 1, count: int = 2, mode: str = "a") -> FLOAT["N"]:
        y = op.LeakyRelu(x, alpha=alpha)
        return y * count

    proto = leaky.to_function_proto()
    defaults = {a.name: a for a in proto.attribute_proto}
    assert defaults["alpha"].type == onnx.AttributeProto.FLOAT and defaults["alpha"].f == 1.0
    assert defaults["count"].i == 2 and defaults["mode"].s == b"a"
    x = np.array([-2.0, 3.0], dtype=np.float32)
    assert_close(run_compiled(leaky, x), [np.where(x > 0, x, x * 1.0) * 2])
    assert_close(run_compiled(leaky, x, alpha=0.5, count=3), [np.where(x > 0, x, x * 0.5) * 3])


def test_required_attribute_needs_a_value_for_a_model():
    @script()
    def scale(x: FLOAT["N"], k: float) -> FLOAT["N"]:
        return x * k

    with pytest.raises(ValueError, match="required attribute"):
        scale.to_model_proto()
    x = np.array([1.0, 2.0], dtype=np.float32)
    assert_close(run_compiled(scale, x, k=4.0), [x * 4])


def test_attribute_parameter_used_as_tensor_and_as_attribute():
    @script()
    def f(
        x: INT64["N"],
        axis: int = 0,
        flag: bool = True,
        ks: list[int] = [1, 2],  # noqa: B006
    ) -> tuple[INT64["N"], INT64[2], BOOL]:
        s = op.CumSum(x, op.Constant(value_int=axis))
        return s + axis, op.Identity(ks) + 0, op.Identity(flag)

    proto = f.to_function_proto()
    refs = [a.ref_attr_name for n in proto.node for a in n.attribute if a.ref_attr_name]
    assert set(refs) == {"axis", "flag", "ks"}
    x = np.array([1, 2, 3], dtype=np.int64)
    assert_close(run_compiled(f, x), [np.cumsum(x), np.array([1, 2]), np.array(True)])
    assert_close(
        run_compiled(f, x, flag=False, ks=[5, 6]), [np.cumsum(x), np.array([5, 6]), np.array(False)]
    )


def test_del_removes_a_variable():
    @script()
    def f(x: FLOAT["N"]) -> FLOAT["N"]:
        t = x + 1
        y = t * 2
        del t
        return y

    x = np.array([1.0], dtype=np.float32)
    assert_close(run_compiled(f, x), [(x + 1) * 2])


def test_docstring_becomes_doc_string():
    @script()
    def f(x: FLOAT["N"]) -> FLOAT["N"]:
        """Doubles x.

        Second paragraph.
        """
        return x + x

    assert f.to_function_proto().doc_string == "Doubles x.\n\nSecond paragraph."
    assert checked_model(f).graph.doc_string.startswith("Doubles x.")


def test_returning_an_input_inserts_identity_and_duplicates_get_distinct_names():
    @script()
    def f(x: FLOAT["N"]) -> tuple[FLOAT["N"], FLOAT["N"], FLOAT["N"]]:
        y = x * 2
        return x, y, y

    proto = f.to_function_proto()
    assert len(set(proto.output)) == 3
    assert "x" not in proto.output
    x = np.array([1.0, 2.0], dtype=np.float32)
    assert_close(run_compiled(f, x), [x, 2 * x, 2 * x])


def test_call_to_another_script_function():
    dom = Opset("my.domain", 1)

    @script(dom)
    def double(x: FLOAT["N"], k: float = 2.0) -> FLOAT["N"]:
        return x * k

    @script()
    def main(x: FLOAT["N"]) -> FLOAT["N"]:
        return double(x) + double(x, k=3.0)

    model = checked_model(main)
    assert [f.name for f in model.functions] == ["double"]
    imports = {o.domain: o.version for o in model.opset_import}
    assert imports["my.domain"] == 1 and imports[""] == 18
    call = [n for n in model.graph.node if n.domain == "my.domain"]
    assert len(call) == 2
    x = np.array([1.0, 2.0], dtype=np.float32)
    assert_close(run_model(model, x), [x * 2 + x * 3])


def test_transitive_callees_and_callee_opset_only_imports():
    from onnxscript import opset19

    @script(Opset("lib", 1))
    def inner(x: FLOAT["N"]) -> FLOAT["N"]:
        return opset19.Abs(x)

    @script(Opset("lib", 1))
    def middle(x: FLOAT["N"]) -> FLOAT["N"]:
        return inner(x)

    @script()
    def outer(x: FLOAT["N"]) -> FLOAT["N"]:
        return middle(x)

    model = checked_model(outer)
    assert [f.name for f in model.functions] == ["inner", "middle"]
    imports = {o.domain: o.version for o in model.opset_import}
    assert imports == {"lib": 1, "": 19}
    x = np.array([-1.0, 2.0], dtype=np.float32)
    assert_close(run_model(model, x), [np.abs(x)])


def test_operators_only_function_uses_module_opset():
    @script()
    def f(x: FLOAT["N"]) -> FLOAT["N"]:
        return x + 1

    # This module imports opset18 as `op`.
    assert {o.domain: o.version for o in f.to_function_proto().opset_import} == {"": 18}


def test_annotated_local_becomes_value_info():
    @script()
    def f(x: FLOAT[10]) -> FLOAT[10]:
        t: FLOAT[10] = op.Add(x, x)
        return op.Relu(t)

    model = checked_model(f)
    infos = {vi.name: vi for vi in model.graph.value_info}
    assert "t" in infos
    dims = [d.dim_value for d in infos["t"].type.tensor_type.shape.dim]
    assert dims == [10]


def test_symbolic_dims_become_dim_params():
    @script()
    def f(x: FLOAT["N", 3], y: FLOAT[None]) -> FLOAT["N", 3]:
        return x

    model = checked_model(f)
    dims = model.graph.input[0].type.tensor_type.shape.dim
    assert dims[0].dim_param == "N" and dims[1].dim_value == 3
    dim = model.graph.input[1].type.tensor_type.shape.dim
    assert len(dim) == 1 and not dim[0].HasField("dim_value") and not dim[0].HasField("dim_param")


def test_to_model_proto_options():
    @script()
    def f(x, y):
        return op.Add(x, y)

    model = checked_model(
        f, io_types=FLOAT["N"], ir_version=9, producer_name="me", opset_imports={"": 18}
    )
    assert model.ir_version == 9 and model.producer_name == "me"
    assert model.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.FLOAT
    checked_model(f, input_types=[DOUBLE["N"], DOUBLE["N"]], output_types=[DOUBLE["N"]])


def test_input_types_of_another_length_as_0_7_takes_them():
    """A shorter list types the first inputs only; extra entries are ignored (0.7.2 takes
    both silently; here the extra ones warn)."""

    @script()
    def f(x, y: FLOAT["N"]) -> FLOAT["N"]:
        return op.Add(x, y)

    shorter = checked_model(f, input_types=[FLOAT["N"]])
    assert [i.type.tensor_type.elem_type for i in shorter.graph.input] == [1, 1]
    with pytest.warns(UserWarning, match="input_types has 3 types for 2 inputs"):
        longer = checked_model(f, input_types=[FLOAT["N"], FLOAT["N"], DOUBLE["N"]])
    assert longer.graph.input == shorter.graph.input
    with pytest.warns(ModelCheckWarning, match="input 'x' has no type"):
        untyped = f.to_model_proto()
    assert not untyped.graph.input[0].HasField("type")
    with pytest.raises(TypeError, match="unexpected keyword"):
        f.to_model_proto(not_an_option=1)


def test_unannotated_output_gets_inferred_type():
    @script()
    def f(x: FLOAT["N", 4]):
        return op.ReduceSum(x, [1], keepdims=0)

    model = checked_model(f)
    out = model.graph.output[0].type.tensor_type
    assert out.elem_type == onnx.TensorProto.FLOAT and len(out.shape.dim) == 1


def test_default_ir_version_loads_in_onnxruntime():
    @script()
    def f(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.Abs(x)

    model = checked_model(f)
    from onnxscript.defaults import runtime_limits

    assert model.ir_version == runtime_limits()[1]
    assert_close(run_model(model, np.array([-1.0], np.float32)), [np.array([1.0], np.float32)])
