"""Behaviour that code written for the existing onnxscript package relies on."""

from __future__ import annotations

import inspect
import typing

import numpy as np
import onnx
import pytest

from onnxscript import BOOL, FLOAT, INT64, Opset, graph, script
from onnxscript import opset18 as op
from tests.helpers import assert_close, checked_model, define, run_model


def test_decorated_function_keeps_its_signature_and_hints():
    @script()
    def f(x: FLOAT["N"], alpha: float = 1.0, n: int = 2, mode: str = "a") -> FLOAT["N"]:
        return x * alpha

    assert list(inspect.signature(f).parameters) == ["x", "alpha", "n", "mode"]
    hints = typing.get_type_hints(f)
    assert hints["alpha"] is float and hints["n"] is int and hints["mode"] is str
    assert f.__name__ == "f" and f.__doc__ is None


def test_function_proto_name_domain_and_script_keywords():
    custom = Opset("com.me", 3)

    @script(custom, producer_name="from-decorator")
    def my_fn(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.Abs(x)

    proto = my_fn.to_function_proto()
    assert (proto.name, proto.domain) == ("my_fn", "com.me")
    assert my_fn.to_model_proto().producer_name == "from-decorator"
    assert my_fn.to_model_proto(producer_name="override").producer_name == "override"


def test_value_infos_option():
    @script()
    def f(x: FLOAT["N"]) -> FLOAT["N"]:
        t = op.Abs(x)
        return op.Neg(t)

    model = checked_model(f, value_infos={"t": FLOAT["N"]})
    assert [vi.name for vi in model.graph.value_info] == ["t"]


def test_single_value_from_multi_output_op():
    @script()
    def f(x: FLOAT[2, 3], scale: FLOAT[3], bias: FLOAT[3]) -> FLOAT[2, 3]:
        return op.LayerNormalization(x, scale, bias)

    model = checked_model(f)
    assert len(model.graph.node[-1].output) == 1
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    ones, zeros = np.ones(3, np.float32), np.zeros(3, np.float32)
    mean = x.mean(-1, keepdims=True)
    expected = (x - mean) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)
    assert_close(run_model(model, x, ones, zeros), [expected], rtol=1e-4)


def test_attribute_reference_and_bool_list_promotion():
    @script()
    def f(
        x: INT64["N"],
        sorted: int = 1,
        flags: list[bool] = [True, False],  # noqa: B006
    ) -> tuple[INT64["M"], BOOL[2]]:
        y, _, _, _ = op.Unique(x, sorted=sorted)
        return y, op.Identity(flags)

    proto = f.to_function_proto()
    unique = next(n for n in proto.node if n.op_type == "Unique")
    assert unique.attribute[0].ref_attr_name == "sorted"
    casts = [n for n in proto.node if n.op_type == "Cast"]
    assert casts and casts[0].attribute[0].i == onnx.TensorProto.BOOL
    out = run_model(checked_model(f), np.array([3, 1, 3, 2]))
    assert_close(out, [np.array([1, 2, 3]), np.array([True, False])])


def test_sequence_ops_inside_a_loop():
    @script()
    def f(x: FLOAT[3], n: INT64) -> FLOAT["M"]:
        seq = op.SequenceEmpty(dtype=FLOAT.dtype)
        for i in range(n):
            seq = op.SequenceInsert(seq, x * op.Cast(i, to=FLOAT.dtype))
        return op.ConcatFromSequence(seq, axis=0)

    x = np.array([1.0, 2.0, 3.0], np.float32)
    out = run_model(checked_model(f), x, np.array(3))
    assert_close(out, [np.concatenate([x * 0, x * 1, x * 2])])


def test_sequence_map_with_graph_body():
    @script()
    def f(x: FLOAT[4], k: FLOAT) -> FLOAT["M"]:
        @graph()
        def body(item: FLOAT["L"]):
            return op.Mul(item, k)

        seq = op.SplitToSequence(x, op.Constant(value=[2, 2]))
        mapped = op.SequenceMap(seq, body=body)
        return op.ConcatFromSequence(mapped, axis=0)

    x = np.array([1.0, 2.0, 3.0, 4.0], np.float32)
    assert_close(run_model(checked_model(f), x, np.array(10.0, np.float32)), [x * 10])


def test_operator_only_function_without_module_opset_uses_onnxruntime_default():
    from onnxscript.defaults import runtime_limits

    source = "def f(x: FLOAT['N']) -> FLOAT['N']:\n    return x + 1.0\n"
    fn = script()(define(source, {"FLOAT": FLOAT}))
    imports = {o.domain: o.version for o in fn.to_function_proto().opset_import}
    assert imports == {"": runtime_limits()[0]}
    assert_close(
        run_model(checked_model(fn), np.array([1.0], np.float32)), [np.array([2.0], np.float32)]
    )


def test_default_opset_argument():
    from onnxscript import opset15

    source = "def f(x: FLOAT['N']) -> FLOAT['N']:\n    return x * 2.0\n"
    fn = script(default_opset=opset15)(define(source, {"FLOAT": FLOAT}))
    assert fn.to_function_proto().opset_import[0].version == 15


def test_functions_written_against_different_opsets_keep_their_own_imports():
    from onnxscript import opset14, opset16

    @script(Opset("a", 1))
    def f14(x: FLOAT["N"]) -> FLOAT["N"]:
        return opset14.Relu(x)

    @script(Opset("b", 1))
    def f16(x: FLOAT["N"]) -> FLOAT["N"]:
        return opset16.Relu(x)

    assert {o.domain: o.version for o in f14.to_function_proto().opset_import} == {"": 14}
    assert {o.domain: o.version for o in f16.to_function_proto().opset_import} == {"": 16}


def test_an_opset_argument_that_is_not_an_opset():
    with pytest.raises(TypeError, match="Opset"):
        script(op.Add)  # an Op is callable but not an opset


def test_custom_ops_named_like_opset_attributes():
    ex = Opset("com.example", 1)

    @script()
    def f(x: FLOAT[2]) -> FLOAT[2]:
        return ex["domain"](x) + ex["version"](x)

    nodes = f.to_function_proto().node
    assert [(n.domain, n.op_type) for n in nodes[:2]] == [
        ("com.example", "domain"),
        ("com.example", "version"),
    ]
    assert ex.domain == "com.example" and ex.version == 1


def test_declared_unknown_rank_output_gets_the_inferred_shape():
    @script()
    def f(x: FLOAT[3]) -> FLOAT[...]:
        return op.Unsqueeze(x, op.Constant(value_ints=[0]))

    model = checked_model(f)
    out = model.graph.output[0].type.tensor_type
    assert out.elem_type == onnx.TensorProto.FLOAT
    assert [d.dim_value for d in out.shape.dim] == [1, 3]
