"""The options of proto2python, large and external tensors, and the command line."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import onnx
import onnx.helper as oh
import onnx.numpy_helper as nh
import pytest

import onnxscript
from onnxscript import cli
from onnxscript.reverse import exec_script, proto2python
from onnxscript.reverse.roundtrip import check
from onnxscript.testing import run_model
from onnxscript.testing.isomorphism import differences
from tests.reverse.common import FLOAT, INT64, assert_roundtrip, compiled, make_model, vi


def _arith_model() -> onnx.ModelProto:
    nodes = [
        oh.make_node("Constant", [], ["two"], value=nh.from_array(np.array(2.0, np.float32))),
        oh.make_node("Add", ["x", "y"], ["s"]),
        oh.make_node("Mul", ["s", "two"], ["m"]),
        oh.make_node("Less", ["m", "x"], ["lt"]),
        oh.make_node("Where", ["lt", "m", "s"], ["out"]),
    ]
    return make_model(
        nodes, [vi("x", FLOAT, [3]), vi("y", FLOAT, [3])], [vi("out", FLOAT, [3])], name="arith"
    )


def test_public_entry_point():
    assert onnxscript.proto2python is proto2python
    assert "proto2python" in onnxscript.__all__


def test_function_name_option():
    source, back = assert_roundtrip(_arith_model(), function_name="my_model")
    assert "def my_model(x: FLOAT[3], y: FLOAT[3])" in source
    assert back.graph.name == "my_model"


def test_rename_keeps_interface_names():
    source = assert_roundtrip(_arith_model(), rename=True).source
    assert "def arith(x: FLOAT[3], y: FLOAT[3])" in source
    assert "v0 = op.Constant(" in source and "return out" in source
    assert " s = " not in source


def test_use_operators():
    source = assert_roundtrip(_arith_model(), use_operators=True).source
    assert "s = x + y" in source
    assert "m = s * two" in source
    assert "lt = m < x" in source
    assert "out = op.Where(lt, m, s)" in source


def test_inline_const():
    model = _arith_model()
    source, back = assert_roundtrip(model, inline_const=True)
    assert "m = op.Mul(s, np.array(2.0, dtype=np.float32))" in source
    assert "two" not in source
    x, y = np.array([1, -2, 3], np.float32), np.array([0.5, 0.5, -4], np.float32)
    np.testing.assert_array_equal(run_model(back, [x, y])[0], run_model(model, [x, y])[0])


def _plus_initializer(tensor: onnx.TensorProto) -> onnx.ModelProto:
    """``y = x + tensor`` with ``tensor`` an initializer (``x`` and ``y`` have its shape)."""
    shape = list(tensor.dims)
    return make_model(
        [oh.make_node("Add", ["x", tensor.name], ["y"])],
        [vi("x", FLOAT, shape)],
        [vi("y", FLOAT, shape)],
        initializers=[tensor],
    )


def test_skip_initializers_makes_them_inputs():
    w = nh.from_array(np.arange(3, dtype=np.float32), "w")
    model = _plus_initializer(w)
    source = proto2python(model, skip_initializers=True)
    assert "def main(x: FLOAT[3], w: FLOAT[3]) -> FLOAT[3]:" in source
    back = compiled(source)
    x = np.ones(3, np.float32)
    np.testing.assert_array_equal(run_model(back, [x, nh.to_array(w)])[0], run_model(model, [x])[0])


def _big_model(path: str | None = None) -> onnx.ModelProto:
    model = _plus_initializer(nh.from_array(np.arange(5000, dtype=np.float32), "big"))
    if path is not None:
        onnx.save(model, path)
    return model


def test_large_tensors_are_read_back_from_the_model_file(tmp_path):
    path = str(tmp_path / "big.onnx")
    model = _big_model(path)
    source = proto2python(path)
    assert f'model_tensor("{path}", "big")' in source
    assert len(source) < 2000
    back = compiled(source)
    assert not differences(model, back, canonical=True)
    x = np.ones(5000, np.float32)
    np.testing.assert_array_equal(run_model(back, [x])[0], run_model(model, [x])[0])


def test_large_tensors_without_a_file_are_module_constants():
    source = proto2python(_big_model())
    assert "BIG = np.array([" in source
    assert "big = op.Constant(value=BIG)" in source


def test_external_data_tensors_print_as_external_tensor(tmp_path):
    model = _plus_initializer(nh.from_array(np.arange(4096, dtype=np.float32), "w"))
    path = str(tmp_path / "ext.onnx")
    onnx.save(model, path, save_as_external_data=True, location="ext.data", size_threshold=0)
    source = proto2python(path)
    assert 'external_tensor("w", 1, [4096], "ext.data", offset=0, length=16384)' in source
    back = compiled(source)
    (tensor,) = back.graph.initializer
    assert tensor.name == "w" and tensor.data_location == onnx.TensorProto.EXTERNAL
    out = str(tmp_path / "back.onnx")
    onnx.save(back, out)  # next to ext.data, so the reference resolves
    loaded = onnx.load(out)
    x = np.ones(4096, np.float32)
    np.testing.assert_array_equal(run_model(loaded, [x])[0], x + np.arange(4096, dtype=np.float32))


def test_graph_proto_translation():
    graph = _arith_model().graph
    source = proto2python(graph, opset_imports={"": 17})
    assert "from onnxscript import opset17 as op" in source
    assert "def make_model" not in source
    fn = exec_script(source)["arith"]
    model = fn.to_model_proto()
    assert not differences(graph, model.graph, canonical=True)


def test_bad_input_type():
    with pytest.raises(TypeError):
        proto2python(42)  # type: ignore[arg-type]


def test_cli_prints_writes_and_checks(tmp_path, capsys):
    path = str(tmp_path / "m.onnx")
    onnx.save(_arith_model(), path)
    assert cli.main([path]) == 0
    printed = capsys.readouterr().out
    assert "def arith(" in printed
    out = str(tmp_path / "m.py")
    assert cli.main([path, "-o", out, "--check", "--operators"]) == 0
    report = capsys.readouterr().out
    assert "structurally equal up to renaming: yes" in report
    assert "results on random inputs: same" in report
    with open(out, encoding="utf-8") as f:
        assert "s = x + y" in f.read()


def test_cli_as_module_runs_the_written_file(tmp_path):
    path = str(tmp_path / "m.onnx")
    onnx.save(_arith_model(), path)
    out = tmp_path / "generated.py"
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    subprocess.run([sys.executable, "-m", "onnxscript", path, "-o", str(out)], check=True, env=env)
    result = subprocess.run(
        [sys.executable, "-c", "import generated; print(generated.make_model().graph.name)"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "arith"


def test_cli_errors(tmp_path, capsys):
    assert cli.main([str(tmp_path / "missing.onnx")]) == 2
    bad = make_model([oh.make_node("Relu", ["nowhere"], ["y"])], [], [vi("y", FLOAT, [1])])
    path = str(tmp_path / "bad.onnx")
    onnx.save(bad, path)
    assert cli.main([path]) == 1
    assert "nothing defines" in capsys.readouterr().err


def test_check_reports_differences():
    model = _arith_model()
    source = proto2python(model).replace("op.Less(", "op.Greater(")
    result = check(model, source)
    assert not result.ok
    assert result.differences
    assert "no" in result.report()


def test_loop_index_is_not_written_as_an_operand():
    body = oh.make_graph(
        [oh.make_node("Identity", ["c"], ["c2"]), oh.make_node("Add", ["i", "acc"], ["acc2"])],
        "body",
        [vi("i", INT64, []), vi("c", onnx.TensorProto.BOOL, []), vi("acc", INT64, [])],
        [vi("c2", onnx.TensorProto.BOOL, []), vi("acc2", INT64, [])],
    )
    model = make_model(
        [oh.make_node("Loop", ["n", "", "z"], ["r"], body=body)],
        [vi("n", INT64, []), vi("z", INT64, [])],
        [vi("r", INT64, [])],
    )
    source = assert_roundtrip(model, use_operators=True).source
    assert "r = op.Add(i, r)" in source  # `+` would make `i` a Python int


def test_interface_names_that_are_not_identifiers_are_restored():
    model = make_model(
        [
            oh.make_node("Relu", ["input.1"], ["onnx::Add_3"]),
            oh.make_node("Add", ["onnx::Add_3", "input.1"], ["output:0"]),
        ],
        [vi("input.1", FLOAT, [2])],
        [vi("output:0", FLOAT, [2])],
    )
    source = assert_roundtrip(model).source
    assert "def main(input_1: FLOAT[2]) -> FLOAT[2]:" in source
    assert 'rename_values(model, {"input_1": "input.1", "output_0": "output:0"})' in source
    back = compiled(source)
    assert [i.name for i in back.graph.input] == ["input.1"]
    assert [o.name for o in back.graph.output] == ["output:0"]
