"""onnxscript.nn: registration, naming, state dicts, containers, modules as functions;
built models pass onnx.checker (full) and match numpy in onnxruntime."""

from __future__ import annotations

import numpy as np
import onnx
import onnx_ir as ir
import onnxruntime
import pytest

from onnxscript import GraphBuilder, nn
from onnxscript.builder import BuilderError


class Linear(nn.Module):
    def __init__(self, d_in: int, d_out: int, bias: bool = True, name: str | None = None):
        super().__init__(name)
        self.weight = nn.Parameter([d_out, d_in])
        self.bias = nn.Parameter([d_out]) if bias else None

    def forward(self, op, x):
        y = op.MatMul(x, op.Transpose(self.weight, perm=[1, 0]))
        return y if self.bias is None else op.Add(y, self.bias)


class Net(nn.Module):
    def __init__(self, as_function: bool = False):
        super().__init__()
        self.fc1 = Linear(4, 8)
        self.fc2 = Linear(8, 4, bias=False)
        self.seq = nn.Sequential(Linear(4, 4), Linear(4, 4))
        self.layers = nn.ModuleList([Linear(4, 4) for _ in range(2)])
        for layer in self.layers:
            layer.as_function = as_function

    def forward(self, op, x):
        h = self.fc2(op, op.Relu(self.fc1(op, x)))
        h = self.seq(op, h)
        for layer in self.layers:
            h = layer(op, h)
        return h


KEYS = [
    "fc1.weight",
    "fc1.bias",
    "fc2.weight",
    "seq.0.weight",
    "seq.0.bias",
    "seq.1.weight",
    "seq.1.bias",
    "layers.0.weight",
    "layers.0.bias",
    "layers.1.weight",
    "layers.1.bias",
]


def random_weights(module: nn.Module, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    return {
        key: rng.standard_normal(p.shape.dims).astype(np.float32)
        for key, p in module.named_parameters()
    }


def build(module: nn.Module, shape: list) -> tuple[onnx.ModelProto, ir.Graph]:
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 23}, name="g")
    builder = GraphBuilder(graph)
    x = builder.input("x", ir.DataType.FLOAT, shape)
    builder.add_output(module(builder.op, x), "y")
    model = ir.Model(graph, ir_version=10, functions=builder.functions.values())
    proto = ir.serde.serialize_model(model)
    onnx.checker.check_model(proto, full_check=True)
    return proto, graph


def net_reference(w: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    def lin(h, key, bias=True):
        y = h @ w[f"{key}.weight"].T
        return y + w[f"{key}.bias"] if bias else y

    h = lin(np.maximum(lin(x, "fc1"), 0), "fc2", bias=False)
    for key in ("seq.0", "seq.1", "layers.0", "layers.1"):
        h = lin(h, key)
    return h


def run(proto: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    session = onnxruntime.InferenceSession(proto.SerializeToString())
    return session.run(None, {"x": x})[0]


def test_parameters_and_modules_are_registered_by_assignment_in_order():
    net = Net()
    assert [k for k, _ in net.named_parameters()] == KEYS
    assert [k for k, _ in net.named_children()] == ["fc1", "fc2", "seq", "layers"]
    assert [k for k, _ in net.named_modules()] == [
        "",
        "fc1",
        "fc2",
        "seq",
        "seq.0",
        "seq.1",
        "layers",
        "layers.0",
        "layers.1",
    ]
    assert list(net.children()) == [net.fc1, net.fc2, net.seq, net.layers]
    assert len(list(net.modules())) == 9
    assert [p.name for p in net.fc1.parameters()] == ["weight", "bias"]
    assert [k for k, _ in net.named_parameters(recurse=False)] == []
    assert net.fc1.name == "fc1" and net.layers[1].name == "layers.1" and net.seq[0].name == "0"


def test_built_model_has_qualified_initializers_and_matches_numpy():
    net = Net()
    weights = random_weights(net)
    net.load_state_dict(weights)
    proto, graph = build(net, [3, 4])
    assert list(graph.initializers) == KEYS
    assert net.fc1.weight.name == "fc1.weight" and net.fc1.weight.is_initializer()
    namespaces = {n.metadata_props.get("namespace") for n in graph}
    assert {": Net/fc1: Linear", ": Net/seq: Sequential/0: Linear"} <= namespaces  # as 0.7
    x = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(run(proto, x), net_reference(weights, x), rtol=1e-5, atol=1e-5)


def test_ops_on_parameters_are_recorded_not_folded():
    net = Linear(4, 4)
    net.load_state_dict(random_weights(net))
    _, graph = build(net, [2, 4])
    assert [n.op_type for n in graph] == ["Transpose", "MatMul", "Add"]
    assert list(graph.initializers) == ["weight", "bias"]


def test_weights_loaded_after_building_reach_the_model():
    net = Net()
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 23}, name="g")
    builder = GraphBuilder(graph)
    builder.add_output(net(builder.op, builder.input("x", ir.DataType.FLOAT, [2, 4])), "y")
    weights = random_weights(net, seed=3)
    net.load_state_dict(weights)
    proto = ir.serde.serialize_model(ir.Model(graph, ir_version=10))
    onnx.checker.check_model(proto, full_check=True)
    x = np.ones((2, 4), np.float32)
    np.testing.assert_allclose(run(proto, x), net_reference(weights, x), rtol=1e-5, atol=1e-5)


def test_a_module_called_twice_reuses_its_initializers():
    lin = Linear(4, 4)
    lin.load_state_dict(random_weights(lin))
    graph = ir.Graph([], [], nodes=[], opset_imports={"": 23}, name="g")
    builder = GraphBuilder(graph)
    x = builder.input("x", ir.DataType.FLOAT, [2, 4])
    builder.add_output(lin(builder.op, lin(builder.op, x)), "y")
    assert list(graph.initializers) == ["weight", "bias"]


def test_state_dict_round_trips_numpy_onnx_ir_and_casts_types():
    net = Net()
    weights = random_weights(net)
    net.load_state_dict(
        {k: ir.tensor(v) if i % 2 else v for i, (k, v) in enumerate(weights.items())}
    )
    state = net.state_dict()
    assert list(state) == KEYS
    for key, value in state.items():
        assert value is not None
        np.testing.assert_array_equal(value.numpy(), weights[key])
    other = Net()
    other.load_state_dict(state)
    assert all(
        np.array_equal(a.numpy(), b.numpy())
        for a, b in zip(other.state_dict().values(), state.values())
    )
    lin = Linear(2, 3)
    lin.load_state_dict({"weight": np.ones((3, 2)), "bias": [1, 2, 3]})  # float64, ints
    assert lin.weight.const_value.dtype == ir.DataType.FLOAT
    np.testing.assert_array_equal(lin.bias.const_value.numpy(), np.array([1, 2, 3], np.float32))


def test_state_dict_of_torch_tensors():
    torch = pytest.importorskip("torch")
    lin = Linear(2, 3)
    lin.load_state_dict({"weight": torch.ones(3, 2), "bias": torch.arange(3.0)})
    np.testing.assert_array_equal(lin.bias.const_value.numpy(), np.arange(3, dtype=np.float32))


def test_load_state_dict_errors_are_clear_and_change_nothing():
    lin = Linear(2, 3)
    good = {"weight": np.ones((3, 2), np.float32), "bias": np.zeros(3, np.float32)}
    with pytest.raises(nn.StateDictError, match=r"'weigth' \(did you mean 'weight'\?\)"):
        lin.load_state_dict({**good, "weigth": np.ones((3, 2))})
    with pytest.raises(KeyError, match=r"missing key.*'bias'"):
        lin.load_state_dict({"weight": good["weight"]})
    with pytest.raises(
        ValueError, match=r"state_dict\['bias'\] has shape \[4\] but the parameter has shape \[3\]"
    ):
        lin.load_state_dict({**good, "bias": np.zeros(4, np.float32)})
    with pytest.raises(nn.StateDictError, match="not a tensor"):
        lin.load_state_dict({**good, "bias": object()})
    assert lin.weight.const_value is None  # nothing was set
    result = lin.load_state_dict({"weight": good["weight"], "extra": 1}, strict=False)
    assert result.missing_keys == ["bias"] and result.unexpected_keys == ["extra"]
    assert lin.weight.const_value is not None and lin.bias.const_value is None


def test_parameter_with_data_dtype_and_repr():
    p = nn.Parameter([2], data=np.array([1, 2], np.int64), name="steps")
    assert (
        p.dtype == ir.DataType.INT64
        and repr(p) == "Parameter(shape=[2], dtype=INT64, name='steps')"
    )
    assert nn.Parameter([3]).dtype == ir.DataType.FLOAT
    with pytest.raises(ValueError, match="shape"):
        nn.Parameter([3], data=np.zeros(2, np.float32))


def test_misuse_gives_clear_errors():
    class Early(nn.Module):
        def __init__(self):
            self.weight = nn.Parameter([1])

    with pytest.raises(AttributeError, match=r"super\(\)\.__init__\(\)"):
        Early()
    with pytest.raises(TypeError, match="builder's op"):
        Linear(2, 2)(None, None)
    with pytest.raises(NotImplementedError, match="forward"):
        graph = ir.Graph([], [], nodes=[], opset_imports={"": 23})
        nn.Module()(GraphBuilder(graph).op)
    with pytest.raises(TypeError, match="iterate over it"):
        graph = ir.Graph([], [], nodes=[], opset_imports={"": 23})
        nn.ModuleList([Linear(2, 2)])(GraphBuilder(graph).op, None)
    with pytest.raises(TypeError, match="holds modules"):
        nn.ModuleList().append(3)  # type: ignore[arg-type]


def test_two_parameters_with_one_qualified_name_are_refused():
    class Twice(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = nn.Parameter([1], name="w", data=np.ones(1, np.float32))
            self.b = nn.Parameter([1], name="w", data=np.ones(1, np.float32))

        def forward(self, op, x):
            return op.Add(op.Add(x, self.a), self.b)

    with pytest.raises(BuilderError, match=r"'w'.*already used"):
        build(Twice(), [1])


def test_containers_index_slice_and_reassign():
    layers = nn.ModuleList([Linear(2, 2), Linear(2, 2)])
    layers.append(Linear(2, 2)).extend([Linear(2, 2)])
    assert len(layers) == 4 and layers[-1] is list(layers)[3]
    part = layers[1:3]
    assert isinstance(part, nn.ModuleList) and list(part) == [layers[1], layers[2]]
    assert layers[1].name == "1"  # slicing does not rename
    with pytest.raises(IndexError, match="out of range"):
        layers[9]
    net = Net()
    net.fc2 = None
    del net.seq
    assert [k for k, _ in net.named_children()] == ["fc1", "layers"]
    assert "fc2.weight" not in net.state_dict()
    assert (
        "(fc1): Linear(\n    (weight): Parameter(shape=[8, 4], dtype=FLOAT, name='weight')"
        in repr(net)
    )


def test_root_module_name_prefixes_initializers_as_in_0_7():
    lin = Linear(2, 2, name="model")
    lin.load_state_dict(random_weights(lin))
    _, graph = build(lin, [1, 2])
    assert list(graph.initializers) == ["model.weight", "model.bias"]
    assert list(lin.state_dict()) == ["weight", "bias"]


def test_modules_as_functions_share_one_function_and_match_numpy():
    net = Net(as_function=True)
    weights = random_weights(net)
    net.load_state_dict(weights)
    proto, graph = build(net, [3, 4])
    assert [f.name for f in proto.functions] == ["Linear"]
    calls = [n for n in proto.graph.node if n.domain == "pkg.onnxscript.nn"]
    assert len(calls) == 2 and "layers.0.weight" in calls[0].input
    assert list(graph.initializers) == KEYS
    x = np.random.default_rng(2).standard_normal((3, 4)).astype(np.float32)
    np.testing.assert_allclose(run(proto, x), net_reference(weights, x), rtol=1e-5, atol=1e-5)


def test_modules_as_functions_differing_bodies_get_separate_functions():
    class Pair(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = Linear(2, 2)
            self.b = Linear(2, 2, bias=False)
            self.a.as_function = self.b.as_function = True

        def forward(self, op, x):
            return self.b(op, self.a(op, x))

    pair = Pair()
    weights = random_weights(pair)
    pair.load_state_dict(weights)
    proto, _ = build(pair, [1, 2])
    assert sorted(f.name for f in proto.functions) == ["Linear", "Linear_1"]
    x = np.ones((1, 2), np.float32)
    expected = (x @ weights["a.weight"].T + weights["a.bias"]) @ weights["b.weight"].T
    np.testing.assert_allclose(run(proto, x), expected, rtol=1e-5)
