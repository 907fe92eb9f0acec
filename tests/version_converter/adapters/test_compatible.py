"""Steps that keep every node's meaning going up; going down, what the older version lacks
is refused: element types, attribute values, broadcasting."""

from __future__ import annotations

import numpy as np
import onnx_ir as ir
import pytest
from onnx import TensorProto

from onnxscript.version_converter import VersionConversionError, convert_version
from tests.version_converter.conversion import (
    FLOAT,
    INT64,
    attrs,
    convert,
    converts,
    info,
    make,
    node,
    out,
    rand,
    the,
)


def test_types_only_steps_change_nothing_but_the_opset():
    model = make(
        [node("Add", ["x", "x"], ["y"]), node("Relu", ["y"], ["z"])], [info("x")], [out("z", 3)], 7
    )
    up = converts(model, 25, {"x": rand(2, 3, 4)})
    assert [n.SerializeToString() for n in up.graph.node] == [
        n.SerializeToString() for n in model.graph.node
    ]


def test_element_type_the_older_version_lacks_is_refused():
    model = make(
        [node("Add", ["x", "x"], ["y"])],
        [info("x", TensorProto.INT8)],
        [out("y", 3, TensorProto.INT8)],
        14,
    )
    with pytest.raises(
        VersionConversionError, match=r"Add .* tensor\(int8\), which Add-13 does not"
    ):
        convert(model, 13)


def test_element_type_a_newer_version_dropped_is_refused():
    model = make(
        [node("ReduceLogSum", ["x"], ["y"])],
        [info("x", INT64)],
        [out("y", 3, INT64)],
        18,
    )
    with pytest.raises(VersionConversionError, match="ReduceLogSum-28 does not accept"):
        convert(model, 28)


def test_new_attribute_with_its_default_is_dropped_else_refused():
    default = make(
        [node("ArgMax", ["x"], ["y"], select_last_index=0)], [info("x")], [out("y", 3, INT64)], 12
    )
    assert "select_last_index" not in attrs(
        the(converts(default, 11, {"x": rand(2, 3, 4)}), "ArgMax")
    )
    last = make(
        [node("ArgMax", ["x"], ["y"], select_last_index=1)], [info("x")], [out("y", 3, INT64)], 12
    )
    with pytest.raises(VersionConversionError, match="select_last_index=1"):
        convert(last, 11)


def test_broadcasting_variadic_ops_need_equal_shapes_before_8():
    same = make([node("Sum", ["x", "x"], ["y"])], [info("x")], [out("y", 3)], 8)
    converts(same, 7, {"x": rand(2, 3, 4)})
    broadcast = make(
        [node("Max", ["x", "b"], ["y"])], [info("x"), info("b", FLOAT, [4])], [out("y", 3)], 8
    )
    with pytest.raises(VersionConversionError, match="does not broadcast"):
        convert(broadcast, 7)


def test_mod_floored_on_floats_needs_28():
    model = make(
        [node("Mod", ["a", "b"], ["y"], fmod=0)],
        [info("a"), info("b")],
        [out("y", 3)],
        28,
    )
    with pytest.raises(VersionConversionError, match="fmod=0"):
        convert(model, 27)
    truncated = make(
        [node("Mod", ["a", "b"], ["y"], fmod=1)], [info("a"), info("b")], [out("y", 3)], 28
    )
    feeds = {"a": rand(2, 3, 4), "b": np.full((2, 3, 4), 0.7, np.float32)}
    converts(truncated, 13, feeds)


def test_cast_saturate_dropped_below_19():
    model = make(
        [node("Cast", ["x"], ["y"], to=TensorProto.FLOAT16, saturate=1)],
        [info("x")],
        [out("y", 3, TensorProto.FLOAT16)],
        19,
    )
    down = converts(model, 13, {"x": rand(2, 3, 4)})
    assert attrs(the(down, "Cast")) == {"to": TensorProto.FLOAT16}


NEW_ATTRIBUTES = [
    ("AveragePool", 10, 2, {"kernel_shape": [2]}, "ceil_mode", 1),
    ("AveragePool", 19, 2, {"kernel_shape": [2]}, "dilations", [2]),
    ("MaxPool", 10, 2, {"kernel_shape": [2]}, "dilations", [2]),
    ("LpPool", 18, 2, {"kernel_shape": [2]}, "ceil_mode", 1),
    ("DepthToSpace", 11, 1, {"blocksize": 2}, "mode", "CRD"),
    ("SpaceToDepth", 28, 1, {"blocksize": 2}, "mode", "CRD"),
    ("GatherND", 12, 2, {}, "batch_dims", 1),
    ("ScatterElements", 16, 3, {}, "reduction", "add"),
    ("ScatterND", 16, 3, {}, "reduction", "mul"),
    ("Attention", 25, 3, {}, "left_window_size", 2),
    ("Reshape", 14, 2, {}, "allowzero", 1),
]


@pytest.mark.parametrize(("op", "version", "inputs", "others", "name", "value"), NEW_ATTRIBUTES)
def test_new_attribute_refused_below_unless_default(
    op: str, version: int, inputs: int, others: dict, name: str, value: object
):
    """Going below the version that added ``name``: a non-default value is refused; the
    default is dropped."""
    older = version - 1

    def model(attribute: object) -> ir.Model:
        values = [ir.val(f"in{i}") for i in range(inputs)]
        attributes = {**others} if attribute is None else {**others, name: attribute}
        single = ir.node(op, values, attributes)
        graph = ir.Graph(values, single.outputs, nodes=[single], opset_imports={"": version})
        return ir.Model(graph, ir_version=10)

    with pytest.raises(VersionConversionError, match=name):
        convert_version(model(value), older)
    default = model(None)
    convert_version(default, older)
    assert name not in next(iter(default.graph)).attributes
