"""onnxscript._framework_apis.torch_2_X: what torch.onnx imports (COMPATIBILITY §11)."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnx_ir as ir
import pytest
from onnx import TensorProto, helper

from onnxscript._framework_apis import ALIASES, torch_2_11
from onnxscript.values import OnnxFunction, TracedOnnxFunction

VERSIONS = [f"torch_2_{minor}" for minor in range(5, 16)]


@pytest.mark.parametrize("module", VERSIONS)
def test_every_version_offers_the_entry_points(module: str):
    api = importlib.import_module(f"onnxscript._framework_apis.{module}")
    for name in ("get_torchlib_ops", "optimize", "convert_version", "check_model"):
        assert callable(getattr(api, name))
    assert callable(api.save_model_with_external_data)
    if module == "torch_2_6":
        import onnxscript

        # as 0.7.2: the standard opset object, and its version
        assert api.torchlib_opset() is onnxscript.opset18
        assert api.torchlib_opset_version() == 18
    if module in ("torch_2_6", "torch_2_9"):
        assert api.TYPE_CHECKING is False  # 0.7.2's modules define it (typing's)


_ENTRY_POINTS = [
    "check_model",
    "convert_version",
    "get_torchlib_ops",
    "optimize",
    "save_model_with_external_data",
]
# What each torch_2_X offered before the unchanged versions became aliases: its names and
# the module of the one that defines them.
_OFFERED = {
    **{minor: dict.fromkeys(_ENTRY_POINTS, "torch_2_5") for minor in (5, 6, 7)},
    **{
        minor: {**dict.fromkeys(_ENTRY_POINTS, "torch_2_5"), "optimize": "torch_2_8"}
        for minor in range(8, 16)
    },
}
_OFFERED[6]["torchlib_opset"] = "torch_2_6"
_OFFERED[6]["torchlib_opset_version"] = "torch_2_6"

_PROBE = """
import importlib, json, sys
found = {}
for minor in range(5, 16):
    api = importlib.import_module(f"onnxscript._framework_apis.torch_2_{minor}")
    found[minor] = {n: getattr(api, n).__module__.rpartition(".")[2] for n in api.__all__}
print(json.dumps(found))
"""


def test_every_torch_path_imports_with_the_names_it_had():
    """Imported fresh (aliases resolved by the import system, as torch's ``import
    onnxscript._framework_apis.torch_2_X as onnxscript_apis`` does)."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE], capture_output=True, text=True, check=True
    )
    found = {int(minor): names for minor, names in json.loads(done.stdout).items()}
    assert found == _OFFERED


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_an_alias_is_the_module_it_equals(alias: str):
    api = importlib.import_module(f"onnxscript._framework_apis.{alias}")
    target = importlib.import_module(f"onnxscript._framework_apis.{ALIASES[alias]}")
    assert api is target
    assert api.__spec__.name == target.__name__  # the alias left the module's spec alone
    assert not (Path(target.__file__).parent / f"{alias}.py").exists()


def test_torchlib_ops_are_records_torch_reads():
    records = torch_2_11.get_torchlib_ops()
    keys = [(r.qualified_name, r.is_complex) for r in records]
    assert len(keys) == len(set(keys)) and len(keys) > 100
    names = {name for name, _ in keys}
    assert "aten::add.Tensor" in names and "aten::convolution" in names
    for record in records:
        namespaces = ("aten", "_operator", "math", "prims", "quantized_decomposed", "torchvision")
        assert record.qualified_name.startswith(tuple(f"{n}::" for n in namespaces))
        assert isinstance(record.function, (OnnxFunction, TracedOnnxFunction))
        assert isinstance(record.is_complex, bool)
    complex_names = {name for name, is_complex in keys if is_complex}
    # A complex variant beside its real one, and one that exists only for complex inputs.
    assert {"aten::mul.Tensor", "aten::_fft_c2c"} <= complex_names
    assert ("aten::mul.Tensor", False) in keys and ("aten::_fft_c2c", False) not in keys


def _model(opset: int, nodes: list[onnx.NodeProto], out: list[int] = [2, 3]) -> ir.Model:  # noqa: B006
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out)],
        [
            helper.make_tensor("w", TensorProto.FLOAT, [3], np.ones(3, np.float32)),
            helper.make_tensor("shape", TensorProto.INT64, [2], [3, 2]),
        ],
    )
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    proto.ir_version = 10
    return ir.serde.deserialize_model(proto)


def test_convert_version_bumps_or_converts():
    same = _model(18, [helper.make_node("Add", ["x", "w"], ["y"])])
    assert torch_2_11.convert_version(same, 20).opset_imports[""] == 20
    # An exporter's newer op (Gelu-20) in an opset-18 model, and a Reshape that changed.
    gelu = helper.make_node("Gelu", ["x"], ["g"])
    mixed = _model(18, [gelu, helper.make_node("Reshape", ["g", "shape"], ["y"])], out=[3, 2])
    for node in mixed.graph:
        if node.op_type == "Gelu":
            node.version = 20
    converted = torch_2_11.convert_version(mixed, 20)
    assert converted.opset_imports[""] == 20
    assert {n.op_type for n in converted.graph} == {"Gelu", "Reshape"}
    torch_2_11.check_model(converted)


def test_check_model_rejects_a_broken_model():
    broken = _model(18, [helper.make_node("Add", ["x", "missing"], ["y"])])
    with pytest.raises(Exception, match="missing"):
        torch_2_11.check_model(broken)


def test_save_with_external_data_and_optimize(tmp_path):
    model = _model(
        18, [helper.make_node("Identity", ["x"], ["i"]), helper.make_node("Add", ["i", "w"], ["y"])]
    )
    assert torch_2_11.optimize(model) is model
    assert [n.op_type for n in model.graph] == ["Add"]
    path = tmp_path / "model.onnx"
    torch_2_11.save_model_with_external_data(model, path)
    assert (tmp_path / "model.onnx.data").exists()
    loaded = onnx.load(str(path))
    assert [n.op_type for n in loaded.graph.node] == ["Add"]
