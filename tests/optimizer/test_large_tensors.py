"""The optimizer on large weights: a tensor above the folding limits is never read (its
``numpy()``, ``tobytes()`` or ``tofile()``), so weights held lazily (``ir.LazyTensor``,
external data, torch's memory) stay where they are, and no second copy is made; results
known to be too big are not computed at all."""

from __future__ import annotations

import collections

import numpy as np
import onnx
import onnx.reference
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript import optimizer
from onnxscript.inference import evaluate

BIG = [128, 128]
"""16384 elements: above optimize()'s default input limit (8192)."""


class Reads:
    """Lazy tensors that count how often they are materialized."""

    def __init__(self) -> None:
        self.count: collections.Counter[str] = collections.Counter()

    def lazy(self, name: str, array: np.ndarray) -> ir.LazyTensor:
        def materialize() -> ir.TensorProtocol:
            self.count[name] += 1
            return ir.tensor(array, name=name)

        return ir.LazyTensor(
            materialize, dtype=ir.tensor(array).dtype, shape=ir.Shape(array.shape), name=name
        )

    def make_lazy(self, model: ir.Model, arrays: dict[str, np.ndarray]) -> None:
        """The initializers ``arrays`` of ``model`` (placeholders there) made lazy."""
        for name, array in arrays.items():
            model.graph.initializers[name].const_value = self.lazy(name, array)


def _model(
    nodes: list[onnx.NodeProto],
    inputs: list[onnx.ValueInfoProto],
    initializers: dict[str, np.ndarray],
    opset: int = 18,
) -> ir.Model:
    graph = helper.make_graph(
        nodes,
        "g",
        inputs,
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [onnx.numpy_helper.from_array(a, name) for name, a in initializers.items()],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    proto.ir_version = 10
    return ir.serde.deserialize_model(proto)


def _run(model: ir.Model, feeds: dict[str, np.ndarray]) -> np.ndarray:
    result = onnx.reference.ReferenceEvaluator(ir.serde.serialize_model(model)).run(None, feeds)
    return np.asarray(result[0])


def _weights_model(rng: np.random.Generator) -> tuple[ir.Model, dict[str, np.ndarray]]:
    """Big weights met the ways an exported transformer meets them: arithmetic and
    layout ops on constants only, MatMul, Gather of an embedding, a no-op Cast, Identity,
    repeated computations, shapes of weights, Conv whose BatchNormalization cannot be
    fused."""
    weights = {
        "w1": rng.standard_normal(BIG).astype(np.float32),
        "w2": rng.standard_normal(BIG).astype(np.float32),
        "embedding": rng.standard_normal([1000, 128]).astype(np.float32),
        "conv_w": rng.standard_normal([128, 4, 3, 3]).astype(np.float32) * 0.1,
    }
    small = {
        "ids": np.array([[1, 5, 7, 999]], np.int64),
        "flat": np.array([64, 256], np.int64),
        "axes": np.array([0], np.int64),
        "one": np.array(1.0, np.float32),
        "bn_b": np.zeros(128, np.float32),
        "bn_mean": np.zeros(128, np.float32),
        "bn_var": np.ones(128, np.float32),
    }
    node = helper.make_node
    nodes = [
        node("Shape", ["w1"], ["shape2"]),
        node("Constant", [], ["one_c"], value=helper.make_tensor("", TensorProto.FLOAT, [], [1])),
        node("Add", ["w1", "w2"], ["sum"]),
        node("Transpose", ["w1"], ["w1t"], perm=[1, 0]),
        node("Cast", ["w2"], ["w2c"], to=TensorProto.FLOAT),
        node("Identity", ["w1"], ["w1i"]),
        node("Reshape", ["w2", "flat"], ["w2r"]),
        node("Reshape", ["w2r", "shape2"], ["w2rr"]),
        node("Unsqueeze", ["w1", "axes"], ["w1u"]),
        node("Squeeze", ["w1u", "axes"], ["w1s"]),
        node("Gather", ["embedding", "ids"], ["emb"]),
        node("Squeeze", ["emb", "axes"], ["x"]),
        *(node("MatMul", ["x", w], [f"m_{w}"]) for w in ("sum", "w1t", "w2c", "w1i", "w2rr")),
        node("MatMul", ["x", "w1i"], ["m_again"]),
        node("MatMul", ["x", "w1s"], ["m_w1s"]),
        node("Mul", ["m_sum", "one_c"], ["m_one"]),
        node("Sum", ["m_one", "m_w1t", "m_w2c", "m_w1i", "m_w2rr", "m_again", "m_w1s"], ["mm"]),
        node("Conv", ["image", "conv_w"], ["conv"], pads=[1, 1, 1, 1]),
        node("BatchNormalization", ["conv", "scale", "bn_b", "bn_mean", "bn_var"], ["bn"]),
        node("ReduceMean", ["bn"], ["bn_mean_all"], keepdims=0),
        node("Add", ["mm", "bn_mean_all"], ["y"]),
    ]
    inputs = [
        helper.make_tensor_value_info("image", TensorProto.FLOAT, [1, 4, 6, 6]),
        helper.make_tensor_value_info("scale", TensorProto.FLOAT, [128]),
    ]
    return _model(nodes, inputs, {**weights, **small}), weights


def test_optimize_never_reads_weights_above_the_folding_limit():
    rng = np.random.default_rng(0)
    model, weights = _weights_model(rng)
    feeds = {
        "image": rng.standard_normal([1, 4, 6, 6]).astype(np.float32),
        "scale": rng.standard_normal([128]).astype(np.float32),
    }
    expected = _run(model, feeds)
    reads = Reads()
    reads.make_lazy(model, weights)
    before = collections.Counter(n.op_type for n in model.graph)

    assert optimizer.optimize(model) is model

    assert reads.count == {}  # not one of them materialized
    after = collections.Counter(n.op_type for n in model.graph)
    # the repeated x@w1i merged, and x@Squeeze(Unsqueeze(w1)) is x@w1i too
    assert after["MatMul"] == before["MatMul"] - 2
    assert not {"Cast", "Identity", "Shape", "Mul"} & set(after)  # removed, folded
    assert after["Add"] == 2 and after["Transpose"] == 1  # on big constants: not folded
    assert {"BatchNormalization", "Conv", "Gather"} <= set(after)
    for name in weights:  # still the lazy tensors, same objects
        assert isinstance(model.graph.initializers[name].const_value, ir.LazyTensor)
    np.testing.assert_allclose(_run(model, feeds), expected, rtol=1e-4, atol=1e-4)


def test_fusing_batch_normalization_reads_the_weight_once():
    """The fusion computes new weights (the old ones are dropped): the only read of a big
    weight the optimizer makes, once."""
    rng = np.random.default_rng(1)
    weight = rng.standard_normal([128, 4, 3, 3]).astype(np.float32)
    bn = {
        "scale": rng.uniform(0.5, 1.5, 128).astype(np.float32),
        "bias": rng.standard_normal(128).astype(np.float32),
        "mean": rng.standard_normal(128).astype(np.float32),
        "var": rng.uniform(0.5, 1.5, 128).astype(np.float32),
    }
    nodes = [
        helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "scale", "bias", "mean", "var"], ["y"]),
    ]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 5, 5])]
    model = _model(nodes, inputs, {"w": weight, **bn})
    feeds = {"x": rng.standard_normal([1, 4, 5, 5]).astype(np.float32)}
    expected = _run(model, feeds)
    reads = Reads()
    reads.make_lazy(model, {"w": weight})
    optimizer.optimize(model)
    assert [n.op_type for n in model.graph] == ["Conv"]
    assert reads.count == {"w": 1}
    np.testing.assert_allclose(_run(model, feeds), expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize(
    "op_type",
    ["ConstantOfShape", "Expand", "Tile"],
)
def test_results_known_too_big_are_not_computed(op_type: str, monkeypatch):
    """A node whose output shape is known to exceed the output limit is left unfolded
    without computing it (a 1M-element result, limit 262144)."""
    computed: list[str] = []
    reference = evaluate._reference

    def counting(node: ir.Node, arrays: list[object], version: int) -> object:
        computed.append(node.op_type)
        return reference(node, arrays, version)

    monkeypatch.setattr(evaluate, "_reference", counting)
    arrays = {
        "shape": np.array([1024, 1024], np.int64),
        "row": np.ones([1, 1024], np.float32),
        "repeats": np.array([1024, 1], np.int64),
    }
    inputs_of = {
        "ConstantOfShape": ["shape"],
        "Expand": ["row", "shape"],
        "Tile": ["row", "repeats"],
    }
    nodes = [
        helper.make_node(op_type, inputs_of[op_type], ["big"]),
        helper.make_node("ReduceSum", ["big"], ["y"], keepdims=0),
    ]
    model = _model(nodes, [], arrays)
    optimizer.optimize(model)
    assert op_type in {n.op_type for n in model.graph}
    assert op_type not in computed
    assert _run(model, {}) == pytest.approx(1024 * 1024 if op_type != "ConstantOfShape" else 0)


def test_small_constants_still_fold():
    """The limits leave what fits folded: a Shape computation on a weight's shape, a
    small arithmetic on constants."""
    model = _model(
        [
            helper.make_node("Shape", ["w"], ["s"]),
            helper.make_node("Cast", ["s"], ["sf"], to=TensorProto.FLOAT),
            helper.make_node("Add", ["sf", "b"], ["y"]),
        ],
        [],
        {"w": np.zeros(BIG, np.float32), "b": np.ones(2, np.float32)},
    )
    reads = Reads()
    reads.make_lazy(model, {"w": np.zeros(BIG, np.float32)})
    optimizer.optimize(model)
    assert list(model.graph) == [] or all(n.op_type == "Constant" for n in model.graph)
    assert reads.count == {}
    np.testing.assert_array_equal(_run(model, {}), [129.0, 129.0])
