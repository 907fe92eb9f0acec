"""Script functions defined in builder code with the builder's ``op`` as default opset
(``@script(default_opset=op)``), called with ``op.call`` (a model-local function) and
``op.call_inline`` (the body copied in)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
import onnxruntime
import pytest

from onnxscript import FLOAT, GraphBuilder, script


def _model(graph: ir.Graph, builder: GraphBuilder) -> onnx.ModelProto:
    proto = ir.serde.serialize_model(
        ir.Model(graph, ir_version=10, functions=builder.functions.values())
    )
    onnx.checker.check_model(proto, full_check=True)
    return proto


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-x))


def test_script_with_an_op_builder_as_default_opset_calls_and_inlines():
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 23}, name="g")
    builder = GraphBuilder(graph)
    op = builder.op

    @script(default_opset=op)
    def gated(x: FLOAT["N"], alpha: float = 0.5) -> FLOAT["N"]:
        return op.Mul(x, op.Sigmoid(op.Mul(x, alpha)))

    assert gated.to_function_proto().opset_import[0].version == 23
    x = builder.input("x", ir.DataType.FLOAT, [3])
    y = op.call(gated, x, alpha=1.5)
    z = op.call_inline(gated, y, alpha=2.0)
    w = op.call_inline(gated, z, _outputs=["w"], _prefix="blk")
    builder.add_output(w)
    assert w.name == "v_w"
    assert list(builder.functions) == [("this", "gated", "")]
    node_names = [n.name for n in graph]
    assert len(set(node_names)) == len(node_names)
    assert graph[0].op_type == "gated"
    assert any(name.startswith("blk/") for name in node_names)
    proto = _model(graph, builder)
    data = np.array([-1.0, 0.5, 2.0], np.float32)
    (got,) = onnxruntime.InferenceSession(proto.SerializeToString()).run(None, {"x": data})
    a = data * _sigmoid(1.5 * data)
    b = a * _sigmoid(2.0 * a)
    np.testing.assert_allclose(got, b * _sigmoid(0.5 * b), rtol=1e-5)


def test_a_custom_domain_op_builder_is_an_opset_too():
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 23}, name="g")
    builder = GraphBuilder(graph)
    op = builder.op
    ms = builder.opset("com.microsoft", 1)
    assert ms.__onnx_opset__() == ("com.microsoft", 1)

    @script(default_opset=op)
    def double(x: FLOAT["N"]) -> FLOAT["N"]:
        return x + x

    x = builder.input("x", ir.DataType.FLOAT, [2])
    builder.add_output(op.call_inline(double, x), "y")
    proto = _model(graph, builder)
    (got,) = onnxruntime.InferenceSession(proto.SerializeToString()).run(
        None, {"x": np.array([1, 2], np.float32)}
    )
    np.testing.assert_array_equal(got, [2, 4])


def test_default_opset_of_another_kind_is_refused():
    with pytest.raises(TypeError, match="default_opset must be an Opset"):
        script(default_opset="opset18")  # type: ignore[arg-type]


def test_the_builders_functions_are_its_own_the_compiled_function_is_untouched():
    """The builder reads a script function's onnx_ir (no proto round trip); a function it
    registers is its own copy, so changing it changes neither the compiled function nor
    another builder's copy."""
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 23}, name="g")
    builder = GraphBuilder(graph)
    op = builder.op

    @script(default_opset=op)
    def scaled(x: FLOAT["N"]) -> FLOAT["N"]:
        return op.Mul(op.Relu(x), 2.0)

    before = scaled.to_function_proto().SerializeToString()
    x = builder.input("x", ir.DataType.FLOAT, [3])
    builder.add_output(op.call(scaled, x))
    registered = builder.functions[("this", "scaled", "")]
    registered.graph.remove(registered.graph[0], safe=False)
    assert scaled.to_function_proto().SerializeToString() == before
    other = GraphBuilder(ir.Graph([], [], nodes=[], opset_imports={"": 23}, name="h"))
    y = other.op.call_inline(scaled, other.input("y", ir.DataType.FLOAT, [3]))
    assert [n.op_type for n in other.graph] == ["Relu", "Constant", "Mul"]
    assert y.shape == ir.Shape([3])
    other.op.call(scaled, y)
    assert other.functions[("this", "scaled", "")] is not registered
    assert len(other.functions[("this", "scaled", "")].graph) == 3
