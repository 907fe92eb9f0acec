"""Malformed or hostile model files given to ``python -m onnxscript``: every failure is one
line on stderr and a non-zero exit, never a traceback; ``--check`` bounds what it
allocates."""

from __future__ import annotations

import subprocess
import sys

import onnx
import onnx.helper as oh
import pytest

from onnxscript import cli
from onnxscript.reverse.roundtrip import MAX_INPUT_ELEMENTS
from tests.reverse.common import FLOAT, make_model, vi


def _relu_model() -> onnx.ModelProto:
    return make_model([oh.make_node("Relu", ["x"], ["y"])], [vi("x", FLOAT, [2])], [vi("y")])


def _string_initializer(raw: bytes) -> onnx.ModelProto:
    tensor = onnx.TensorProto(name="s", data_type=onnx.TensorProto.STRING, dims=[1])
    tensor.string_data.append(raw)
    model = make_model(
        [oh.make_node("Identity", ["s"], ["y"])], [], [vi("y", onnx.TensorProto.STRING, [1])]
    )
    model.graph.initializer.append(tensor)
    return model


def _bad_raw_data() -> onnx.ModelProto:
    model = _relu_model()
    tensor = onnx.TensorProto(name="w", data_type=FLOAT, dims=[4], raw_data=b"\x00" * 3)
    model.graph.initializer.append(tensor)
    return model


MALFORMED = {
    "corrupt bytes": b"\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01garbage",
    "empty file": b"",
    "raw data of the wrong length": _bad_raw_data().SerializeToString(),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_model_is_one_line_on_stderr(name, tmp_path, capsys):
    path = tmp_path / "model.onnx"
    path.write_bytes(MALFORMED[name])
    code = cli.main([str(path)])
    captured = capsys.readouterr()
    assert code == 1
    assert captured.err.startswith(f"error: {path}: ")
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err


def test_string_tensor_that_is_not_utf8_passes_the_check(tmp_path, capsys):
    """Not malformed: ONNX strings are bytes. onnx's ``to_array`` cannot decode these; the
    script writes them as ``bytes`` literals."""
    path = tmp_path / "model.onnx"
    path.write_bytes(_string_initializer(b"\xff\xfe").SerializeToString())
    code = cli.main([str(path), "--check"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "b'\\xff\\xfe'" in captured.out
    assert "structurally equal up to renaming: yes" in captured.err


def test_output_path_that_is_a_directory(tmp_path, capsys):
    path = tmp_path / "model.onnx"
    onnx.save(_relu_model(), path)
    assert cli.main([str(path), "-o", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "IsADirectoryError" in err


def test_check_does_not_allocate_a_huge_declared_input(tmp_path, capsys):
    side = 20_000  # 400 million elements declared by a tiny model
    model = make_model(
        [oh.make_node("Relu", ["x"], ["y"])],
        [vi("x", FLOAT, [side, side])],
        [vi("y", FLOAT, [side, side])],
    )
    path = tmp_path / "model.onnx"
    onnx.save(model, path)
    assert len(path.read_bytes()) < 200
    assert cli.main([str(path), "-o", str(tmp_path / "m.py"), "--check"]) == 0
    report = capsys.readouterr().out
    assert f"over the limit of {MAX_INPUT_ELEMENTS}" in report


def test_traceback_is_kept_behind_the_environment_variable(tmp_path):
    path = tmp_path / "model.onnx"
    path.write_bytes(MALFORMED["corrupt bytes"])
    plain = subprocess.run(
        [sys.executable, "-m", "onnxscript", str(path)], capture_output=True, text=True
    )
    assert plain.returncode == 1 and plain.stderr.count("\n") == 1
    debug = subprocess.run(
        [sys.executable, "-m", "onnxscript", str(path)],
        capture_output=True,
        text=True,
        env={"ONNXSCRIPT_TRACEBACK": "1", "PATH": ""},
    )
    assert debug.returncode != 0 and "Traceback" in debug.stderr
