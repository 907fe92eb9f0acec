"""Per-node inference: symbolic dims kept, rules equal to onnx's inference on static
shapes (random cases), contradictions reported, onnx's inference for the rest."""

from __future__ import annotations

import onnx
import onnx.shape_inference
import onnx_ir as ir
import pytest
from hypothesis import given
from hypothesis import strategies as st
from onnx import TensorProto, helper

from onnxscript.inference import InferenceError
from onnxscript.inference.infer import infer_node
from tests.helpers import fuzz_settings
from tests.inference.node_values import FLOAT
from tests.inference.node_values import const as _const
from tests.inference.node_values import infer as _infer
from tests.inference.node_values import shape_of as _shape
from tests.inference.node_values import value as _value


def test_symbolic_dims_pass_through_common_ops():
    x = _value(["N", 64])
    (added,) = _infer("Add", [x, _value([])])
    (product,) = _infer("MatMul", [x, _value([64, 8])])
    (flat,) = _infer("Reshape", [x, _const([-1, 64])])
    (kept,) = _infer("Reshape", [x, _const([0, 8, 8])])
    (summed,) = _infer("ReduceSum", [x, _const([1])], keepdims=0)
    (shape,) = _infer("Shape", [x])
    (joined,) = _infer("Concat", [x, x], axis=1)
    (swapped,) = _infer("Transpose", [x], perm=[1, 0])
    assert _shape(added) == ["N", 64] and added.dtype == FLOAT
    assert _shape(product) == ["N", 8]
    assert _shape(flat) == ["N", 64]
    assert _shape(kept) == ["N", 8, 8]
    assert _shape(summed) == ["N"]
    assert _shape(shape) == [2] and shape.dtype == ir.DataType.INT64
    assert _shape(joined) == ["N", 128]
    assert _shape(swapped) == [64, "N"]


def test_known_facts_are_never_replaced_and_unknown_stays_unknown():
    out = _value([7], ir.DataType.DOUBLE)
    node = ir.Node("", "Relu", [_value([3])], outputs=[out])
    infer_node(node, 18)
    assert out.dtype == ir.DataType.DOUBLE and _shape(out) == [7]
    (unknown,) = _infer("Relu", [ir.Value(name="u")])
    assert unknown.type is None and unknown.shape is None


@pytest.mark.parametrize(
    ("op", "inputs", "attrs", "message"),
    [
        ("MatMul", [[4, 64], [3, 3]], {}, "MatMul inner dims differ: 64 vs 3"),
        ("Add", [[3, 4], [5, 4]], {}, "cannot broadcast: dims 3 and 5"),
        ("Concat", [[3, 4], [3]], {"axis": 0}, "different ranks"),
        ("Transpose", [[3, 4]], {"perm": [0, 0]}, "does not fit rank 2"),
        ("Gemm", [[3, 4], [5, 6]], {}, "Gemm inner dims differ: 4 vs 5"),
    ],
)
def test_contradictions_raise_inference_error(op, inputs, attrs, message):
    with pytest.raises(InferenceError, match=message):
        _infer(op, [_value(s) for s in inputs], **attrs)


def test_axes_as_attribute_before_opset_13_and_as_input_after():
    x = _value([3, 4])
    (old,) = _infer("Unsqueeze", [x], version=11, axes=[0])
    (new,) = _infer("Unsqueeze", [x, _const([0])], version=13)
    assert _shape(old) == _shape(new) == [1, 3, 4]
    (mean_old,) = _infer("ReduceMean", [x], version=17, axes=[1], keepdims=1)
    (mean_new,) = _infer("ReduceMean", [x, _const([1])], version=18, keepdims=1)
    assert _shape(mean_old) == _shape(mean_new) == [3, 1]


def test_ops_without_a_rule_use_onnx_inference():
    (out,) = _infer("Einsum", [_value(["N", 64], name="a"), _value([64, 8])], equation="ij,jk->ik")
    assert out.dtype == FLOAT and _shape(out) == ["N", 8]
    with pytest.raises(InferenceError, match="equation"):
        _infer("Einsum", [_value([2, 2]), _value([2, 2])])
    custom = ir.Node("com.example", "Whatever", [_value([2])], num_outputs=1)
    infer_node(custom, 1)
    assert custom.outputs[0].type is None  # not onnx's to tell


def test_control_flow_outputs_come_from_bodies():
    then = ir.Graph([], [_value([2, 3])], nodes=[], name="then")
    other = ir.Graph([], [_value([2, 5])], nodes=[], name="else")
    (merged,) = _infer(
        "If",
        [_value([], ir.DataType.BOOL)],
        then_branch=then,
        else_branch=other,
    )
    assert merged.dtype == FLOAT and _shape(merged)[0] == 2 and _shape(merged)[1] is None
    body = ir.Graph([_value([4]), _value([4])], [_value([4]), _value([4])], nodes=[], name="b")
    state, scanned = _infer(
        "Scan", [_value([4]), _value([7, 4])], outputs=2, body=body, num_scan_inputs=1
    )
    assert _shape(state) == [4] and _shape(scanned) == [7, 4]


dims = st.sampled_from([1, 2, 3])


@fuzz_settings(80)
@given(
    op=st.sampled_from(["Add", "Mul", "Where", "Equal", "MatMul"]),
    a=st.lists(dims, min_size=1, max_size=4),
    b=st.lists(dims, min_size=1, max_size=4),
)
def test_rules_equal_onnx_inference_on_static_shapes(op: str, a: list[int], b: list[int]):
    inputs = [("a", a), ("b", b)]
    names = ["a", "b"]
    if op == "Where":
        inputs = [("cond", a), ("a", b), ("b", b)]
        names = ["cond", "a", "b"]
    graph = helper.make_graph(
        [helper.make_node(op, names, ["y"])],
        "g",
        [
            helper.make_tensor_value_info(
                n, TensorProto.BOOL if n == "cond" else TensorProto.FLOAT, s
            )
            for n, s in inputs
        ],
        [helper.make_tensor_value_info("y", TensorProto.UNDEFINED, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    ours_inputs = [_value(s, ir.DataType.BOOL if n == "cond" else FLOAT, n) for n, s in inputs]
    try:
        theirs = onnx.shape_inference.infer_shapes(model, strict_mode=True).graph.output[0].type
    except onnx.shape_inference.InferenceError:
        with pytest.raises(InferenceError):
            _infer(op, ours_inputs)
        return
    (ours,) = _infer(op, ours_inputs)
    assert ours.dtype == ir.DataType(theirs.tensor_type.elem_type)
    assert _shape(ours) == [d.dim_value for d in theirs.tensor_type.shape.dim]


_NOT_ONE_FLOAT = {"Constant", "ConstantOfShape", "If", "Loop", "Scan", "Not", "Split"}
"""Ops with one required input that is not a FLOAT tensor alone (or that need more)."""
_NOT_ONE_FLOAT |= {"MeanVarianceNormalization"}  # onnx cannot infer its function body


def _one_input_ops() -> list[str]:
    """Ops with a rule that take one FLOAT input and no required attribute."""
    from onnxscript.inference.rules import RULES

    found = []
    for op in sorted(RULES):
        schema = onnx.defs.get_schema(op, 20, "")
        required = [i for i in schema.inputs if i.option != schema.inputs[0].option.Optional]
        needs_attr = any(a.required for a in schema.attributes.values())
        if len(required) == 1 and not needs_attr and op not in _NOT_ONE_FLOAT:
            found.append(op)
    return found


@pytest.mark.parametrize("op", _one_input_ops())
def test_one_input_rules_give_onnx_element_type_and_shape(op: str):
    """Each rule of a one-input op types its first output as onnx's inference does (a
    predicate such as IsInf gives BOOL, not its input's type)."""
    outputs = len(onnx.defs.get_schema(op, 20, "").outputs)
    graph = helper.make_graph(
        [helper.make_node(op, ["x"], [f"y{i}" for i in range(outputs)])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [
            helper.make_tensor_value_info(f"y{i}", TensorProto.UNDEFINED, None)
            for i in range(outputs)
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)])
    theirs = onnx.shape_inference.infer_shapes(model, strict_mode=True).graph.output[0].type
    ours = _infer(op, [_value([2, 3], name="x")], version=20, outputs=outputs)[0]
    assert ours.dtype == ir.DataType(theirs.tensor_type.elem_type)
    if theirs.tensor_type.HasField("shape"):
        assert _shape(ours) == [d.dim_value for d in theirs.tensor_type.shape.dim]
