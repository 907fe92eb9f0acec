"""Types, attributes and tensors are written so that they compile back exactly."""

from __future__ import annotations

import math

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as nh
import pytest

from onnxscript.errors import ModelCheckWarning
from onnxscript.reverse import proto2python
from onnxscript.testing import run_model
from onnxscript.testing.isomorphism import differences
from tests.reverse.common import (
    BOOL,
    FLOAT,
    INT64,
    assert_roundtrip,
    compiled,
    make_model,
    vi,
)
from tests.reverse.test_injection import assert_safe


def test_symbolic_unknown_and_scalar_dims_in_annotations():
    model = make_model(
        [oh.make_node("Add", ["x", "s"], ["y"])],
        [vi("x", FLOAT, ["batch", None, 4]), vi("s", FLOAT, [])],
        [vi("y", FLOAT, ["batch", None, 4])],
    )
    source = assert_roundtrip(model).source
    assert 'def main(x: FLOAT["batch", None, 4], s: FLOAT) -> FLOAT["batch", None, 4]:' in source


def test_untyped_rank_and_sequence_annotations():
    seq = oh.make_tensor_sequence_value_info
    model = make_model(
        [
            oh.make_node("SequenceInsert", ["s", "x"], ["t"]),
            oh.make_node("SequenceLength", ["t"], ["n"]),
        ],
        [seq("s", FLOAT, None), vi("x", FLOAT, None)],
        [vi("n", INT64, [])],
    )
    # (The original model is incomplete too: the checker wants a shape for each input.)
    with pytest.warns(ModelCheckWarning, match="has no shape"):
        source, back = assert_roundtrip(model, run=False)
    assert "def main(s: list[FLOAT[...]], x: FLOAT[...]) -> INT64:" in source
    got = run_model(back, [[np.ones(2, np.float32)], np.zeros(3, np.float32)])
    assert int(got[0]) == 2


def test_optional_input_type_goes_to_make_model():
    opt = oh.make_optional_type_proto(oh.make_tensor_type_proto(FLOAT, [2]))
    model = make_model(
        [oh.make_node("OptionalHasElement", ["o"], ["has"])],
        [oh.make_value_info("o", opt)],
        [vi("has", BOOL, [])],
    )
    source, back = assert_roundtrip(model, run=False)
    assert "def main(o) -> BOOL:" in source
    assert "input_types=[onnx.helper.make_optional_type_proto(" in source
    assert run_model(back, [np.ones(2, np.float32)])[0]


ATTRIBUTE_NODES = [
    oh.make_node("LeakyRelu", ["x"], ["y"], alpha=0.1),
    oh.make_node("Cast", ["x"], ["y"], to=INT64),
    oh.make_node("Transpose", ["x"], ["y"], perm=[1, 0]),
    oh.make_node("Pad", ["x", "pads"], ["y"], mode="reflect"),
    oh.make_node("Constant", [], ["y"], value_floats=[1.5, -0.25, float("inf")]),
    oh.make_node("Constant", [], ["y"], value_strings=["a", "b'\"\\"]),
    oh.make_node("Constant", [], ["y"], value_float=float("nan")),
    oh.make_node("Constant", [], ["y"], value_int=-7),
    oh.make_node("Constant", [], ["y"], value_string="tab\there"),
]


@pytest.mark.parametrize(
    "node", ATTRIBUTE_NODES, ids=lambda n: n.op_type + ":" + n.attribute[0].name
)
def test_attribute_kinds_round_trip(node):
    nodes = [node]
    if "pads" in node.input:
        nodes.insert(0, oh.make_node("Constant", [], ["pads"], value_ints=[0, 1, 0, 1]))
    model = make_model(nodes, [vi("x", FLOAT, [2, 2])], [oh.make_value_info("y", onnx.TypeProto())])
    source = proto2python(model)
    back = compiled(source)
    assert not differences(model, back, canonical=True)
    # The untyped output gets its inferred type; from then on translation is a fixpoint.
    again = proto2python(back)
    assert proto2python(compiled(again)) == again


def test_dtype_attributes_are_written_as_types():
    model = make_model(
        [oh.make_node("Cast", ["x"], ["y"], to=INT64)], [vi("x", FLOAT, [2])], [vi("y", INT64, [2])]
    )
    assert "op.Cast(x, to=INT64)" in assert_roundtrip(model).source


TENSORS = {
    "float": np.array([[1.5, -0.0], [np.inf, 3.0e-30]], np.float32),
    "float_nan": np.array([np.nan, 1.0], np.float32),
    "double": np.array([0.1, 1 / 3], np.float64),
    "float16": np.array([0.1, 65504.0], np.float16),
    "int64": np.array([-(2**62), 2**62], np.int64),
    "uint64": np.array([2**64 - 1], np.uint64),
    "int8": np.array([-128, 127], np.int8),
    "bool": np.array([True, False]),
    "scalar": np.array(2.5, np.float32),
    "empty": np.zeros((0, 3), np.float32),
    "complex": np.array([1 + 2j, -0.5j], np.complex64),
    "string": np.array(["a", "é\n\"'"], dtype=object),
}


@pytest.mark.parametrize("name", sorted(TENSORS))
def test_tensor_constants_round_trip_bit_exactly(name):
    array = TENSORS[name]
    tensor = nh.from_array(array)
    node = oh.make_node("Constant", [], ["y"], value=tensor)
    info = oh.make_tensor_value_info("y", tensor.data_type, array.shape)
    model = make_model([node], [], [info])
    source = proto2python(model)
    back = compiled(source)
    assert not differences(model, back, canonical=True), source
    got = nh.to_array(back.graph.node[0].attribute[0].t)
    assert got.dtype == array.dtype and got.shape == array.shape
    if array.dtype == object:
        assert (
            got.tolist() == [s.encode() if isinstance(s, str) else s for s in array.tolist()]
            or got.tolist() == array.tolist()
        )
    else:
        assert got.tobytes() == array.tobytes()


@pytest.mark.parametrize(
    "dtype",
    [
        onnx.TensorProto.BFLOAT16,
        onnx.TensorProto.FLOAT8E4M3FN,
        onnx.TensorProto.FLOAT8E5M2,
        onnx.TensorProto.INT4,
        onnx.TensorProto.UINT4,
    ],
)
def test_element_types_numpy_lacks(dtype):
    values = [1.0, -2.0, 3.0] if dtype != onnx.TensorProto.UINT4 else [1, 2, 15]
    tensor = oh.make_tensor("", dtype, [3], values)
    model = make_model(
        [oh.make_node("Constant", [], ["y"], value=tensor)],
        [],
        [oh.make_tensor_value_info("y", dtype, [3])],
        ir_version=10,
        opset=21,
    )
    source = proto2python(model)
    assert "onnx.helper.make_tensor(" in source
    back = compiled(source)
    assert not differences(model, back, canonical=True)
    got = back.graph.node[0].attribute[0].t
    assert nh.to_array(got).tobytes() == nh.to_array(tensor).tobytes()


def test_nan_payloads_fall_back_to_raw_bytes():
    raw = np.array([0x7FC1, 0x3F80], np.uint16).tobytes()  # a bfloat16 NaN with a payload
    tensor = oh.make_tensor("", onnx.TensorProto.BFLOAT16, [2], raw, raw=True)
    model = make_model(
        [oh.make_node("Constant", [], ["y"], value=tensor)],
        [],
        [oh.make_tensor_value_info("y", onnx.TensorProto.BFLOAT16, [2])],
    )
    source = proto2python(model)
    assert "raw=True" in source
    back = compiled(source)
    assert back.graph.node[0].attribute[0].t.raw_data == raw


def test_initializers_become_constants_small_inline_larger_module_level():
    small = nh.from_array(np.arange(10, dtype=np.float32), "small")
    medium = nh.from_array(np.arange(100, dtype=np.float32).reshape(10, 10), "medium")
    model = make_model(
        [
            oh.make_node("Add", ["x", "small"], ["a"]),
            oh.make_node("MatMul", ["medium", "a2"], ["y"]),
            oh.make_node("Reshape", ["a", "shape"], ["a2"]),
        ],
        [vi("x", FLOAT, [10])],
        [vi("y", FLOAT, [10, 1])],
        initializers=[small, medium, nh.from_array(np.array([10, 1], np.int64), "shape")],
    )
    # a2 is defined after its use in node order; fix the order for a valid model.
    model.graph.node.insert(1, model.graph.node.pop(2))
    source = assert_roundtrip(model).source
    assert (
        "small = op.Constant(value=np.array([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, "
        "9.0], dtype=np.float32))" in source
    )
    assert "MEDIUM = np.array([" in source and ".reshape(10, 10)" in source
    assert "medium = op.Constant(value=MEDIUM)" in source


def test_sparse_initializer_and_sparse_attribute():
    values = nh.from_array(np.array([1.0, 2.0], np.float32), "sp")
    indices = nh.from_array(np.array([1, 4], np.int64))
    sparse = oh.make_sparse_tensor(values, indices, [6])
    graph = oh.make_graph(
        [
            oh.make_node("Add", ["x", "sp"], ["y"]),
            oh.make_node("Constant", [], ["z"], sparse_value=sparse),
        ],
        "main",
        [vi("x", FLOAT, [6])],
        [vi("y", FLOAT, [6]), vi("z", FLOAT, [6])],
        sparse_initializer=[sparse],
    )
    model = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)], ir_version=8)
    source = proto2python(model)
    assert "op.Constant(sparse_value=" in source
    # (onnx's Add takes no sparse tensor: the checker rejects the original model too.)
    with pytest.warns(ModelCheckWarning, match="sparse_tensor"):
        back = compiled(source)
    assert not differences(model, back, canonical=True)


def test_type_proto_attribute():
    tp = oh.make_tensor_type_proto(FLOAT, [2])
    model = make_model(
        [
            oh.make_node("Optional", [], ["o"], type=tp),
            oh.make_node("OptionalHasElement", ["o"], ["y"]),
        ],
        [],
        [vi("y", BOOL, [])],
    )
    source = assert_roundtrip(model).source
    assert "op.Optional(type=onnx.helper.make_tensor_type_proto(1, [2]))" in source


def test_omitted_optional_inputs_print_as_none():
    model = make_model(
        [
            oh.make_node(
                "Constant",
                [],
                ["scales"],
                value=nh.from_array(np.array([1.0, 1.0, 2.0, 2.0], np.float32)),
            ),
            oh.make_node("Resize", ["x", "", "scales"], ["y"], mode="nearest"),
        ],
        [vi("x", FLOAT, [1, 1, 2, 2])],
        [vi("y", FLOAT, [1, 1, 4, 4])],
    )
    source = assert_roundtrip(model).source
    assert 'op.Resize(x, None, scales, mode="nearest")' in source


def test_unused_outputs_of_multi_output_ops_are_underscores():
    model = make_model(
        [
            oh.make_node("TopK", ["x", "k"], ["values", "indices"]),
            oh.make_node("Constant", [], ["k"], value_ints=[1]),
        ],
        [vi("x", FLOAT, [4])],
        [vi("indices", INT64, [1])],
    )
    model.graph.node.insert(0, model.graph.node.pop(1))
    source = assert_roundtrip(model).source
    assert "_, indices = op.TopK(x, k)" in source


def test_float_attributes_use_shortest_float32_text():
    model = make_model(
        [oh.make_node("LeakyRelu", ["x"], ["y"], alpha=0.1)],
        [vi("x", FLOAT, [2])],
        [vi("y", FLOAT, [2])],
    )
    assert "alpha=0.1)" in assert_roundtrip(model).source


def test_nan_float_attribute():
    model = make_model(
        [oh.make_node("Constant", [], ["y"], value_float=math.nan)], [], [vi("y", FLOAT, [])]
    )
    source = assert_roundtrip(model, run=False).source
    assert 'value_float=float("nan")' in source


def test_ml_domain_and_map_outputs():
    probs_type = oh.make_sequence_type_proto(
        oh.make_map_type_proto(INT64, oh.make_tensor_type_proto(FLOAT, []))
    )
    classifier = oh.make_node(
        "LinearClassifier",
        ["X"],
        ["label", "scores"],
        domain="ai.onnx.ml",
        classlabels_ints=[0, 1],
        coefficients=[1.0, -1.0, -1.0, 1.0],
        intercepts=[0.0, 0.0],
        post_transform="SOFTMAX",
    )
    zipmap = oh.make_node(
        "ZipMap", ["scores"], ["probabilities"], domain="ai.onnx.ml", classlabels_int64s=[0, 1]
    )
    model = make_model(
        [classifier, zipmap],
        [vi("X", FLOAT, ["N", 2])],
        [vi("label", INT64, ["N"]), oh.make_value_info("probabilities", probs_type)],
        opset=15,
        extra_opsets={"ai.onnx.ml": 3},
    )
    source = assert_roundtrip(model).source
    assert 'ai_onnx_ml = Opset("ai.onnx.ml", 3)' in source
    assert "output_types=[None, onnx.helper.make_sequence_type_proto(" in source


def test_exported_style_model():
    rng = np.random.default_rng(0)
    w1 = nh.from_array(rng.standard_normal((8, 64)).astype(np.float32), "layer1.weight")
    b1 = nh.from_array(rng.standard_normal(64).astype(np.float32), "layer1.bias")
    w2 = nh.from_array(rng.standard_normal((64, 4)).astype(np.float32), "onnx::MatMul_12")
    nodes = [
        oh.make_node(
            "MatMul",
            ["input.1", "layer1.weight"],
            ["/layer1/MatMul_output_0"],
            name="/layer1/MatMul",
        ),
        oh.make_node(
            "Add",
            ["/layer1/MatMul_output_0", "layer1.bias"],
            ["/layer1/Add_output_0"],
            name="/layer1/Add",
        ),
        oh.make_node("Relu", ["/layer1/Add_output_0"], ["/act/Relu_output_0"]),
        oh.make_node("MatMul", ["/act/Relu_output_0", "onnx::MatMul_12"], ["output"]),
    ]
    model = make_model(
        nodes,
        [vi("input.1", FLOAT, ["batch", 8])],
        [vi("output", FLOAT, ["batch", 4])],
        initializers=[w1, b1, w2],
        producer_name="pytorch",
        producer_version="2.1",
    )
    source = assert_roundtrip(model).source
    assert "_layer1_MatMul_output_0 = op.MatMul(input_1, layer1_weight)" in source
    assert "LAYER1_WEIGHT = np.array([" in source
    assert 'rename_values(model, {"input_1": "input.1"})' in source


NOT_UTF8 = [b"\xff\xfe'\"\n", b"text", b"\x80\\x00", b""]
"""Elements of a STRING tensor that are not UTF-8 text (with quotes, a newline, a
backslash), next to some that are."""

STRING = onnx.TensorProto.STRING


def _string_tensor(name: str, dims: list[int]) -> onnx.TensorProto:
    return oh.make_tensor(name, STRING, dims, NOT_UTF8)


def _string_model(where: str) -> onnx.ModelProto:
    """A model whose output ``y`` is a STRING tensor of non-UTF-8 bytes defined ``where``."""
    out = [vi("y", STRING, [2, 2])]
    if where == "initializer":
        node = oh.make_node("Identity", ["w"], ["y"])
        return make_model([node], [], out, [_string_tensor("w", [2, 2])])
    if where == "Constant value":
        return make_model(
            [oh.make_node("Constant", [], ["y"], value=_string_tensor("", [2, 2]))], [], out
        )
    if where == "Constant value_strings":
        node = oh.make_node("Constant", [], ["y"], value_strings=NOT_UTF8)
        return make_model([node], [], [vi("y", STRING, [4])])
    if where == "Constant value_string":
        node = oh.make_node("Constant", [], ["y"], value_string=NOT_UTF8[0])
        return make_model([node], [], [vi("y", STRING, [])])
    assert where == "function"
    constant = oh.make_node("Constant", [], ["c"], value=_string_tensor("", [2, 2]))
    body = [constant, oh.make_node("Identity", ["c"], ["y"])]
    fn = oh.make_function("local", "strings", [], ["y"], body, [oh.make_opsetid("", 18)])
    call = oh.make_node("strings", [], ["y"], domain="local")
    return make_model([call], [], out, functions=[fn], extra_opsets={"local": 1})


@pytest.mark.parametrize(
    "where",
    [
        "initializer",
        "Constant value",
        "Constant value_strings",
        "Constant value_string",
        "function",
    ],
)
def test_string_tensors_that_are_not_utf8_round_trip_exactly(where: str):
    """onnx's ``to_array`` cannot decode such bytes (nor can onnxruntime or the reference
    evaluator return them): the script writes them as ``bytes`` and the compiled model
    holds the same bytes."""
    model = _string_model(where)
    source, back = assert_roundtrip(model, run=False)
    assert_safe(source)
    assert _stored_strings(back) == _stored_strings(model)
    assert NOT_UTF8[0] in _stored_strings(back)


def _stored_strings(model: onnx.ModelProto) -> list[bytes]:
    """The bytes of the model's STRING initializers and of its nodes' string attributes
    and STRING tensor attributes (local functions included), in order."""
    found = [s for t in model.graph.initializer for s in t.string_data]
    nodes = [*model.graph.node, *(n for f in model.functions for n in f.node)]
    for node in nodes:
        for attr in node.attribute:
            found += [attr.s] if attr.s else []
            found += list(attr.strings) + list(attr.t.string_data)
    return found


def test_string_attributes_that_are_not_utf8_round_trip_exactly():
    node = oh.make_node(
        "Custom", ["x"], ["y"], domain="my.domain", s=b"\xff'\"\n", ss=[b"\x80", b"ok"]
    )
    model = make_model(
        [node], [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])], extra_opsets={"my.domain": 1}
    )
    source, back = assert_roundtrip(model, run=False)
    attrs = {a.name: a for a in back.graph.node[0].attribute}
    assert attrs["s"].s == b"\xff'\"\n"
    assert list(attrs["ss"].strings) == [b"\x80", b"ok"]
    assert_safe(source)
