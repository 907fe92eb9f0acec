"""Large models through what torch.onnx calls (``optimize``, ``check_model``,
``save_model_with_external_data``): weights are read only to be written, once, and never
copied; a model over protobuf's 2 GB goes through all three.

The test with 2.5 GB actually written is opt-in: ``ONNXSCRIPT_LARGE_TESTS=1``.
"""

from __future__ import annotations

import collections
import os
import tracemalloc

import numpy as np
import onnx
import onnx.numpy_helper
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript._framework_apis import _external_data, torch_2_11

GIB = 1024**3


class Reads:
    """Lazy tensors that count how often they are materialized (or refuse to be)."""

    def __init__(self, refuse: bool = False) -> None:
        self.refuse = refuse
        self.count: collections.Counter[str] = collections.Counter()

    def lazy(
        self, name: str, shape: list[int], fill: float, dtype: type = np.float32
    ) -> ir.LazyTensor:
        def materialize() -> ir.TensorProtocol:
            if self.refuse:
                raise AssertionError(f"{name} was materialized")
            self.count[name] += 1
            return ir.tensor(np.full(shape, fill, dtype), name=name)

        return ir.LazyTensor(
            materialize,
            dtype=ir.DataType.from_numpy(np.dtype(dtype)),
            shape=ir.Shape(shape),
            name=name,
        )


def _gather_model(weights: dict[str, ir.TensorProtocol], extra_nodes: int = 0) -> ir.Model:
    """``y = sum_i Gather(w_i, ids)`` over the ``weights`` (rows of width 1024, as an
    embedding), ``ids`` an input; each weight is an initializer."""
    nodes = [helper.make_node("Gather", [name, "ids"], [f"g_{name}"]) for name in weights]
    nodes.append(helper.make_node("Sum", [f"g_{name}" for name in weights], ["s"]))
    nodes.append(helper.make_node("Identity", ["s"], ["y"]))
    for index in range(extra_nodes):  # foldable constants, to give optimize work
        nodes.append(helper.make_node("Add", ["one", "one"], [f"two_{index}"]))
    graph = helper.make_graph(
        nodes,
        "large",
        [helper.make_tensor_value_info("ids", TensorProto.INT64, ["n"])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n", 1024])],
        [helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])]
        + [
            helper.make_tensor(name, TensorProto.FLOAT, [1, 1024], [0.0] * 1024) for name in weights
        ],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    proto.ir_version = 10
    model = ir.serde.deserialize_model(proto)
    for name, tensor in weights.items():
        value = model.graph.initializers[name]
        value.const_value = tensor
        value.shape = ir.Shape(tensor.shape)
    return model


def test_a_model_over_2gb_is_optimized_and_checked_without_reading_a_weight():
    reads = Reads(refuse=True)
    rows = 256 * 1024  # x 1024 float32: 1 GiB each
    weights: dict[str, ir.TensorProtocol] = {
        f"w{i}": reads.lazy(f"w{i}", [rows, 1024], i) for i in range(3)
    }
    model = _gather_model(weights, extra_nodes=2)
    assert _external_data.initializer_bytes(model) == 3 * GIB + 4  # and the scalar "one"

    torch_2_11.optimize(model)
    assert [n.op_type for n in model.graph] == ["Gather"] * 3 + ["Sum"]
    torch_2_11.check_model(model)
    for name, tensor in weights.items():  # the model holds its own tensors again
        assert model.graph.initializers[name].const_value is tensor

    model.graph.node(3).replace_input_with(0, ir.Value(name="nowhere"))
    with pytest.raises(onnx.checker.ValidationError, match="nowhere"):
        torch_2_11.check_model(model)  # the large model is still checked
    assert reads.count == {}


def test_save_streams_each_tensor_once_and_releases_pages(tmp_path, monkeypatch):
    """Every tensor is written from where it is: a lazy tensor computed once, an array
    from its memory in slices (pages released as they are written); the file holds the
    right bytes and the model keeps its tensors."""
    monkeypatch.setattr(_external_data, "RELEASE_EVERY_BYTES", 4096)
    advised: list[int] = []
    if hasattr(os, "posix_fadvise"):
        real_fadvise = os.posix_fadvise

        def fadvise(fd: int, offset: int, length: int, advice: int) -> None:
            advised.append(advice)
            real_fadvise(fd, offset, length, advice)

        monkeypatch.setattr(os, "posix_fadvise", fadvise)
    reads = Reads()
    rng = np.random.default_rng(0)
    arrays = {
        "dense": rng.standard_normal([40, 1024]).astype(np.float32),  # 160 KiB, in slices
        "half": rng.standard_normal([3, 1024]).astype(np.float16),
    }
    tensors: dict[str, ir.TensorProtocol] = {
        "lazy_a": reads.lazy("lazy_a", [20, 1024], 2.5),
        "lazy_b": reads.lazy("lazy_b", [2, 1024], -1.0),
        **{name: ir.Tensor(array, name=name) for name, array in arrays.items()},
    }
    model = _gather_model({k: v for k, v in tensors.items() if k != "half"})
    model.graph.register_initializer(ir.Value(name="half", const_value=tensors["half"]))
    path = tmp_path / "model.onnx"

    torch_2_11.save_model_with_external_data(model, path)

    assert reads.count == {"lazy_a": 1, "lazy_b": 1}
    for name, tensor in tensors.items():
        assert model.graph.initializers[name].const_value is tensor
    if hasattr(os, "posix_fadvise"):
        assert advised and set(advised) == {os.POSIX_FADV_DONTNEED}
    onnx.checker.check_model(str(path), full_check=True)
    stored = onnx.load(str(path), load_external_data=False).graph.initializer
    assert {t.name for t in stored if t.data_location == TensorProto.EXTERNAL} == set(tensors)
    loaded = onnx.load(str(path))
    saved = {t.name: onnx.numpy_helper.to_array(t) for t in loaded.graph.initializer}
    np.testing.assert_array_equal(saved["dense"], arrays["dense"])
    np.testing.assert_array_equal(saved["half"], arrays["half"])
    np.testing.assert_array_equal(saved["lazy_a"], np.full([20, 1024], 2.5, np.float32))
    np.testing.assert_array_equal(saved["lazy_b"], np.full([2, 1024], -1.0, np.float32))


def test_torch_tensors_are_saved_from_torch_memory(tmp_path, monkeypatch):
    """torch's initializers (its ``TorchTensor``), float32 and bfloat16, contiguous or
    not, are written byte for byte."""
    torch = pytest.importorskip("torch")
    core = pytest.importorskip("torch.onnx._internal.exporter._core")
    monkeypatch.setattr(_external_data, "RELEASE_EVERY_BYTES", 4096)
    generator = torch.Generator().manual_seed(0)
    sources = {
        "f32": torch.randn(64, 1024, generator=generator),
        "bf16": torch.randn(32, 1024, generator=generator).to(torch.bfloat16),
        "strided": torch.randn(1024, 8, generator=generator).t(),  # not contiguous
    }
    model = _gather_model({"f32": core.TorchTensor(sources["f32"], "f32")})
    for name in ("bf16", "strided"):
        tensor = core.TorchTensor(sources[name], name)
        model.graph.register_initializer(ir.Value(name=name, const_value=tensor))
    path = tmp_path / "model.onnx"
    torch_2_11.save_model_with_external_data(model, path)
    loaded = ir.load(path)
    for name, source in sources.items():
        saved = loaded.graph.initializers[name].const_value
        assert saved is not None and saved.dtype == core.TorchTensor(source).dtype
        expected = source.contiguous().view(torch.int16 if name == "bf16" else torch.int32)
        actual = np.frombuffer(saved.tobytes(), np.int16 if name == "bf16" else np.int32)
        np.testing.assert_array_equal(actual, expected.numpy().reshape(-1))


@pytest.mark.skipif(
    os.environ.get("ONNXSCRIPT_LARGE_TESTS") != "1",
    reason="writes 2.5 GB; set ONNXSCRIPT_LARGE_TESTS=1",
)
def test_a_model_over_2gb_is_saved_checked_by_path_and_runs(tmp_path):
    """Five lazy weights of 512 MiB: optimize, save (each computed once; at most one in
    memory at a time), check by path with onnx's full checker, run in onnxruntime."""
    ort = pytest.importorskip("onnxruntime")
    reads = Reads()
    rows = 128 * 1024
    names = [f"w{i}" for i in range(5)]
    model = _gather_model({name: reads.lazy(name, [rows, 1024], i) for i, name in enumerate(names)})
    torch_2_11.optimize(model)
    assert reads.count == {}
    path = tmp_path / "model.onnx"
    tracemalloc.start()
    try:
        torch_2_11.save_model_with_external_data(model, path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert reads.count == dict.fromkeys(names, 1)
    assert peak < 1.25 * 512 * 1024**2  # one weight at a time, no second copy
    assert os.path.getsize(tmp_path / "model.onnx.data") == 5 * 512 * 1024**2
    onnx.checker.check_model(str(path), full_check=True)
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    (result,) = session.run(None, {"ids": np.array([0, rows - 1], np.int64)})
    np.testing.assert_array_equal(result, np.full([2, 1024], sum(range(5)), np.float32))
