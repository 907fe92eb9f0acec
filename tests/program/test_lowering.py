"""Lowering of the IR to protos."""

from __future__ import annotations

import onnx
import pytest

from onnxscript.language.attributes import AT
from onnxscript.program import (
    Attr,
    AttrParam,
    Function,
    Graph,
    Node,
    OptionalTypeSpec,
    SequenceTypeSpec,
    TensorTypeSpec,
    Value,
)
from onnxscript.program.lowering import (
    LoweringError,
    bind_attributes,
    model_opset_imports,
)
from onnxscript.program.proto_types import type_from_proto, type_to_proto
from onnxscript.program.serialize import function_to_model_proto, function_to_proto


@pytest.mark.parametrize(
    "spec",
    [
        TensorTypeSpec(1, ()),
        TensorTypeSpec(7, ("N", 3, None)),
        TensorTypeSpec(9, None),
        SequenceTypeSpec(TensorTypeSpec(1, None)),
        OptionalTypeSpec(SequenceTypeSpec(TensorTypeSpec(11, (2,)))),
    ],
)
def test_type_round_trip(spec):
    assert type_from_proto(type_to_proto(spec)) == spec


def _scale_function() -> Function:
    x, alpha, y = Value("x", name="x"), Value("alpha", name="alpha"), Value("y", name="y")
    nodes = [
        Node("Constant", "", [], [alpha], [Attr("value_float", AT.FLOAT, ref="alpha")]),
        Node("Mul", "", [x, alpha], [y]),
    ]
    graph = Graph("scale", inputs=[x], outputs=[y], nodes=nodes)
    return Function("scale", "lib", graph, [AttrParam("alpha", AT.FLOAT, 2.0, True)], {"": 18})


def test_function_keeps_attribute_references_and_defaults():
    proto = function_to_proto(_scale_function())
    assert proto.node[0].attribute[0].ref_attr_name == "alpha"
    assert proto.attribute_proto[0].name == "alpha" and proto.attribute_proto[0].f == 2.0
    onnx.checker.check_function(proto, onnx.checker.C.CheckerContext())  # type: ignore[attr-defined]


def test_model_binds_attribute_references():
    fn = _scale_function()
    bindings = bind_attributes(fn, {"alpha": 3.0})
    model = function_to_model_proto(
        fn,
        ir_version=10,
        bindings=bindings,
        input_types=[TensorTypeSpec(1, ("N",))],
        output_types=[TensorTypeSpec(1, ("N",))],
    )
    attr = model.graph.node[0].attribute[0]
    assert not attr.ref_attr_name and attr.f == 3.0
    onnx.checker.check_model(model, full_check=True)
    assert bind_attributes(fn, {}) == {"alpha": 2.0}
    with pytest.raises(ValueError, match="unknown attribute"):
        bind_attributes(fn, {"beta": 1.0})


def test_unbound_required_attribute_is_an_error():
    fn = _scale_function()
    fn.attr_params[0] = AttrParam("alpha", AT.FLOAT)
    with pytest.raises(ValueError, match="required attribute"):
        bind_attributes(fn, {})
    with pytest.raises(LoweringError, match="no value"):
        function_to_model_proto(fn, ir_version=10, bindings={"other": 1})


def test_unnamed_value_is_an_error():
    v = Value("v")
    graph = Graph("g", inputs=[v], outputs=[v])
    with pytest.raises(LoweringError, match="not been named"):
        function_to_proto(Function("g", "d", graph))


def test_model_imports_merge_callee_domains():
    inner = Function("inner", "lib", Graph("inner"), opset_imports={"": 19})
    middle = Function("middle", "lib", Graph("middle"), opset_imports={"lib": 1}, callees=[inner])
    main = Function("main", "this", Graph("main"), opset_imports={"lib": 1}, callees=[middle])
    assert model_opset_imports(main) == {"lib": 1, "": 19}
    assert [f.name for f in main.transitive_callees()] == ["inner", "middle"]
