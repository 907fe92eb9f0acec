"""Every model the exporter suites produce round-trips through ``onnxscript model.onnx
--check``: exported by ``torch.onnx.export(dynamo=True)`` as the suites export it (the real
architectures of tests/function_libs/real_models.py with their dynamic shapes, the torch.nn
modules of tests/function_libs/models.py), saved, and given to the command line, whose
check compiles the script back, compares structures, translates again (same text) and runs
both models on random inputs. Each model is checked as exported and after ``optimize()``
(what ``torch.onnx.export(optimize=True)`` returns).

CI runs four models (see ``CI_SUBSET``): exporting is most of the cost. Every model runs with
``ONNXSCRIPT_FULL_MODEL_SUITE=1``::

    ONNXSCRIPT_FULL_MODEL_SUITE=1 python -m pytest -q tests/reverse/test_exported_models.py
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import onnx
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("torchvision")
pytest.importorskip("onnxruntime")

from onnxscript import cli  # noqa: E402
from onnxscript.reverse.roundtrip import compile_source  # noqa: E402
from tests.function_libs import models, real_models  # noqa: E402
from tests.function_libs.dynamic_export import (  # noqa: E402
    compare,
    export,
    flat_tensors,
    run_onnx_each,
)

FULL = os.environ.get("ONNXSCRIPT_FULL_MODEL_SUITE", "") not in ("", "0")
"""Whether to run every model (not only the CI subset)."""

CI_SUBSET = {"llama_kv", "tv_resnet18", "lstm_deep", "attention"}
"""The models CI runs: a decoder with a KV cache, a CNN, a stacked bidirectional LSTM, a
transformer block (exporting takes most of the time: 1 to 5 s a model)."""

REAL = real_models.suite()
SMALL = models.suite()


def _param(name: str, skip: str = "") -> Any:
    marks = []
    if not (name in CI_SUBSET or FULL):
        marks.append(pytest.mark.skip(reason="full suite only (ONNXSCRIPT_FULL_MODEL_SUITE=1)"))
    if skip:
        marks.append(pytest.mark.skip(reason=skip))
    return pytest.param(name, marks=marks, id=name)


def _not_exported(model: real_models.RealModel) -> str:
    """Why the suite has no export of ``model`` (empty when it has one)."""
    if model.torch_fails:
        return f"torch.export cannot capture it: {model.torch_fails}"
    return f"the export fails: {model.xfail}" if model.xfail else ""


def _export_real(name: str) -> tuple[Any, list[list[Any]]]:
    """The ONNXProgram and the model's inputs at the suite's two sizes (flat tensors)."""
    model = REAL[name]
    module = model.module()
    program = export(module, model.inputs(0), model.dynamic_shapes(module), optimize=False)
    return program, [flat_tensors(model.inputs(0)), flat_tensors(model.inputs(1))]


def _export_small(name: str) -> tuple[Any, list[list[Any]]]:
    module, args = SMALL[name]
    return export(module, args, optimize=False), [list(args)]


def _assert_round_trips(
    exported: tuple[Any, list[list[Any]]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``onnxscript model.onnx --check`` succeeds on the exported model and on the model
    ``optimize()`` makes of it, and the script's model gives the original's results on the
    suite's inputs too (the check's random inputs cannot always run a model: an attention
    mask as long as the past and new tokens together, an image larger than a patch)."""
    program, inputs = exported
    failures = []
    for form in ("exported", "optimized"):
        if form == "optimized":
            program.optimize()
        path, script = tmp_path / f"{form}.onnx", tmp_path / f"{form}.py"
        onnx.save(program.model_proto, path)
        code = cli.main([str(path), "--check", "-o", str(script)])
        report = capsys.readouterr()
        if code != 0:
            failures.append(f"{form}: {report.out}{report.err}")
            continue
        compiled = compile_source(script.read_text(encoding="utf-8"))
        assert isinstance(compiled, onnx.ModelProto)
        expected = run_onnx_each(program.model_proto, inputs)
        got = run_onnx_each(compiled, inputs)
        differences = [compare(g, e) for g, e in zip(got, expected)]
        if not all(d.ok for d in differences):
            failures.append(f"{form}: results differ on the suite's inputs: {differences}")
    assert not failures, "\n".join(failures)


@pytest.mark.filterwarnings("ignore::UserWarning", "ignore::DeprecationWarning")
@pytest.mark.parametrize(
    "name",
    [_param(name, skip=_not_exported(m)) for name, m in REAL.items()],
)
def test_real_model_round_trips(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    _assert_round_trips(_export_real(name), tmp_path, capsys)


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", [_param(name) for name in SMALL])
def test_torch_nn_model_round_trips(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    _assert_round_trips(_export_small(name), tmp_path, capsys)
