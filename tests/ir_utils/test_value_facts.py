"""The policy of ``ir_utils.value_facts`` (the module's docstring), fact by fact, and what
it means for the transformations that read values through it: a graph input's
initializer is never baked into a model, contents are read up to one limit, symbolic
dims are equal by name only, sequences / optionals / strings never crash a reader."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import onnx.parser
import onnx_ir as ir
import pytest

from onnxscript import optimizer
from onnxscript.ir_utils import value_facts
from onnxscript.rewriter import onnx_fusions
from tests.helpers import assert_transform_keeps_results

FLOAT = ir.DataType.FLOAT


def _model(text: str) -> ir.Model:
    return ir.from_proto(onnx.parser.parse_model(text))


def _value(model: ir.Model, name: str) -> ir.Value:
    for node in model.graph:
        for out in node.outputs:
            if out.name == name:
                return out
    for value in [*model.graph.inputs, *model.graph.initializers.values()]:
        if value.name == name:
            return value
    raise KeyError(name)


# -- constants ----------------------------------------------------------------------------

DEFAULTED = """
<ir_version: 10, opset_import: ["" : 18]>
g (float[2] x, float[1] bias) => (float[2] y)
<float[1] bias = {0.0}, float[1] weight = {2.0}>
{
    c = Constant<value = float[1] {3.0}>()
    a = Add(x, bias)
    m = Mul(a, weight)
    y = Mul(m, c)
}
"""


def test_a_graph_inputs_initializer_is_not_a_constant() -> None:
    model = _model(DEFAULTED)
    bias, weight, c = (_value(model, n) for n in ("bias", "weight", "c"))
    assert bias.const_value is not None  # the data is there ...
    assert value_facts.constant_tensor(bias) is None  # ... but the caller may replace it
    assert value_facts.constant_array(bias) is None
    assert value_facts.singleton(bias) is None
    assert value_facts.constant_float(weight) == 2.0  # an initializer alone is a constant
    assert value_facts.constant_float(c) == 3.0  # a Constant node's output too
    assert value_facts.constant_tensor(_value(model, "x")) is None


def test_optimize_keeps_an_overridable_zero() -> None:
    """``x + bias`` with ``bias`` a graph input defaulting to 0 is not a no-op."""
    before = onnx.parser.parse_model(DEFAULTED)
    after = optimizer.optimize(before)
    assert "Add" in [n.op_type for n in after.graph.node]
    feeds = {"x": np.array([1.0, 2.0], np.float32), "bias": np.array([5.0], np.float32)}
    assert_transform_keeps_results(before, after, feeds)


def test_fusion_does_not_bake_an_overridable_epsilon() -> None:
    text = """
    <ir_version: 10, opset_import: ["" : 23]>
    g (float[2,3,8] x, float[8] w, float eps) => (float[2,3,8] y)
    <float eps = {1e-6}>
    {
        two = Constant<value = float {2.0}>()
        axes = Constant<value = int64[1] {-1}>()
        p = Pow(x, two)
        m = ReduceMean<keepdims=1>(p, axes)
        a = Add(m, eps)
        s = Sqrt(a)
        r = Reciprocal(s)
        n = Mul(x, r)
        y = Mul(w, n)
    }
    """
    model = _model(text)
    assert onnx_fusions.fuse(model)["RMSNormalization"] == 0
    same = _model(text.replace(", float eps) =>", ") =>"))
    assert onnx_fusions.fuse(same)["RMSNormalization"] == 1  # eps a plain initializer


def test_a_constant_not_known_here_is_not_an_error() -> None:
    """A Constant whose value is a function's attribute (known per call), or one with an
    attribute the spec does not have (onnx_ir reads no sparse tensors either): unknown."""
    proto = oh.make_node("Constant", [], ["c"])
    proto.attribute.append(oh.make_attribute_ref("value", onnx.AttributeProto.TENSOR))
    reference = ir.serde.deserialize_node(proto)
    unknown = ir.Node("", "Constant", [], [ir.AttrFloat32("value_bogus", 1.0)])
    for node in (reference, unknown):
        assert value_facts.constant_tensor(node.outputs[0]) is None
        value_facts.basic_constant_propagation([node])
        assert node.outputs[0].const_value is None


def test_a_constant_with_two_attributes_is_not_a_constant() -> None:
    node = ir.Node(
        "", "Constant", [], [ir.AttrInt64("value_int", 1), ir.AttrFloat32("value_float", 2.0)]
    )
    assert value_facts.constant_tensor(node.outputs[0]) is None


@pytest.mark.parametrize(
    ("attribute", "expected"),
    [
        (ir.AttrInt64("value_int", 7), [7]),
        (ir.AttrInt64s("value_ints", [1, 2]), [1, 2]),
        (ir.AttrFloat32("value_float", 0.5), 0.5),
    ],
)
def test_every_kind_of_constant_is_read(attribute: ir.Attr, expected: object) -> None:
    out = ir.Node("", "Constant", [], [attribute]).outputs[0]
    found = value_facts.constant_ints(out) if isinstance(expected, list) else None
    assert found == expected or value_facts.constant_float(out) == expected


# -- the size limit ---------------------------------------------------------------------


def _initializer(size: int) -> ir.Value:
    graph = ir.Graph([], [], nodes=[], name="g")
    value = ir.Value(name="w", const_value=ir.tensor(np.arange(size, dtype=np.int64)))
    graph.register_initializer(value)
    return value


def test_contents_are_read_up_to_the_limit() -> None:
    at_limit, above = _initializer(value_facts.READ_LIMIT), _initializer(value_facts.READ_LIMIT + 1)
    assert value_facts.constant_ints(at_limit) == list(range(value_facts.READ_LIMIT))
    assert value_facts.constant_tensor(above) is not None  # a constant ...
    assert value_facts.constant_array(above) is None  # ... not read by default
    assert value_facts.constant_ints(above) is None
    read = value_facts.constant_array(above, max_size=None)  # a caller that needs it says so
    assert read is not None and read.size == value_facts.READ_LIMIT + 1
    assert value_facts.constant_array(at_limit, max_size=10) is None


def test_only_0d_and_1d_integers_are_ints() -> None:
    graph = ir.Graph([], [], nodes=[], name="g")
    values = {}
    for name, array in {
        "matrix": np.ones((2, 2), np.int64),
        "floats": np.ones(2, np.float32),
        "scalar": np.array(3, np.int32),
    }.items():
        values[name] = ir.Value(name=name, const_value=ir.tensor(array))
        graph.register_initializer(values[name])
    assert value_facts.constant_ints(values["matrix"]) is None
    assert value_facts.constant_ints(values["floats"]) is None
    assert value_facts.constant_ints(values["scalar"]) == [3]


# -- dims ---------------------------------------------------------------------------------


def test_symbolic_dims_are_equal_by_name_and_an_unnamed_one_equals_nothing() -> None:
    named = ir.Value(name="a", type=ir.TensorType(FLOAT), shape=ir.Shape(["N", 3, None]))
    other = ir.Value(name="b", type=ir.TensorType(FLOAT), shape=ir.Shape(["N", 3, None]))
    assert value_facts.same_dim_at(named, 0, other, 0)  # same name
    assert value_facts.same_dim_at(named, 1, other, 1)  # same number
    assert not value_facts.same_dim_at(named, 2, other, 2)  # unnamed
    assert not value_facts.same_dim_at(named, 2, named, 2)  # not even itself
    assert not value_facts.same_dim_at(named, 0, named, 1)  # a name is not a number
    assert not value_facts.same_shape(named, other)
    assert value_facts.same_dim("N", ir.SymbolicDim("N"))
    assert not value_facts.same_dim(ir.SymbolicDim("N"), ir.SymbolicDim("M"))
    assert value_facts.dims(named) == ["N", 3, None]
    assert value_facts.static_dim(named, 1) == 3 and value_facts.static_dim(named, 0) is None
    assert value_facts.is_known_dim(named.shape[0]) and not value_facts.is_known_dim(named.shape[2])
    assert value_facts.dim(named, 3) is None and value_facts.dim(named, -3) == named.shape[0]


def test_equal_dims_by_name_let_a_noop_go_but_unnamed_ones_do_not() -> None:
    text = """
    <ir_version: 10, opset_import: ["" : 18]>
    g (float[N, {second}] x) => (float[N, {second}] y)
    {{
        s = Shape(x)
        e = Expand(x, s)
        y = Relu(e)
    }}
    """
    named = onnx.parser.parse_model(text.format(second="M"))
    after = optimizer.optimize(named)
    assert [n.op_type for n in after.graph.node] == ["Relu"]
    feeds = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 3}
    assert_transform_keeps_results(named, after, feeds)


# -- sequences, optionals, strings ------------------------------------------------------


@pytest.mark.parametrize(
    "value_type",
    [ir.SequenceType(ir.TensorType(FLOAT)), ir.OptionalType(ir.TensorType(FLOAT))],
    ids=["sequence", "optional"],
)
def test_a_sequence_or_optional_has_no_tensor_facts(value_type: ir.TypeProtocol) -> None:
    value = ir.Value(name="s", type=value_type, shape=ir.Shape([2, 3]))
    assert value.dtype == FLOAT  # what onnx_ir says of the element type ...
    assert value_facts.tensor_dtype(value) is None  # ... is not a tensor's type
    assert not value_facts.is_float(value) and not value_facts.is_tensor(value)
    assert value_facts.rank(value) is None and value_facts.dims(value) is None
    assert value_facts.dim(value, 0) is None and not value_facts.same_shape(value, value)
    value.const_value = ir.tensor(np.ones((2, 3), np.float32))
    assert value_facts.constant_tensor(value) is None  # never a constant


def test_a_string_constant_is_a_constant_the_numeric_readers_refuse() -> None:
    node = ir.Node("", "Constant", [], [ir.AttrStrings("value_strings", ["a", "bc"])])
    out = node.outputs[0]
    tensor = value_facts.constant_tensor(out)
    assert tensor is not None and tensor.dtype == ir.DataType.STRING
    array = value_facts.constant_array(out)
    assert array is not None and array.tolist() == [b"a", b"bc"]
    assert value_facts.constant_ints(out) is None
    assert value_facts.singleton(out) is None and value_facts.constant_float(out) is None
    assert not value_facts.is_singleton(out, 0.0)
    value_facts.basic_constant_propagation([node])
    assert out.const_value is not None and out.dtype == ir.DataType.STRING
    ir.serde.serialize_tensor(out.const_value)  # onnx_ir can write it


@pytest.mark.parametrize(
    "array",
    [np.array([b"x", b"yz"]), np.array(["x", "yz"]), np.array([b"x", "yz"], dtype=object)],
    ids=["bytes", "str", "object"],
)
def test_string_arrays_become_tensors_onnx_ir_can_serialize(array: np.ndarray) -> None:
    tensor = value_facts.tensor_of(array, "s")
    proto = ir.serde.serialize_tensor(tensor)
    assert list(proto.string_data) == [b"x", b"yz"]
    number = value_facts.tensor_of(np.arange(3))
    assert number.dtype == ir.DataType.INT64 and number.numpy().tolist() == [0, 1, 2]


def test_optimize_folds_strings_and_keeps_an_optional_sequence_of_strings() -> None:
    """A string constant through an If returning ``optional(seq(string))`` (the crash of
    issue 34, case 4): nothing raises, the checker passes, onnxruntime agrees."""
    strings = oh.make_tensor("s", onnx.TensorProto.STRING, [2], [b"a", b"b"])
    element = oh.make_sequence_type_proto(oh.make_tensor_type_proto(onnx.TensorProto.STRING, None))
    result = oh.make_optional_type_proto(element)
    then_branch = oh.make_graph(
        [
            oh.make_node("Constant", [], ["c"], value=strings),
            oh.make_node("Identity", ["c"], ["d"]),
            oh.make_node("SequenceConstruct", ["d"], ["sq"]),
            oh.make_node("Optional", ["sq"], ["o"]),
        ],
        "then",
        [],
        [oh.make_value_info("o", result)],
    )
    else_branch = oh.make_graph(
        [oh.make_node("Optional", [], ["o2"], type=element)],
        "else",
        [],
        [oh.make_value_info("o2", result)],
    )
    graph = oh.make_graph(
        [
            oh.make_node("If", ["cond"], ["out"], then_branch=then_branch, else_branch=else_branch),
            oh.make_node("OptionalHasElement", ["out"], ["has"]),
        ],
        "g",
        [oh.make_tensor_value_info("cond", onnx.TensorProto.BOOL, [])],
        [oh.make_tensor_value_info("has", onnx.TensorProto.BOOL, [])],
    )
    before = oh.make_model(graph, opset_imports=[oh.make_opsetid("", 18)])
    onnx.checker.check_model(before, full_check=True)
    after = optimizer.optimize(before)
    for cond in (True, False):
        assert_transform_keeps_results(before, after, {"cond": np.array(cond)})
