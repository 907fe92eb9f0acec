"""optimize() on models shaped like torch.onnx exports: checker-clean, same results, the
node counts onnxscript 0.7.2 reaches (measured: 49, 185, 23 on these layouts), and the
calling conventions of 0.7 (ModelProto in -> new ModelProto; ir.Model optimized in place)."""

from __future__ import annotations

import collections
import inspect

import onnx
import onnx_ir as ir
import pytest

from onnxscript import FLOAT, optimizer, script
from onnxscript import opset18 as op
from onnxscript.optimizer import _constant_folding
from onnxscript.passes import constant_folding, rounds
from onnxscript.values import Opset
from tests.exported_models import densenet_like, resnet_like, transformer_block
from tests.helpers import assert_same_results

FLOAT3 = FLOAT[3]

MODELS = {
    "resnet": (lambda: resnet_like(0.125, image=16), 49),
    "densenet": (lambda: densenet_like(0.125, image=16), 185),
    "transformer": (lambda: transformer_block(dim=16, heads=2, seq=4), 23),
}


@pytest.mark.parametrize("name", sorted(MODELS))
def test_optimize_exported_models(name: str):
    make, expected_nodes = MODELS[name]
    model = make()
    original = model.SerializeToString()
    optimized = optimizer.optimize(model)
    assert model.SerializeToString() == original  # a ModelProto argument is untouched
    assert isinstance(optimized, onnx.ModelProto)
    assert len(optimized.graph.node) == expected_nodes
    assert len(optimized.functions) == 0  # inlined, then unused
    ops = collections.Counter(n.op_type for n in optimized.graph.node)
    assert not {"Identity", "Constant", "Shape", "BatchNormalization", "Neg"} & set(ops)
    assert_same_results(model, optimized)


def test_an_ir_model_is_optimized_in_place():
    model = ir.serde.deserialize_model(resnet_like(0.125, image=16))
    before = sum(1 for _ in model.graph)
    assert optimizer.optimize(model) is model
    assert sum(1 for _ in model.graph) < before


def test_options_turn_steps_off():
    model = resnet_like(0.125, image=16)
    kept = optimizer.optimize(model, inline=False)
    assert [f.name for f in kept.functions] == ["relu_block"]
    assert_same_results(model, kept)
    unfolded = optimizer.optimize(model, onnx_shape_inference=False, num_iterations=1)
    assert "Shape" in {n.op_type for n in unfolded.graph.node}  # no shapes: nothing to fold
    assert_same_results(model, unfolded)


def test_optimize_is_idempotent():
    once = optimizer.optimize(transformer_block(dim=16, heads=2, seq=4))
    twice = optimizer.optimize(once)
    assert [n.op_type for n in twice.graph.node] == [n.op_type for n in once.graph.node]


def test_wrong_argument_is_a_clear_error():
    with pytest.raises(TypeError, match=r"expected an onnx_ir\.Model or an onnx\.ModelProto"):
        optimizer.optimize("model.onnx")  # type: ignore[type-var]


def test_optimize_a_graph_built_without_folding():
    from onnxscript.builder import GraphBuilder

    builder = GraphBuilder(
        ir.Graph([], [], nodes=[], opset_imports={"": 18}, name="g"), fold_constants=False
    )
    op = builder.op
    x = builder.input("x", ir.DataType.FLOAT, [2, 3, 4])
    rows = op.Gather(op.Shape(x), 0)
    flat = op.Reshape(op.Identity(x), op.Concat(op.Unsqueeze(rows, [0]), [-1], axis=0))
    builder.add_output(op.Add(op.Relu(flat), op.Relu(flat)), "y")
    model = ir.serde.serialize_model(ir.Model(builder.graph, ir_version=10))
    optimized = optimizer.optimize(model)
    assert [n.op_type for n in optimized.graph.node] == ["Reshape", "Relu", "Add"]
    assert_same_results(model, optimized)


_local = Opset("local", 1)


@script(_local, default_opset=op)
def _diff_square(x, y):
    diff = x - y
    return diff * diff


@script()
def _l2(x: FLOAT["N"], y: FLOAT["N"]) -> FLOAT[1]:
    return op.Sqrt(op.ReduceSum(_diff_square(x, y), keepdims=1))


def test_optimize_a_compiled_model_with_local_functions():
    model = _l2.to_model_proto(input_types=[FLOAT3, FLOAT3])
    assert [f.name for f in model.functions] == ["_diff_square"]
    optimized = optimizer.optimize(model)
    assert not optimized.functions
    assert [n.op_type for n in optimized.graph.node] == ["Sub", "Mul", "ReduceSum", "Sqrt"]
    assert_same_results(model, optimized)


def test_default_limits_are_read_from_one_place():
    """The size limits of folding (``passes.constant_folding``) and the number of rounds
    (``passes.rounds``) are the defaults of every entry point, as 0.7.2's (8192 and
    262144 elements, 2 rounds, measured from its signatures)."""

    expected = {
        "num_iterations": rounds.DEFAULT_NUM_ITERATIONS,
        "input_size_limit": constant_folding.DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT,
        "output_size_limit": constant_folding.DEFAULT_CONSTANT_FOLD_OUTPUT_SIZE_LIMIT,
    }
    assert expected == {"num_iterations": 2, "input_size_limit": 8192, "output_size_limit": 262144}
    for function in (optimizer.optimize, optimizer.optimize_ir, rounds.optimization_sequence):
        parameters = inspect.signature(function).parameters
        assert {name: parameters[name].default for name in expected} == expected, function
    for function in (constant_folding.fold_constants_ir, _constant_folding.fold_constants):
        parameters = inspect.signature(function).parameters
        for name in ("input_size_limit", "output_size_limit"):
            assert parameters[name].default == expected[name], (function, name)
    assert expected["input_size_limit"] == _constant_folding.DEFAULT_CONSTANT_FOLD_INPUT_SIZE_LIMIT
