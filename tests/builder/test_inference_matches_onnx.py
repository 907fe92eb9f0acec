"""What the builder infers while building equals what onnx's shape inference finds on the
finished model: random programs of common ops on static shapes, compared value by value;
then run with onnxruntime (the inferred shapes are the real ones)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import onnx
import onnx.shape_inference
import onnx_ir as ir
from hypothesis import given
from hypothesis import strategies as st

from onnxscript.builder import GraphBuilder, OpBuilder
from tests.helpers import fuzz_settings

Step = Callable[[OpBuilder, ir.Value], ir.Value]


def _rank(v: ir.Value) -> int:
    assert v.shape is not None
    return len(v.shape)


def _last(v: ir.Value) -> int:
    assert v.shape is not None
    return int(v.shape[-1])


STEPS: dict[str, Step] = {
    "add_scalar": lambda op, v: op.Add(v, 1.5),
    "mul_row": lambda op, v: op.Mul(v, np.ones((_last(v),), np.float32)),
    "relu": lambda op, v: op.Relu(v),
    "matmul": lambda op, v: op.MatMul(v, np.ones((_last(v), 3), np.float32)),
    "transpose": lambda op, v: op.Transpose(v, perm=list(reversed(range(_rank(v))))),
    "flatten_last": lambda op, v: op.Reshape(v, [-1, _last(v)]),
    "reduce_keep": lambda op, v: op.ReduceSum(v, [0], keepdims=1),
    "reduce_drop": lambda op, v: (
        op.ReduceMean(v, axes=[_rank(v) - 1], keepdims=0) if _rank(v) > 1 else op.Neg(v)
    ),
    "concat": lambda op, v: op.Concat(v, v, axis=-1),
    "unsqueeze": lambda op, v: op.Unsqueeze(v, [0]) if _rank(v) < 4 else op.Abs(v),
    "squeeze": lambda op, v: op.Squeeze(v, [0]) if v.shape[0] == 1 and _rank(v) > 1 else op.Exp(v),
    "slice": lambda op, v: op.Slice(v, [0], [2], [-1]) if _last(v) > 1 else op.Sigmoid(v),
    "softmax": lambda op, v: op.Softmax(v, axis=-1),
    "greater_where": lambda op, v: op.Where(op.Greater(v, 0.0), v, 0.0),
    "cast_back": lambda op, v: op.Cast(op.Cast(v, to=ir.DataType.DOUBLE), to=ir.DataType.FLOAT),
    "shape_reshape": lambda op, v: op.Reshape(v, op.Shape(v)),
    "split_first": lambda op, v: (
        op.Split(v, num_outputs=2, axis=-1)[0] if _last(v) % 2 == 0 else op.Tanh(v)
    ),
    "gather": lambda op, v: op.Gather(v, [0, 0], axis=0),
}


def _types_by_name(model: onnx.ModelProto) -> dict[str, onnx.TypeProto]:
    inferred = onnx.shape_inference.infer_shapes(model, strict_mode=True, data_prop=True)
    graph = inferred.graph
    return {vi.name: vi.type for vi in [*graph.value_info, *graph.output]}


def _dims(type_proto: onnx.TypeProto) -> list[int]:
    return [d.dim_value for d in type_proto.tensor_type.shape.dim]


@fuzz_settings(60)
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    steps=st.lists(st.sampled_from(sorted(STEPS)), min_size=1, max_size=8),
)
def test_inferred_types_and_shapes_equal_onnx_inference(shape: list[int], steps: list[str]):
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 18}, name="g")
    builder = GraphBuilder(graph)
    value = builder.input("x", ir.DataType.FLOAT, shape)
    for step in steps:
        value = STEPS[step](builder.op, value)
    builder.add_output(value, "y")
    ours = {v.name: v for node in graph for v in node.outputs}
    proto = ir.serde.serialize_model(ir.Model(graph, ir_version=10))
    del proto.graph.value_info[:]  # onnx infers from scratch
    onnx.checker.check_model(proto, full_check=True)
    theirs = _types_by_name(proto)
    for name, value in ours.items():
        assert name in theirs, f"onnx inferred nothing for {name}"
        assert value.dtype == ir.DataType(theirs[name].tensor_type.elem_type), name
        assert value.shape is not None and list(value.shape) == _dims(theirs[name]), name
    import onnxruntime

    session = onnxruntime.InferenceSession(proto.SerializeToString())
    (result,) = session.run(None, {"x": np.ones(shape, np.float32)})
    assert list(result.shape) == list(graph.outputs[0].shape)
